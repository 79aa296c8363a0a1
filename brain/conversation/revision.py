"""A follow-up that changes what the record already says: "actually make it 23:30" on a change
scheduled "tonight at 23:00", "改到明晚十点", "sorry, I meant Friday".

Such a reply names no field ("the window is …") and answers no question, so it was added to
the record as a comment and the record kept the old value: the change went ahead at the time
the requester had just moved. It is read as an update of the fields it gives a new value for:
the values the record's controller reads in the reply, each written there in full (evidence,
never a kind the controller derives nor the reply's other words), set on the record or not
yet ("can you make it read-only?" sets an access request's role), when the reply says it
revises (the words of correcting or moving, a small closed class in either language). A bare
new clock time keeps the rest of the old value: "tonight at 23:00" revised by "23:30" is
"tonight at 23:30".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from brain.conversation.follow_up import FollowUp
from core.cues import cues

#: Words of correcting or moving a value, English and Chinese.
_REVISES = re.compile(cues(__name__).regex("revises"), re.IGNORECASE)
#: A clock time ("23:30", "9.15", "22：00").
_CLOCK = re.compile(cues(__name__).regex("clock"))


def revised(
    reading: FollowUp, held: Mapping[str, Any], read: Callable[[], Mapping[str, str]]
) -> FollowUp | None:
    """The reply as an update of the record's fields it revises (`held`: the record's
    fields; `read`: what the record's controller reads in the reply, asked only when the reply
    says it revises), None when it revises none. A question that revises ("can you make it
    read-only?") is such an update too."""
    if reading.kind not in ("update", "question") or reading.fields or not revises(reading.text):
        return None
    values = revised_values(held, read(), reading.text)
    return replace(reading, kind="update", fields=values) if values else None


def revises(text: str) -> bool:
    """Does the reply say it changes something already said?"""
    return bool(_REVISES.search(text))


def revised_values(held: Mapping[str, Any], read: Mapping[str, str], text: str) -> dict[str, str]:
    """The fields `read` (what the record's controller reads in the reply `text`) gives a new
    value for (fields of the record's kind: its controller read them), set in the record
    (`held`) or not yet ("can you make it read-only?" sets an access request's role), each as
    the record should now say it.
    Only a value the reply states counts, every word of it written there: a kind the
    controller derives ("换成手机热点就可以了", a workaround, read as the category hardware)
    is no revision of the record's."""
    values: dict[str, str] = {}
    said = text.lower()
    for name, value in read.items():
        old = held.get(name)
        if not isinstance(old, str | None) or not value.strip():
            continue  # not a text (a list, a flag): never replaced by words
        old = old or ""
        if not all(word in said for word in value.lower().split()):
            continue
        new = _kept_around(old, value.strip()) if old else value.strip()
        if new.strip().lower() != old.strip().lower():
            values[name] = new
    return values


def _kept_around(old: str, new: str) -> str:
    """A bare clock time replaces the one clock time of the old value and keeps its day."""
    times = _CLOCK.findall(old)
    if _CLOCK.fullmatch(new) and len(times) == 1:
        return old.replace(times[0], new)
    return new
