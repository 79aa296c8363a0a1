"""Step 3, route: the tier, the dry-runs, composition and escalation (`brain.routing.Router`).

This step gathers what the router weighs besides the confidences: whether the message is vague,
declared out of scope, a request for help, or like one a person corrected before (a lesson from
the memory ring), and which controllers feed which. A preference from memory
(`brain.preference`) is routed to unless a compliance rule (`[memory] compliance`) sends the
message elsewhere. Escalation to on-call is decided here too:
critical urgency (security incidents are always critical) or an explicit request for a person.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from brain.routing import MemoryLesson, RoutePlan, Router, is_chinese
from brain.signals.keyword import NO_CONTEXT_GROUPS
from brain.signals.memory import memory_matches
from brain.signals.semantic import verdict_of
from core.records import DryRunRecord, IntentResult

if TYPE_CHECKING:
    from brain.chain.evaluate import Evaluation
    from brain.chain.understand import Understanding
    from brain.memory_ring import MemoryRing
    from brain.parts import RegistryView

#: A message with no keyword, identifier or entity is treated as vague (never routed without
#: asking) unless the semantic model is at least this sure of one controller.
VAGUE_SEMANTIC = 0.5


@dataclass(slots=True)
class Routing:
    """Step 3's output: the plan, why it escalates (if it does), and the memory's notes."""

    plan: RoutePlan
    escalation: str | None
    #: Step 1's notes, then every memory that influenced a signal and what the ring detected.
    notes: list[str]


def route(
    understood: Understanding,
    evaluated: Evaluation,
    *,
    router: Router,
    view: RegistryView,
    ring: MemoryRing,
    dry_run: Callable[[str], DryRunRecord],
    compliance: Mapping[str, str] | None = None,
) -> Routing:
    """Apply the tiers to the evaluated candidates."""
    table = evaluated.table
    compliance = compliance or {}
    verdict = verdict_of(table.reading("semantic"))
    memories = memory_matches(table.reading("memory"))
    vague = understood.vague
    plan = router.route(
        evaluated.candidates,
        dry_run=dry_run,
        chinese=is_chinese(understood.text),
        registered=len(view.controllers),
        # A safety net, not a filter: only when the semantic model is unsure too.
        vague=vague and float(table.values("semantic").max(initial=0.0)) < VAGUE_SEMANTIC,
        out_of_scope=(
            verdict.out_of_scope
            if _turned_away(verdict.declared, understood.ids, understood.context)
            else None
        ),
        help_request=vague and _asks_for_help(evaluated.intent),
        feeds=view.feeds,
        lesson=lesson_of(evaluated, compliance, view.names) or ongoing_work(understood),
    )
    notes = list(understood.notes)
    for influences in memories.values():
        notes.extend(m.describe() for m in influences)
    notes.extend(ring.detect(plan.controller, dict(memories)))
    return Routing(plan, escalation_of(evaluated.intent), notes)


def escalation_of(intent: IntentResult) -> str | None:
    """Why the decision goes to on-call, or None (critical urgency, a request for a person)."""
    if intent.intent in ("escalation", "human_handoff"):
        return "the user asked for a person"
    if intent.urgency == "critical":
        if intent.intent == "security_incident":
            return "critical urgency (security incident)"
        return "critical urgency"
    return None


def _turned_away(declared: bool, ids: Mapping[str, str], context: Mapping[str, str]) -> bool:
    """Does the semantic model's "out of scope" verdict stand? An identifier or the ongoing
    work anchors a message in scope whatever its words."""
    return declared and not ids and not context


def _asks_for_help(intent: IntentResult) -> bool:
    """The intent recognizer's own cues ("help", "stuck", "卡住") read a request for IT help."""
    cued = float(intent.source_scores.get("keyword", 0.0)) > 0.0
    return cued and intent.group not in NO_CONTEXT_GROUPS


def ongoing_work(understood: Understanding) -> MemoryLesson | None:
    """A follow-up that refers to the conversation's ongoing work goes where that work is
    (its dry-run may only lack a parameter, which is then asked for)."""
    if not understood.context:
        return None
    description, controller = next(iter(understood.context.items()))
    return MemoryLesson(right=controller, note=f"it follows up on {description}", by_person=False)


def lesson_of(
    evaluated: Evaluation, compliance: Mapping[str, str], names: Sequence[str]
) -> MemoryLesson | None:
    """What memory asks of routing: the preference, under any compliance rule that applies
    (the dual channel's order: compliance > the preference from memory > the defaults)."""
    preference = evaluated.preference
    if preference is None:
        return None
    intent = evaluated.intent.intent
    rule = compliance.get(intent)
    if rule is not None and rule in names:
        what = intent.replace("_", " ")
        return MemoryLesson(
            right=preference.controller,
            note=preference.describe(),
            compliance=rule,
            compliance_note=f"a compliance rule sends every {what} to {rule}",
        )
    return MemoryLesson(right=preference.controller, note=preference.describe())
