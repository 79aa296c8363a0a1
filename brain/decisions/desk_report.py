"""What the help desk did over a period, per category (the ticket's kind) and per team: the
figures a desk lead asks for outside the console (`brain stats`).

- **Messages**: decisions made; routed, asked back ("clarify") and left unplaced; pages, and
  the pages a person then corrected or rejected (false pages).
- **First-touch routing accuracy**: of the routed decisions, those no person corrected or
  rejected; a strict figure counts the asked-back messages as wrong too (what the benchmarks
  call strict accuracy).
- **Tickets**: filed in the period, still open, resolved; **MTTR** from creation to the first
  resolution or closing (a record closed because it moved to another controller is not a
  resolution, and is left out).
- **SLA breaches**: a ticket queued for a team breached when the team's working time from its
  creation to its first claim (or resolution; or now, when neither came) passed the team's SLA
  for its priority: the help desk sweep's rule (`bot.helpdesk.sweep`), counted afterwards.

Times are the records' own UTC stamps; figures are computed from what is stored, never kept.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from brain.decisions.browse import corrected
from controllers.tickets import GENERIC_KIND, MOVED_REASON
from core.records import Decision
from core.stores.records import Ticket
from core.teams import HelpdeskConfig, ticket_priority

#: Ticket events that end the work on it (the first one counts for MTTR).
_DONE = ("resolved", "closed")
#: Events that mean a person took the ticket up (the SLA clock stops).
_TAKEN = ("claimed", "processing", "resolved", "closed")


@dataclass(slots=True)
class MessageFigures:
    """Decisions of one controller (or all): how they were routed and corrected."""

    messages: int = 0
    routed: int = 0
    asked_back: int = 0
    corrected: int = 0
    pages: int = 0
    false_pages: int = 0

    @property
    def first_touch(self) -> float | None:
        """Routed and never corrected, as a share of the routed (None: nothing routed)."""
        return None if not self.routed else round((self.routed - self.corrected) / self.routed, 3)

    @property
    def strict(self) -> float | None:
        """Routed right as a share of the routed and the asked back."""
        decided = self.routed + self.asked_back
        return None if not decided else round((self.routed - self.corrected) / decided, 3)

    def add(self, decision: Decision) -> None:
        self.messages += 1
        wrong = corrected(decision)
        if decision.outcome == "clarify":
            self.asked_back += 1
        elif decision.controller:
            self.routed += 1
            self.corrected += int(wrong)
        if decision.escalate:
            self.pages += 1
            self.false_pages += int(wrong)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "first_touch": self.first_touch, "strict": self.strict}


@dataclass(slots=True)
class TicketFigures:
    """Tickets of one category or team filed in the period."""

    filed: int = 0
    open: int = 0
    resolved: int = 0
    #: Hours from creation to the first resolution or closing, per resolved ticket.
    hours_to_resolve: list[float] = field(default_factory=list)
    sla_breaches: int = 0
    #: Tickets with a team (and so an SLA).
    with_sla: int = 0

    @property
    def mttr_hours(self) -> float | None:
        """Mean time to resolve, in hours (None: nothing resolved)."""
        values = self.hours_to_resolve
        return round(statistics.fmean(values), 2) if values else None

    @property
    def median_hours(self) -> float | None:
        values = self.hours_to_resolve
        return round(statistics.median(values), 2) if values else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "filed": self.filed,
            "open": self.open,
            "resolved": self.resolved,
            "mttr_hours": self.mttr_hours,
            "median_hours_to_resolve": self.median_hours,
            "sla_breaches": self.sla_breaches,
            "with_sla": self.with_sla,
        }


@dataclass(slots=True)
class DeskReport:
    """The period's figures: messages overall and per controller, tickets per category and
    per team."""

    since: str
    until: str
    messages: MessageFigures = field(default_factory=MessageFigures)
    by_controller: dict[str, MessageFigures] = field(default_factory=dict)
    tickets: TicketFigures = field(default_factory=TicketFigures)
    by_category: dict[str, TicketFigures] = field(default_factory=dict)
    by_team: dict[str, TicketFigures] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "since": self.since,
            "until": self.until,
            "messages": self.messages.to_dict(),
            "by_controller": {k: v.to_dict() for k, v in sorted(self.by_controller.items())},
            "tickets": self.tickets.to_dict(),
            "by_category": {k: v.to_dict() for k, v in sorted(self.by_category.items())},
            "by_team": {k: v.to_dict() for k, v in sorted(self.by_team.items())},
        }


def desk_report(
    decisions: Iterable[Decision],
    tickets: Iterable[Ticket],
    helpdesk: HelpdeskConfig,
    *,
    since: datetime,
    now: datetime,
) -> DeskReport:
    """The figures of the decisions and tickets created from `since` up to `now`."""
    report = DeskReport(_stamp(since), _stamp(now))
    for decision in decisions:
        if not _within(decision.created_at, since, now):
            continue
        report.messages.add(decision)
        name = decision.controller or "(none)"
        report.by_controller.setdefault(name, MessageFigures()).add(decision)
    for ticket in tickets:
        if not _within(ticket.created_at, since, now):
            continue
        rows = [report.tickets, report.by_category.setdefault(category_of(ticket), TicketFigures())]
        if ticket.team:
            rows.append(report.by_team.setdefault(ticket.team, TicketFigures()))
        breached = _breached(ticket, helpdesk, now)
        hours = _hours_to_resolve(ticket)
        for row in rows:
            _count(row, ticket, hours, breached)
    return report


def category_of(ticket: Ticket) -> str:
    """The category a ticket is counted in: its kind, or for a ticket of the generic kind an
    imported desk files (`handler: local_ticket`, `options.category`), the desk's category:
    a desk imported with twelve queues is reported as twelve rows, not one "ticket" row.
    (An incident's own "category" field, the user's words for the problem, is not a queue.)"""
    category = ticket.fields.get("category")
    if ticket.kind == GENERIC_KIND and isinstance(category, str) and category.strip():
        return category
    return ticket.kind


def _count(row: TicketFigures, ticket: Ticket, hours: float | None, breached: bool | None) -> None:
    row.filed += 1
    row.open += int(ticket.is_open)
    if hours is not None:
        row.resolved += 1
        row.hours_to_resolve.append(hours)
    if breached is not None:
        row.with_sla += 1
        row.sla_breaches += int(breached)


def _first(ticket: Ticket, events: Sequence[str], keep: Callable[[dict[str, str]], bool]) -> str:
    for entry in ticket.history:
        if entry.get("event") in events and keep(entry):
            return str(entry.get("at") or "")
    return ""


def _resolution(entry: dict[str, str]) -> bool:
    return not str(entry.get("reason") or "").startswith(MOVED_REASON)


def _hours_to_resolve(ticket: Ticket) -> float | None:
    done = _first(ticket, _DONE, _resolution)
    if not done or not ticket.created_at:
        return None
    seconds = (_parse(done) - _parse(ticket.created_at)).total_seconds()
    return round(max(0.0, seconds) / 3600.0, 3)


def _breached(ticket: Ticket, helpdesk: HelpdeskConfig, now: datetime) -> bool | None:
    """Whether the ticket passed its team's SLA before a person took it up; None without a
    team (no SLA applies)."""
    team = helpdesk.teams.get(ticket.team or "")
    if team is None or not ticket.created_at:
        return None
    taken = _first(ticket, _TAKEN, lambda _: True)
    end = _parse(taken) if taken else now
    waited = team.working_seconds(_parse(ticket.created_at), end)
    return waited >= team.sla_for(ticket_priority(ticket))


def _parse(stamp: str) -> datetime:
    moment = datetime.fromisoformat(stamp)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _within(stamp: str, since: datetime, now: datetime) -> bool:
    try:
        moment = _parse(stamp)
    except ValueError:
        return False
    return since <= moment <= now


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")
