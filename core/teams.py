"""Help desk settings: owning teams (channel, user group, working hours, SLA per priority)
and the stale-ticket timers, the `[helpdesk]` section of brain.toml.

A team owns controllers and/or request categories; a filed ticket or a decision that needs a
person is queued for the team owning its controller. The SLA clock runs only inside the
team's working hours, so a ticket filed on Friday night is not "breached" on Saturday.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

if TYPE_CHECKING:  # the settings load before the stores package (which reads them)
    from core.stores.records import Ticket

_TIME = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")
_HOURS = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d)$")
#: Urgencies (core.records) as help desk priorities.
PRIORITY_OF_URGENCY = {"critical": "P1", "high": "P2", "medium": "P3", "low": "P4"}
#: How far ahead a due time is looked for (a team working no day of the week has none).
MAX_DUE_DAYS = 400
DEFAULT_SLA_S = {"P1": 3600.0, "P2": 4 * 3600.0, "P3": 24 * 3600.0, "P4": 72 * 3600.0}


def ticket_priority(ticket: Ticket) -> str:
    """P1..P4: given on the request, else from the decision's urgency (what the SLA is for)."""
    given = str(ticket.fields.get("priority") or "")
    return given or PRIORITY_OF_URGENCY.get(str(ticket.fields.get("urgency") or "low"), "P4")


@dataclass(frozen=True, slots=True)
class AnswerPromise:
    """When the team a ticket is queued for aims to give it a first answer: its priority's SLA
    counted in the team's working hours from the filing (what a requester asking "how long
    will this take?" can be told; the sweep warns the team at the same moment)."""

    team: str
    priority: str
    #: The SLA of that priority, in seconds of the team's working time.
    within_s: float
    due: datetime


class TeamConfig(BaseModel):
    """One team: where it is told, who is in it, when it works and how fast it answers."""

    model_config = ConfigDict(extra="forbid")

    channel: str | None = None
    #: A Slack user group (S...) whose members may Claim; `members` adds people by id.
    usergroup: str | None = None
    members: list[str] = Field(default_factory=list)
    controllers: list[str] = Field(default_factory=list)
    categories: list[str] = Field(default_factory=list)
    #: "HH:MM-HH:MM" in UTC, Monday to Friday (`days`, 0 = Monday); "00:00-24:00" every day
    #: with all seven days is round the clock.
    hours: str = "00:00-24:00"
    days: list[int] = Field(default_factory=lambda: list(range(7)))
    #: Seconds of working time before an unclaimed ticket breaches, per priority.
    sla_s: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_SLA_S))
    #: "HH:MM" (UTC): post the last 24 hours' figures to `channel` daily at that time; None:
    #: no digest. `language`: the digest's language ("en" or "zh").
    digest_at: str | None = None
    language: Literal["en", "zh"] = "en"

    @field_validator("digest_at")
    @classmethod
    def _digest_at(cls, value: str | None) -> str | None:
        if value is not None and not _TIME.match(value):
            raise ValueError('the digest time is written "HH:MM" (UTC), e.g. "08:30"')
        return value

    @field_validator("hours")
    @classmethod
    def _hours(cls, value: str) -> str:
        if not _HOURS.match(value):
            raise ValueError('working hours are written "HH:MM-HH:MM", e.g. "09:00-18:00"')
        return value

    def sla_for(self, priority: str) -> float:
        """The SLA of a priority (the loosest one configured when it is not listed)."""
        return self.sla_s.get(priority) or max(self.sla_s.values(), default=DEFAULT_SLA_S["P4"])

    def _window(self, day: datetime) -> tuple[datetime, datetime] | None:
        """The working hours of the day starting at midnight `day` (None: not a working day)."""
        if day.weekday() not in self.days:
            return None
        first, last = self.hours.split("-")
        opens = time.fromisoformat(first)
        return (
            day + timedelta(hours=opens.hour, minutes=opens.minute),
            day + timedelta(hours=int(last[:2]), minutes=int(last[3:])),
        )

    def after_working_seconds(self, start: datetime, seconds: float) -> datetime:
        """The moment `seconds` of working time after `start` (`working_seconds` read the
        other way: the SLA clock's due time)."""
        day = start.replace(hour=0, minute=0, second=0, microsecond=0)
        left = max(0.0, seconds)
        for _ in range(MAX_DUE_DAYS):
            window = self._window(day)
            if window is not None:
                window_start = max(start, window[0])
                room = (window[1] - window_start).total_seconds()
                if room > 0 and left <= room:
                    return window_start + timedelta(seconds=left)
                left -= max(0.0, room)
            day += timedelta(days=1)
        return day

    def working_seconds(self, start: datetime, end: datetime) -> float:
        """Seconds of working time between two moments (the SLA clock)."""
        total = 0.0
        day = start.replace(hour=0, minute=0, second=0, microsecond=0)
        while day < end:
            window = self._window(day)
            if window is not None:
                overlap = min(end, window[1]) - max(start, window[0])
                total += max(0.0, overlap.total_seconds())
            day += timedelta(days=1)
        return total


