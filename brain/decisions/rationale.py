"""A plain-language rationale: why this controller, in words a Slack user can read.

The reasons come from the signals themselves (`brain.signals.base.Signal.reasons`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from brain.routing.plan import RoutePlan
from brain.signals.semantic import verdict_of
from brain.signals.table import SignalTable


def build_rationale(
    plan: RoutePlan,
    table: SignalTable,
    *,
    labels: Mapping[str, str],
    escalation: str | None,
    notes: Sequence[str] = (),
) -> str:
    """One paragraph: the outcome, the evidence, the path taken and any escalation."""
    parts: list[str] = []
    if plan.outcome in ("routed", "composed") and plan.controller:
        label = labels.get(plan.controller, plan.controller)
        reasons = table.reasons(plan.controller)
        because = "; ".join(reasons) if reasons else "it scored highest"
        if plan.preference:
            because = plan.preference
            # The organisation's lessons may also have taught the semantic model (org_training).
            learned = dict(verdict_of(table.reading("semantic")).learned).get(plan.controller)
            if learned:
                because += f"; the semantic model {learned}"
        parts.append(f"{label} ({plan.controller}): {because}.")
        lacking = [d for d in plan.dry_runs if d.controller == plan.controller and not d.ok]
        if lacking and lacking[0].missing:
            parts.append(
                f"Confidence {plan.confidence:.2f}; its dry-run lacks "
                f"{', '.join(lacking[0].missing)}, which it asks for."
            )
        elif lacking and plan.preference:
            parts.append(
                f"Confidence {plan.confidence:.2f}; its dry-run said "
                f"{lacking[0].reason or 'no'}, which the lesson overrules."
            )
        elif lacking:
            parts.append(
                f"Confidence {plan.confidence:.2f}; routed although its dry-run failed "
                f"({lacking[0].reason or 'no reason given'}): the rest is asked in the thread."
            )
        elif plan.tier == "fast":
            parts.append(f"Confidence {plan.confidence:.2f} is high enough for the fast path.")
        else:
            parts.append(f"Confidence {plan.confidence:.2f}; checked with a dry-run that passed.")
        if plan.outcome == "composed":
            helpers = ", ".join(labels.get(s, s) for s in plan.supporting)
            parts.append(f"Also needed: {helpers} ({plan.composition} composition).")
    elif plan.outcome == "clarify":
        names = ", ".join(labels.get(c, c) for c in plan.candidates)
        parts.append(
            f"Not sure enough to route (best confidence {plan.confidence:.2f}); "
            f"the candidates are {names}."
        )
        failed = [d for d in plan.dry_runs if not d.ok]
        if failed:
            parts.append(
                "Dry-run failed for "
                + ", ".join(f"{d.controller} ({d.reason or 'no reason given'})" for d in failed)
                + "."
            )
    else:
        parts.append(
            f"No controller fits this message (best confidence {plan.confidence:.2f}), "
            "so it is not routed."
        )
        verdict = verdict_of(table.reading("semantic"))
        if verdict.declared and verdict.out_of_scope is not None:
            parts.append(
                "The semantic model judges it outside every controller's responsibilities "
                f"(P(out of scope) {verdict.out_of_scope:.2f})."
            )
    parts.extend(note.rstrip(".") + "." for note in notes)
    if escalation:
        parts.append(f"Escalated to on-call: {escalation}.")
    return " ".join(parts)
