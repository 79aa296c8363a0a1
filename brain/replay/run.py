"""`brain replay`: what would change if the configuration (or the controller set) changed.

The logged messages since a time are decided twice, in order, each time in a throwaway copy
of the home (`brain.replay.sandbox`): once as configured (the baseline) and once with the
change. Comparing the two, not the change with the log, shows what the change itself does.
Each message is decided with the lessons as they were when it was logged
(`brain.replay.lessons`); what drifted otherwise (a refitted model, a changed knowledge base)
shows as the baseline differing from the log, counted apart. Only `Brain.decide` runs: no
controller is executed, so no ticket is filed, no page sent, no message posted, and the real
stores are only read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from brain.decisions.period import logged_messages
from brain.engine import Brain
from brain.replay.lessons import hold_back
from brain.replay.sandbox import sandbox, with_overrides
from core.config import Settings
from core.records import Decision, Message
from core.stores import open_stores

#: What a decision is compared on.
COMPARED = ("controller", "supporting", "tier", "outcome", "escalate")


@dataclass(slots=True)
class Change:
    """One logged decision the change would decide differently."""

    decision_id: str
    text: str
    created_at: str
    confidence: float
    fields: list[str]
    before: dict[str, Any]
    after: dict[str, Any]
    #: "honoured" (a correction now followed), "lost" (a confirmed route now changed),
    #: "agrees"/"disagrees" for a rejection, or "" without feedback.
    feedback: str = ""


@dataclass(slots=True)
class ReplayReport:
    """What a replay found."""

    considered: int
    overrides: dict[str, str]
    controllers: list[str]
    changed: list[Change] = field(default_factory=list)
    #: Decisions whose baseline re-decision differs from the log (not the change's doing).
    drifted: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON `brain replay --json` prints."""
        agree = sum(1 for c in self.changed if c.feedback in ("honoured", "agrees"))
        disagree = sum(1 for c in self.changed if c.feedback in ("lost", "disagrees"))
        return {
            "considered": self.considered,
            "overrides": self.overrides,
            "controllers": self.controllers,
            "changed_count": len(self.changed),
            "changed": [asdict(change) for change in self.changed],
            "agree_with_feedback": agree,
            "disagree_with_feedback": disagree,
            "drifted": self.drifted,
        }


def _redecide(
    settings: Settings, logged: Sequence[Decision], controllers: Sequence[Path]
) -> list[Decision]:
    """Each logged message decided again, in order, with the lessons learnt before it."""
    decided: list[Decision] = []
    with sandbox(settings, controllers=controllers) as copied:
        copy_stores = open_stores(copied)
        try:
            later = hold_back(copy_stores.lessons, logged[0].created_at)
        finally:
            copy_stores.close()
        with Brain(copied) as brain:
            for d in logged:
                brain.memory.write_many(later.due(d.created_at))
                decided.append(
                    brain.decide(
                        Message(
                            d.text, user=d.user, channel=d.channel, thread=d.thread, team=d.team
                        )
                    )
                )
    return decided


def _summary(decision: Decision) -> dict[str, Any]:
    return {name: getattr(decision, name) for name in (*COMPARED, "confidence")}


def _verdict(logged: Decision, after: Decision) -> str:
    """Does the changed decision agree with what people said of the logged one?"""
    for item in reversed(logged.feedback):
        if item.kind == "correct" and item.controller:
            return "honoured" if after.controller == item.controller else "disagrees"
        if item.kind == "confirm":
            return "lost" if after.controller != logged.controller else "agrees"
        if item.kind == "reject":
            return "agrees" if after.controller != logged.controller else "disagrees"
    return ""


def replay(
    settings: Settings,
    *,
    since: timedelta,
    overrides: Mapping[str, str],
    controllers: Sequence[Path] = (),
    limit: int = 10_000,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> ReplayReport:
    """Re-decide the messages logged within `since` under `overrides` (and the extra
    `controllers` files) and report the decisions that change."""
    changed_settings = with_overrides(settings, overrides)
    logged = logged_messages(settings, now() - since, limit=limit)
    report = ReplayReport(len(logged), dict(overrides), [p.name for p in controllers])
    if not logged:
        return report
    baseline = _redecide(settings, logged, ())
    variant = _redecide(changed_settings, logged, controllers)
    for original, before, after in zip(logged, baseline, variant, strict=True):
        if any(getattr(original, n) != getattr(before, n) for n in COMPARED):
            report.drifted += 1
        fields = [n for n in COMPARED if getattr(before, n) != getattr(after, n)]
        if fields:
            report.changed.append(
                Change(
                    decision_id=original.decision_id,
                    text=original.text,
                    created_at=original.created_at,
                    confidence=original.confidence,
                    fields=fields,
                    before=_summary(before),
                    after=_summary(after),
                    feedback=_verdict(original, after),
                )
            )
    return report
