"""The problem said to be gone after something the requester tried, for the continuation set's
train split (`make_continuation_set.py`): "disabled the add-in and it works now", "重启了一下，
现在好了".

The `resolved` class (the thread resolves the record) was learned from the authors' bare
phrasings ("works now", "自己好了"), while a try followed by how things stand was only ever a
retry that failed ("重启了电脑，好了一会儿又连不上了": an update). So a try followed by "works
now" read as an update at 0.9. Here each sampled train thread whose record is a problem or a
request gets one message made of a try and the problem gone, labelled `resolved`; the retry
families beside them keep a try followed by the problem back as an update.

How they were written: tries, phrasings of "gone" and patterns invented for this file in
English and Chinese, none taken from the conversation benchmark's splits or the held-out
authors' pools. Appended after the other families with a random stream of their own, so the
other rows do not move; each pattern is its own template, so the calibration folds keep a
wording together.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from continuation_context import train_threads

TRIES = {
    "en": [
        "restarted it", "rebooted the laptop", "cleared the cache", "reinstalled the app",
        "disabled the add-in", "updated the driver", "logged out and back in",
        "plugged it into another port", "reset my password", "removed the old profile",
        "toggled wifi off and on", "followed the KB article", "rolled back the update",
        "swapped the cable", "a colleague changed one setting", "cleared my browser cookies",
    ],
    "zh": [
        "重启了一下", "重启了电脑", "清了缓存", "重装了客户端", "把插件关了", "更新了驱动",
        "退出重新登录了", "换了个USB口", "重置了密码", "删了旧的配置文件", "按知识库的步骤操作了",
        "回滚了更新", "换了根网线", "同事帮我改了个设置", "清了浏览器缓存",
    ],
}  # fmt: skip
GONE = {
    "en": [
        "works now", "it's working again", "all good now", "that fixed it", "problem solved",
        "it's fine now", "back to normal", "sorted", "no more errors", "I can get in again",
        "it connects now", "looks good now",
    ],
    "zh": [
        "现在好了", "已经恢复了", "可以用了", "没问题了", "解决了", "能连上了", "正常了",
        "不报错了", "搞定了",
    ],
}  # fmt: skip
PATTERNS = {
    "en": [
        "{t}, {g}", "{t} and {g}", "nvm, {t} and {g}", "update: {t}, {g}", "ok so I {t}, {g}",
        "never mind, {g} after I {t}", "{g} - I {t}", "fyi {t}, {g}, thanks",
    ],
    "zh": [
        "{t}，{g}", "{t}之后{g}", "刚{t}，{g}", "不用了，{t}，{g}", "{g}，{t}就行了",
        "跟进一下：{t}，{g}", "{t}，{g}，谢谢",
    ],
}  # fmt: skip
#: Records of these kinds have a problem or a request that can be gone or done.
KINDS = ("incident", "access", "other")


def resolved_rows(rows: Sequence[dict[str, object]], seed: int = 7) -> list[dict[str, object]]:
    """One try-then-gone message for about half of the train threads that wait for no answer,
    labelled `resolved`."""
    rng = random.Random(f"{seed}-resolved")
    out: list[dict[str, object]] = []
    for first in train_threads(rows):
        lang = str(first["lang"])
        if first["question"] or str(first["kind"]) not in KINDS or rng.random() < 0.5:
            continue
        index = rng.randrange(len(PATTERNS[lang]))
        message = PATTERNS[lang][index].format(t=rng.choice(TRIES[lang]), g=rng.choice(GONE[lang]))
        out.append(
            {
                **first,
                "message": message,
                "same_user": True,
                "minutes": round(rng.uniform(5.0, 240.0), 1),
                "label": "resolved",
                "family": "resolved_after_try",
                "template": f"{lang}:resolved_after_try:{index}",
            }
        )
    return out
