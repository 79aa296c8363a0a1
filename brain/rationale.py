"""A plain-language rationale: why this controller, in words a Slack user can read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from brain.routing import RoutePlan
from brain.signals.combine import SignalTable


def _level(value: float) -> str:
    if value >= 0.7:
        return "high"
    if value >= 0.4:
        return "moderate"
    return "low"


def _quoted(words: Sequence[str], limit: int = 4) -> str:
    shown = [f"'{w}'" for w in list(dict.fromkeys(words))[:limit]]
    return ", ".join(shown)


def controller_reasons(table: SignalTable, name: str) -> list[str]:
    """The signals behind one controller's score, strongest first, in words."""
    index = table.index(name)
    evidence = table.evidence
    reasons: list[str] = []
    words = evidence.keyword.words.get(index, [])
    if words:
        noun = "keyword" if len(words) == 1 else "keywords"
        reasons.append(f"{noun} {_quoted(words)} matched")
    ids = evidence.keyword.ids.get(index, [])
    if ids:
        reasons.append(f"the knowledge base maps {_quoted(ids, 2)} to {name}")
    if index in evidence.keyword.intents:
        reasons.append(f"the recognised intent {evidence.keyword.intents[index]} points here")
    for description in evidence.keyword.context.get(index, []):
        reasons.append(f"the conversation is about {description}")
    confirmation = evidence.confirmations.get(name)
    if confirmation is not None and confirmation.score >= 0.3 and confirmation.evidence:
        title = confirmation.evidence[0].title or confirmation.evidence[0].source
        reasons.append(f"knowledge base '{title}' supports {name}")
    semantic = float(table.semantic[index])
    if semantic > 0:
        reasons.append(f"semantic similarity {_level(semantic)} ({semantic:.2f})")
    session = float(table.session[index])
    if session > 0.5:
        reasons.append("it worked earlier in this conversation")
    elif session < 0.5:
        reasons.append("it was corrected earlier in this conversation")
    memory = float(table.memory[index])
    if memory > 0.5:
        reasons.append("past feedback on similar messages favours it")
    elif memory < 0.5:
        reasons.append("past feedback on similar messages speaks against it")
    return reasons


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
        reasons = controller_reasons(table, plan.controller)
        because = "; ".join(reasons) if reasons else "it scored highest"
        parts.append(f"{label} ({plan.controller}): {because}.")
        if plan.tier == "fast":
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
        if table.declared_out_of_scope and table.out_of_scope is not None:
            parts.append(
                "The semantic model judges it outside every controller's responsibilities "
                f"(P(out of scope) {table.out_of_scope:.2f})."
            )
    parts.extend(note.rstrip(".") + "." for note in notes)
    if escalation:
        parts.append(f"Escalated to on-call: {escalation}.")
    return " ".join(parts)
