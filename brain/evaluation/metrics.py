"""What `brain eval` reports: the outcome of one decided row and the summary of many
(accuracy, out-of-scope recall and precision, tiers, latency, calibration, escalation precision
and recall, per-class accuracy and the misroutes)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from brain.learning.labelled import LabelledRow
from brain.routing.calibration import expected_calibration_error, reliability_table
from core.text.language import is_chinese


@dataclass(slots=True)
class Outcome:
    """What the brain decided for one row."""

    row: LabelledRow
    controller: str | None
    confidence: float
    tier: str
    outcome: str
    escalate: bool
    latency_ms: float
    llm_calls: int
    features: dict[str, float] = field(default_factory=dict)
    top: str | None = None
    #: Every candidate's raw signals (by the row's label names), for learning the weights.
    signals: dict[str, dict[str, float]] = field(default_factory=dict)
    #: The semantic model's P(out of scope) of the row, for choosing the out-of-scope bar.
    out_of_scope: float | None = None
    #: Which way the chain took it (`way_of`), one of WAYS ("" when not recorded).
    way: str = ""

    @property
    def right(self) -> bool:
        """In scope: routed to the label; out of scope: not routed."""
        return self.controller == self.row.label

    @property
    def top_right(self) -> bool:
        """Was the best-ranked candidate (routed or not) the right controller?"""
        return self.row.label is not None and self.top == self.row.label


#: The ways a decision goes, as `brain eval` counts them: routed on the fast path, after a
#: dry-run (verify), by the dynamic tier, or routed because the message was urgent; asked back;
#: declared out of scope by the semantic model's verdict (at the home's bar); or turned away
#: by another rule (small talk, the dynamic tier's failed drafts).
WAYS = (
    "routed fast",
    "routed verify",
    "routed dynamic",
    "routed as urgent",
    "asked back",
    "declared out of scope",
    "turned away otherwise",
)


def way_of(controller: str | None, outcome: str, tier: str, path: Sequence[str]) -> str:
    """Which of WAYS a decision took, from its controller, outcome, tier and tier path. An
    out-of-scope message not routed may have been declared, asked back or turned away by
    another rule, and one routed may have been taken on the fast path (no verdict overrules
    it) or below it: which tells whether the out-of-scope bar, asking back or neither could
    have stopped it."""
    if controller is not None:
        if any(step.startswith("urgent (") for step in path):
            return "routed as urgent"
        return f"routed {tier}" if tier in ("fast", "verify", "dynamic") else "routed dynamic"
    if outcome == "clarify":
        return "asked back"
    if any("declares it out of scope" in step for step in path):
        return "declared out of scope"
    return "turned away otherwise"


def ways(outcomes: Sequence[Outcome]) -> dict[str, int]:
    """How many of `outcomes` went each way (WAYS' order; ways no row took left out)."""
    counted = Counter(o.way for o in outcomes if o.way)
    return {way: counted[way] for way in WAYS if counted[way]}


def _percentile(values: Sequence[float], q: float) -> float:
    return round(float(np.percentile(values, q)), 2) if values else 0.0


#: Misroutes listed in the report (the rest are counted).
MAX_MISROUTES = 200


def escalation_metrics(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """Escalation precision and recall on the rows that say whether they must be escalated,
    and wrong pages per 1,000 messages (escalated rows labelled not urgent)."""
    labelled = [o for o in outcomes if o.row.urgent is not None]
    if not labelled:
        return {"escalation_labelled": 0}
    urgent = [o for o in labelled if o.row.urgent]
    paged = [o for o in labelled if o.escalate]
    right = sum(1 for o in paged if o.row.urgent)
    wrong = [o for o in paged if not o.row.urgent]
    return {
        "escalation_labelled": len(labelled),
        "escalation_urgent": len(urgent),
        "escalation_recall": round(right / len(urgent), 4) if urgent else None,
        "escalation_precision": round(right / len(paged), 4) if paged else None,
        "wrong_pages": len(wrong),
        "wrong_pages_per_1000": round(1000 * len(wrong) / len(labelled), 2),
        "missed_escalations": [o.row.text for o in urgent if not o.escalate][:MAX_MISROUTES],
        "wrong_escalations": [o.row.text for o in wrong][:MAX_MISROUTES],
        "escalation_by_language": _grouped(labelled, _language),
        "escalation_by_kind": _grouped(labelled, lambda o: o.row.kind or "unlabelled"),
    }


def _language(outcome: Outcome) -> str:
    return "zh" if is_chinese(outcome.row.text) else "en"


def _grouped(outcomes: Sequence[Outcome], key: Callable[[Outcome], str]) -> dict[str, Any]:
    """Escalation recall and precision per group (language, kind): a must-page kind with one
    miss in ten hides in a global figure."""
    groups: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        groups.setdefault(key(outcome), []).append(outcome)
    report = {}
    for name, members in sorted(groups.items()):
        must = sum(1 for o in members if o.row.urgent)
        paged = sum(1 for o in members if o.escalate)
        right = sum(1 for o in members if o.escalate and o.row.urgent)
        report[name] = {
            "n": len(members),
            "must_page": must,
            "paged": paged,
            "recall": round(right / must, 4) if must else None,
            "precision": round(right / paged, 4) if paged else None,
        }
    return report


def per_class(outcomes: Sequence[Outcome]) -> dict[str, dict[str, Any]]:
    """Accuracy per label ("oos" for rows no controller should take)."""
    by_label: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        by_label.setdefault(outcome.row.label or "oos", []).append(outcome)
    return {
        label: {
            "n": len(rows),
            "right": sum(o.right for o in rows),
            "accuracy": round(sum(o.right for o in rows) / len(rows), 4),
        }
        for label, rows in sorted(by_label.items())
    }


def misroutes(outcomes: Sequence[Outcome]) -> list[dict[str, Any]]:
    """The rows decided wrong: text, wanted (label, "oos" for none), got (controller, or
    "not routed (outcome)")."""
    return [
        {
            "text": o.row.text,
            "wanted": o.row.label or "oos",
            "got": o.controller or f"not routed ({o.outcome})",
        }
        for o in outcomes
        if not o.right
    ][:MAX_MISROUTES]


def summarise(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """The `brain eval --json` report of decided rows."""
    inscope = [o for o in outcomes if o.row.label is not None]
    oos = [o for o in outcomes if o.row.label is None]
    not_routed = [o for o in outcomes if o.controller is None]
    detected = sum(1 for o in oos if o.controller is None)
    # "Declared": the brain said the message is outside what it handles (outcome fallback), as
    # opposed to asking back which controller was meant (clarify), which is also not routed.
    declared = [o for o in outcomes if o.outcome == "fallback"]
    declared_oos = sum(1 for o in declared if o.row.label is None)
    routed = [o for o in outcomes if o.controller is not None]
    confident = [o for o in routed if o.confidence >= 0.8]
    tiers = Counter(o.tier for o in outcomes)
    by_tier: dict[str, dict[str, float]] = {}
    for tier in sorted(tiers):
        values = [o.latency_ms for o in outcomes if o.tier == tier]
        by_tier[tier] = {"p50": _percentile(values, 50), "p99": _percentile(values, 99)}
    latencies = [o.latency_ms for o in outcomes]
    return {
        "n": len(outcomes),
        "in_scope": len(inscope),
        "out_of_scope": len(oos),
        "in_scope_accuracy": round(sum(o.right for o in inscope) / len(inscope), 4)
        if inscope
        else None,
        "oos_recall": round(detected / len(oos), 4) if oos else None,
        "oos_precision": round(detected / len(not_routed), 4) if not_routed else None,
        "declared_oos_recall": round(declared_oos / len(oos), 4) if oos else None,
        "declared_oos_precision": round(declared_oos / len(declared), 4) if declared else None,
        "in_scope_asked_back": sum(1 for o in inscope if o.outcome == "clarify"),
        # Where the out-of-scope rows went, and why in-scope ones were not routed: what stops
        # an out-of-scope message (the bar, asking back, another rule) and what each costs.
        "out_of_scope_ways": ways(oos),
        "in_scope_not_routed_ways": ways([o for o in inscope if o.controller is None]),
        "accuracy": round(sum(o.right for o in outcomes) / len(outcomes), 4) if outcomes else None,
        "tiers": dict(tiers),
        "outcomes": dict(Counter(o.outcome for o in outcomes)),
        "escalated": sum(o.escalate for o in outcomes),
        "latency_ms": {
            "p50": _percentile(latencies, 50),
            "p99": _percentile(latencies, 99),
            "by_tier": by_tier,
        },
        "llm_calls": sum(o.llm_calls for o in outcomes),
        "routed": len(routed),
        "routed_accuracy": round(sum(o.right for o in routed) / len(routed), 4) if routed else None,
        "routed_at_0_8": len(confident),
        "routed_at_0_8_accuracy": round(sum(o.right for o in confident) / len(confident), 4)
        if confident
        else None,
        "reliability": [
            asdict(b)
            for b in reliability_table([o.confidence for o in routed], [o.right for o in routed])
        ],
        "ece": expected_calibration_error(
            [o.confidence for o in routed], [o.right for o in routed]
        ),
        **escalation_metrics(outcomes),
        "per_class": per_class(outcomes),
        "misroutes_total": sum(1 for o in outcomes if not o.right),
        "misroutes": misroutes(outcomes),
    }
