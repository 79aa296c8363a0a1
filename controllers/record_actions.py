"""What a message asks to do with an existing record (ticket, change, work order): look it up,
search by topic, list, reopen, close, urge, comment or process it. Shared by the controller
that works on records and by the chain's look-up step, which must not depend on any one
controller pack."""

from __future__ import annotations

import re
from typing import Literal

from controllers.ids import find_ticket_ids, normalize_ticket_id
from controllers.ticket_search import search_topic

Action = Literal["search", "list", "reopen", "close", "urge", "comment", "process", "status"]

#: Checked in this order: "reopen" before "close", complaints ("nobody handled it") are urges.
_ACTIONS: tuple[tuple[Action, re.Pattern[str]], ...] = (
    (
        "list",
        re.compile(
            r"\blist (?:my|all|our)|\bmy (?:open |pending )?tickets\b|how many tickets|"
            r"\bwhich tickets|我名下|我的(?:所有)?工单(?:有哪些|列表)|"
            r"我(?:还)?有(?:几|多少)个?(?:工单|单)|"
            r"(?:列出|查一下|看看)我(?:名下|的)?(?:所有)?(?:还没关闭的|未关闭的|打开的)?工单",
            re.I,
        ),
    ),
    ("reopen", re.compile(r"\bre-?open|重新打开|重开|再打开|重新开启", re.I)),
    (
        "close",
        re.compile(
            r"\bclose\b|\bresolve (?:it|this|the)|\bcancel|withdraw|"
            r"关闭|关掉|关单|结单|关了|撤销|取消",
            re.I,
        ),
    ),
    (
        "urge",
        re.compile(
            r"\burge|\bchase|\bhurry|expedite|speed (?:it )?up|\bnudge|\bpush (?:it|this)|"
            r"nobody|no one|no-one|催|加急|还没人|没人处理|怎么还没",
            re.I,
        ),
    ),
    ("comment", re.compile(r"\bcomment|\badd (?:a )?note|\bnote:|备注|评论|补充|留言", re.I)),
    (
        "process",
        re.compile(
            r"\bprocess\b|\bhandle\b|\btake (?:it|this|care)|处理一下|请处理|帮我处理|办理", re.I
        ),
    ),
)


#: The requester takes their own request back ("cancel it, not needed anymore", "不用了，取消吧"):
#: the "close" action's withdrawing words, and saying it is no longer needed.
_WITHDRAW = re.compile(
    r"\bcancel|\bwithdraw|no longer need|not needed any ?more|don'?t need (?:it|this|that)"
    r"|撤销|撤回|取消|不需要了|不用了",
    re.I,
)
#: ... unless the words are denied ("don't cancel it", "不要取消").
_KEEP_IT = re.compile(
    r"\b(?:don'?t|do not|not|never|no need to)\s+(?:cancel|withdraw)|不要取消|别取消|先别|不用取消",
    re.I,
)


def withdraws(text: str) -> bool:
    """Does the message take a request back, rather than report on it? Read on the thread's
    record the way a close command is read on a named ticket."""
    return bool(_WITHDRAW.search(text)) and not _KEEP_IT.search(text)


def detect_action(text: str) -> Action:
    """The operation the text asks for; a plain mention means a status lookup. A search by
    topic ("find my tickets about the keyboard") comes first: it names tickets by what they
    are about, which a listing of every open ticket does not answer."""
    if search_topic(text) is not None:
        return "search"
    for action, pattern in _ACTIONS:
        if pattern.search(text):
            return action
    return "status"


#: What joins a comment command to its words without a colon, after the ticket's id ("add a
#: note to INC-000001 saying it happens at home too", "给 INC-000001 留言说在家也这样").
_SAYING = re.compile(
    r"\b(?:saying|that says|which says|to say|that reads)\b|"
    r"(?:备注|评论|留言|补充)(?:说|写)|内容是",
    re.I,
)


def comment_text(text: str, ticket_id: str) -> str:
    """What a comment command adds to `ticket_id`: the text after its colon ("add a comment to
    INC-000001: it also happens with the HDMI cable") or after "saying" and the like following
    the ticket's id, "" when there is none."""
    for mark in (":", "："):
        if mark in text:
            tail = text.split(mark, 1)[1].strip()
            if tail and normalize_ticket_id(tail) != ticket_id:
                return tail
    at = text.upper().find(ticket_id)
    after = text[at + len(ticket_id) :] if at >= 0 else text
    saying = _SAYING.search(after)
    if saying is None:
        return ""
    return after[saying.end() :].strip(" \t\"'“”‘’,，")


def named_comment(text: str) -> str:
    """The comment a message adds to the ticket it names ("add a comment to INC-000001: ..."),
    "" when it is no comment command on a named ticket."""
    ids = find_ticket_ids(text)
    if not ids or detect_action(text) != "comment":
        return ""
    return comment_text(text, normalize_ticket_id(ids[0]))
