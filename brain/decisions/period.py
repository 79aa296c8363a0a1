"""The messages a period of the decision log holds: what a replay re-decides and what the
desk's figures count (`brain replay --since`, `brain stats --since`)."""

from __future__ import annotations

from datetime import datetime, timedelta

from brain.decisions.browse import since as decisions_since
from core.config import Settings
from core.records import Decision
from core.stores import open_stores
from core.stores.protocols import DecisionPages

#: The tier-path note of a multi-intent message's part (its whole message is the message).
PART_NOTE = "part of multi-intent decision"


def parse_since(text: str) -> timedelta:
    """`7d`, `12h`, `30m` -> a timedelta."""
    units = {"d": "days", "h": "hours", "m": "minutes"}
    if len(text) < 2 or text[-1] not in units or not text[:-1].isdigit():
        raise ValueError(f"--since takes a number and d, h or m (7d), not {text!r}")
    return timedelta(**{units[text[-1]]: int(text[:-1])})


def messages_in(store: DecisionPages, start: datetime, *, limit: int) -> list[Decision]:
    """The messages of a decision log since `start`, oldest first, without the parts of
    multi-intent messages (their whole message is one message)."""
    found = decisions_since(store, start.isoformat(timespec="milliseconds"), limit=limit)
    return [d for d in found if not any(PART_NOTE in step for step in d.tier_path)]


def logged_messages(settings: Settings, start: datetime, *, limit: int) -> list[Decision]:
    """`messages_in` the home's decision log, opened for this read (a command or a replay
    outside a running process that holds the stores)."""
    stores = open_stores(settings)
    try:
        store = stores.decisions
        if not isinstance(store, DecisionPages):
            raise TypeError(f"the {stores.backend.name} decision log cannot be paged")
        return messages_in(store, start, limit=limit)
    finally:
        stores.close()
