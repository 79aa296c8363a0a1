"""When a ticket is due, as a person reads it: stored times shown as "2026-12-06 22:21 UTC",
and the first answer its team owes it (`core.teams.AnswerPromise`) in the asker's language."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

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


def _working_hours(seconds: float, zh: bool) -> str:
    hours = seconds / 3600
    count = f"{hours:.0f}" if hours >= 1 else f"{hours:.1f}"
    if zh:
        return f"{count} 个工作小时"
    return f"{count} working hour{'' if count == '1' else 's'}"


def answer_promise(promise: AnswerPromise | None, now: datetime | None, zh: bool) -> str:
    """Who owes the ticket a first answer and by when (nothing without a promise): what a
    requester asking "how long will this take?" about an untaken ticket can be told."""
    if promise is None:
        return ""
    due = moment(promise.due)
    within = _working_hours(promise.within_s, zh)
    late = now is not None and now >= promise.due
    if zh:
        if late:
            return (
                f"尚无人接手；{promise.team} 团队的首次响应时限"
                f"（{promise.priority}，{within}）已于 {due} 到期"
            )
        return (
            f"尚无人接手；{promise.team} 团队对 {promise.priority} 工单的首次响应目标是"
            f" {within}内，即 {due} 之前"
        )
    if late:
        return (
            f"nobody has picked it up yet, and the {promise.team} team's target for a first "
            f"answer ({promise.priority}, {within}) passed at {due}"
        )
    return (
        f"nobody has picked it up yet; the {promise.team} team aims to answer "
        f"{promise.priority} tickets within {within}, by {due}"
    )
