"""When a ticket is due, as a person reads it: stored times shown as "2026-12-06 22:21 UTC",
and the first answer its team owes it (`core.teams.AnswerPromise`) in the asker's language
(the `tickets.promise_*` messages of `core.wording`)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from core.wording import Wording, wording_for

if TYPE_CHECKING:
    from core.teams import AnswerPromise

__all__ = ["answer_promise", "moment"]


def moment(stamp: str | datetime) -> str:
    """A stored ISO time as a person reads it ("2026-12-06 22:21 UTC")."""
    try:
        at = stamp if isinstance(stamp, datetime) else datetime.fromisoformat(stamp)
    except ValueError:
        return str(stamp)
    return at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _working_hours(seconds: float, words: Wording) -> str:
    hours = seconds / 3600
    count = f"{hours:.0f}" if hours >= 1 else f"{hours:.1f}"
    return words.say("tickets.working_hours", count=count)


def answer_promise(promise: AnswerPromise | None, now: datetime | None, zh: bool) -> str:
    """Who owes the ticket a first answer and by when (nothing without a promise): what a
    requester asking "how long will this take?" about an untaken ticket can be told."""
    if promise is None:
        return ""
    words = wording_for(zh)
    late = now is not None and now >= promise.due
    return words.say(
        "tickets.promise_late" if late else "tickets.promise_due",
        team=promise.team,
        priority=promise.priority,
        within=_working_hours(promise.within_s, words),
        due=moment(promise.due),
    )
