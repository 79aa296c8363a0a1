"""What a message asks to do with an existing record (ticket, change, work order): look it up,
search by topic, list, reopen, close, urge, comment or process it. Shared by the controller
that works on records and by the chain's look-up step, which must not depend on any one
controller pack."""

from __future__ import annotations

import re
from typing import Literal

from controllers.ids import find_ticket_ids, normalize_ticket_id
from controllers.ticket_search import search_topic
from core.cues import cues

Action = Literal["search", "list", "reopen", "close", "urge", "comment", "process", "status"]

#: Checked in this order: "reopen" before "close", complaints ("nobody handled it") are urges.
_CUES = cues(__name__)
_ACTIONS: tuple[tuple[Action, re.Pattern[str]], ...] = tuple(
    (action, re.compile(_CUES.regex(action), re.I))
    for action in ("list", "reopen", "close", "urge", "comment", "process")
)


#: The requester takes their own request back ("cancel it, not needed anymore", "不用了，取消吧"):
#: the "close" action's withdrawing words, and saying it is no longer needed.
_WITHDRAW = re.compile(_CUES.regex("withdraw"), re.I)
#: ... unless the words are denied ("don't cancel it", "不要取消").
_KEEP_IT = re.compile(_CUES.regex("keep_it"), re.I)


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
_SAYING = re.compile(_CUES.regex("saying"), re.I)
_COMMENT_MARKS = _CUES.words("comment_marks")
_COMMENT_TRIM = _CUES.regex("comment_trim")


def comment_text(text: str, ticket_id: str) -> str:
    """What a comment command adds to `ticket_id`: the text after its colon ("add a comment to
    INC-000001: it also happens with the HDMI cable") or after "saying" and the like following
    the ticket's id, "" when there is none."""
    for mark in _COMMENT_MARKS:
        if mark in text:
            tail = text.split(mark, 1)[1].strip()
            if tail and normalize_ticket_id(tail) != ticket_id:
                return tail
    at = text.upper().find(ticket_id)
    after = text[at + len(ticket_id) :] if at >= 0 else text
    saying = _SAYING.search(after)
    if saying is None:
        return ""
    return after[saying.end() :].strip(_COMMENT_TRIM)


def named_comment(text: str) -> str:
    """The comment a message adds to the ticket it names ("add a comment to INC-000001: ..."),
    "" when it is no comment command on a named ticket."""
    ids = find_ticket_ids(text)
    if not ids or detect_action(text) != "comment":
        return ""
    return comment_text(text, normalize_ticket_id(ids[0]))
