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


def logged_messages(settings: Settings, start: datetime, *, limit: int) -> list[Decision]:
    """The decisions logged since `start`, oldest first, without the parts of multi-intent
    messages (their whole message is one message)."""
    stores = open_stores(settings)
    try:
        store = stores.decisions
        if not isinstance(store, DecisionPages):
            raise TypeError(f"the {stores.backend.name} decision log cannot be paged")
        found = decisions_since(store, start.isoformat(timespec="milliseconds"), limit=limit)
    finally:
        stores.close()
    return [d for d in found if not any(PART_NOTE in step for step in d.tier_path)]
