"""Browsing the decision log: filters and keyset pages over any backend's `DecisionPages`.

A page reads the store newest first in chunks no larger than what is still wanted, so the
cursor it hands back is exact (the store's own, where the last chunk stopped) and the next
page starts there: the 1,000th page of a 100k log costs what the first does. A rare filter
stops after `scan` records with a cursor to go on from, so no request reads the whole log.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.records import Decision
from core.stores.protocols import DecisionPages

#: Most records one page request examines (a filter nothing matches stops here).
SCAN_BUDGET = 5_000


@dataclass(frozen=True, slots=True)
class DecisionFilter:
    """What a list of decisions is narrowed to; None (or "") means any."""

    since: str | None = None  # ISO time: created at or after
    until: str | None = None  # ISO time: created before
    controller: str | None = None
    outcome: str | None = None
    tier: str | None = None
    escalated: bool | None = None
    corrected: bool | None = None
    user: str | None = None
    channel: str | None = None
    #: The Slack workspace (team id) the decisions came from.
    team: str | None = None

    def matches(self, decision: Decision) -> bool:
        """Does the decision pass every set criterion?"""
        created = decision.created_at
        checks = (
            not self.since or created >= self.since,
            not self.until or created < self.until,
            not self.controller
            or self.controller == decision.controller
            or self.controller in decision.supporting,
            not self.outcome or decision.outcome == self.outcome,
            not self.tier or decision.tier == self.tier,
            self.escalated is None or decision.escalate == self.escalated,
            self.corrected is None or corrected(decision) == self.corrected,
            not self.user or decision.user == self.user,
            not self.channel or decision.channel == self.channel,
            not self.team or decision.team == self.team,
        )
        return all(checks)


def corrected(decision: Decision) -> bool:
    """Did a person reject or correct the decision?"""
    return any(item.kind in ("reject", "correct") for item in decision.feedback)


@dataclass(slots=True)
class Page:
    """One page of decisions, newest first, and where the next one starts."""

    decisions: list[Decision] = field(default_factory=list)
    next_cursor: str | None = None
    scanned: int = 0


def browse(
    store: DecisionPages,
    criteria: DecisionFilter,
    *,
    before: str | None = None,
    limit: int = 50,
    scan: int = SCAN_BUDGET,
) -> Page:
    """Up to `limit` decisions matching `criteria`, older than the cursor `before`."""
    page = Page()
    cursor = before
    while len(page.decisions) < limit and page.scanned < scan:
        chunk, cursor = store.page(before=cursor, limit=limit - len(page.decisions))
        page.scanned += len(chunk)
        page.decisions.extend(d for d in chunk if criteria.matches(d))
        too_old = bool(criteria.since and chunk and chunk[-1].created_at < criteria.since)
        if cursor is None or too_old:
            cursor = None
            break
    page.next_cursor = cursor
    return page


def since(store: DecisionPages, start: str, *, limit: int = 100_000) -> list[Decision]:
    """Every decision created at or after `start` (ISO), oldest first (for replays)."""
    found: list[Decision] = []
    cursor: str | None = None
    criteria = DecisionFilter(since=start)
    while len(found) < limit:
        page = browse(store, criteria, before=cursor, limit=min(500, limit - len(found)))
        found.extend(page.decisions)
        cursor = page.next_cursor
        if cursor is None:
            break
    return found[::-1]
