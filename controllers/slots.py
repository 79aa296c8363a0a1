"""What a phrase caught for a required field names, once its filler is set aside.

A request controller's patterns catch the words around a cue ("access to ...", "deploy the
... service", "申请...权限"); those words name a system or a service only when something is
left after the quantifiers, determiners and pronouns that fill out a sentence ("one of the",
"the new", "一下", "这个") and the bare kind of thing ("dashboards", "service", "系统"). A
field is taken from that evidence or from the user's answer, never from the leftovers, so a
request that names nothing is asked which one.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from core.lazy import LazyPattern

__all__ = ["named"]

#: Words that fill out a request without naming anything ("access to one more tool").
FILLER = frozenset({
    "the", "a", "an", "my", "our", "your", "their", "his", "her", "its", "me", "us", "you",
    "this", "that", "these", "those", "it", "them", "one", "ones", "of", "more", "other",
    "another", "new", "old", "same", "some", "any", "all", "every", "everything", "something",
    "anything", "stuff", "thing", "things", "few", "couple", "extra", "additional", "different",
    "certain", "such", "which", "what", "whatever", "there", "here", "else", "also", "just",
    "please", "access",
    # words that describe a thing without naming it ("the shared one", "the usual stuff")
    "usual", "shared", "regular", "normal", "relevant", "necessary", "required", "right",
    "proper", "appropriate", "various", "several", "main", "current", "existing", "whole",
})  # fmt: skip
#: The kinds of thing a phrase ends with ("portal", "dashboards", "service"): alone they
#: name nothing.
KINDS = frozenset({
    "portal", "system", "systems", "app", "apps", "application", "applications", "tool",
    "tools", "dashboard", "dashboards", "share", "drive", "folder", "database", "db", "server",
    "servers", "cluster", "bucket", "repo", "repository", "group", "channel", "terminal",
    "mailbox", "project", "account", "service", "services", "engine", "platform", "gateway",
    "api", "job", "node", "nodes", "environment", "instance", "one", "ones",
})  # fmt: skip
#: Chinese filler before a name ("一下", "开一下", "一个", "这个", "相关的"); a phrase caught
#: without word boundaries may hold the verb before it too ("要发布一个新服务"), open with
#: the "下" of a quick "开通下" ("开通下新系统"), or with whom the work is for ("需要给支付网关").
_ZH_FILLER = LazyPattern(
    r"(?:^下(?!载|午|周|个月|班)|^(?:需要|想要|要|得)?(?:给|帮|为|对(?!账|象|话|接|外|比))|(?:开通|申请|添加|[开弄加办要给通])一?下(?!载|午|周|个月|班)|一下|一个|一些|一点|这个|那个|某个|某些|其他的?|其它的?|别的|"
    r"新的|相关的?|我的|我们的)+"
)
#: Chinese kinds after a name ("系统", "服务", "集群").
_ZH_KINDS = LazyPattern(r"(?:系统|平台|门户|账号|权限|服务|网关|集群|数据库|环境|实例|的)+$")
#: What may be left of a Chinese phrase and still name nothing ("新" of "新系统").
_ZH_LEFTOVERS = frozenset({"新", "旧", "老", "另一", "另外", "其他", "别的"})
_CJK = re.compile(r"[\u4e00-\u9fff]")


def named(phrase: str, generic: Collection[str] = ()) -> str | None:
    """The phrase without its leading filler when something in it names a thing, else None
    ("one of the dashboards", "the new service", "一下", "这个集群"). `generic`: whole phrases
    the caller's patterns catch that name nothing (its cue verbs, "申请")."""
    phrase = phrase.strip()
    if not phrase or phrase.lower() in generic:
        return None
    if _CJK.search(phrase):
        kept = _ZH_FILLER.compiled.split(phrase)[-1]  # what follows the last filler
        left = _ZH_KINDS.sub("", kept)
        if not left or left in _ZH_LEFTOVERS or left in generic:
            return None
        return kept.removesuffix("的").strip()  # "GitLab的" (权限) names GitLab
    words = phrase.split()
    while words and words[0].lower() in FILLER:
        words.pop(0)
    if all(word.lower() in FILLER or word.lower() in KINDS for word in words):
        return None
    return " ".join(words)
