"""The figures page's numbers: routes by controller, asked-back share, corrections, pages
and false pages, latency, per day over the newest decisions (read with keyset pages)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from brain import DecisionFilter, browse, corrected
from console.charts import Chart, single, stacked
from core.records import Decision
from core.stores.protocols import DecisionPages

#: Decisions the figures are drawn from (the newest).
FIGURE_DECISIONS = 5_000


def recent(store: DecisionPages, limit: int = FIGURE_DECISIONS) -> list[Decision]:
    """The newest decisions, up to `limit`."""
    return browse(store, DecisionFilter(), limit=limit, scan=limit).decisions


def figures(decisions: Sequence[Decision]) -> list[Chart]:
    """The charts, days oldest first."""
    by_day: dict[str, list[Decision]] = defaultdict(list)
    for decision in decisions:
        by_day[decision.created_at[:10]].append(decision)
    days = sorted(by_day)
    names = sorted({d.controller or "(none)" for d in decisions})
    routes = {
        name: [
            float(sum(1 for d in by_day[day] if (d.controller or "(none)") == name)) for day in days
        ]
        for name in names
    }
    asked = [_share(by_day[day], lambda d: d.outcome == "clarify") for day in days]
    corrections = [float(sum(1 for d in by_day[day] if corrected(d))) for day in days]
    pages = {
        "paged": [
            float(sum(1 for d in by_day[day] if d.escalate and not corrected(d))) for day in days
        ],
        "false page (corrected)": [
            float(sum(1 for d in by_day[day] if d.escalate and corrected(d))) for day in days
        ],
    }
    latency = [_median([d.latency_ms for d in by_day[day]]) for day in days]
    return [
        stacked("Routes by controller", days, routes),
        single("Asked back (share of messages)", days, asked, "%"),
        single("Corrections and rejections", days, corrections),
        stacked("On-call pages", days, pages),
        single("Median latency", days, latency, " ms"),
    ]


def tiers(decisions: Sequence[Decision]) -> Counter[str]:
    return Counter(d.tier for d in decisions)


def _share(decisions: Sequence[Decision], test: object) -> float:
    assert callable(test)
    return round(100.0 * sum(1 for d in decisions if test(d)) / max(1, len(decisions)), 1)


def _median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return round(ordered[len(ordered) // 2], 1) if ordered else 0.0