class ChannelPaging(BaseModel):
    """How escalations from one channel go out (`[helpdesk.paging.<channel id>]`): a channel
    whose P1s only notify its owning team, or that pages another on-call channel."""

    model_config = ConfigDict(extra="forbid")

    #: "page": a P1 pages on-call; "notify": it tells the owning team instead (on-call is
    #: still paged when no team owns the message, so no P1 is dropped).
    p1: Literal["page", "notify"] = "page"
    #: Page this on-call channel (and mention) instead of `[slack] oncall_channel`.
    oncall_channel: str | None = None
    oncall_mention: str | None = None


class HelpdeskConfig(BaseModel):
    """The `[helpdesk]` section."""

    model_config = ConfigDict(extra="forbid")

    #: A ticket waiting on its requester this long is nudged, then closed after `close_after_s`.
    nudge_after_s: float = Field(2 * 86400.0, gt=0)
    close_after_s: float = Field(3 * 86400.0, gt=0)
    #: How often the bot's background loop sweeps tickets (stale, SLA).
    sweep_every_s: float = Field(300.0, gt=0)
    teams: dict[str, TeamConfig] = Field(default_factory=dict)
    #: Per-channel paging (channel id -> how its escalations go out); others page as usual.
    paging: dict[str, ChannelPaging] = Field(default_factory=dict)

    def paging_for(self, channel: str) -> ChannelPaging:
        """The paging of `channel` (the default: P1 pages the configured on-call)."""
        return self.paging.get(channel) or ChannelPaging()

    def team_for(self, controller: str | None, category: str | None = None) -> str | None:
        """The team owning a controller (or, failing that, a category), or None."""
        for name, team in self.teams.items():
            if controller and controller in team.controllers:
                return name
        for name, team in self.teams.items():
            if category and category in team.categories:
                return name
        return None

    def answer_promise(self, ticket: Ticket) -> AnswerPromise | None:
        """When the ticket's team aims to answer it, for an open ticket nobody has taken yet
        that is queued for a configured team; None otherwise (no team, no promise: the brain
        does not invent one)."""
        team = self.teams.get(ticket.team or "")
        if team is None or not ticket.is_open or ticket.assignee or not ticket.created_at:
            return None
        priority = ticket_priority(ticket)
        within = team.sla_for(priority)
        filed = datetime.fromisoformat(ticket.created_at)
        return AnswerPromise(
            str(ticket.team), priority, within, team.after_working_seconds(filed, within)
        )

    def team_of_ticket(self, controller: str | None, ticket: Ticket) -> str | None:
        """The team a ticket is queued for: the one owning its controller, else the one owning
        its category (the desk's queue an imported controller files in: "Purchase"), else the
        one owning its kind ("incident")."""
        category = str(ticket.fields.get("category") or "") or None
        return self.team_for(controller, category) or self.team_for(None, ticket.kind)
