"""Step 4, route: the tier, the dry-runs and composition (`brain.routing.router.Router`).

This step gathers what the router weighs besides the confidences: whether the message is vague,
declared out of scope, a request for help, or like one a person corrected before (a lesson from
the memory ring), and which controllers feed which. A preference from memory
(`brain.memory.preference`) is routed to unless a compliance rule (`[memory] compliance`) sends the
message elsewhere. Escalation to on-call is the step before (`brain.chain.escalate`), an input
here because routing must honour it: an urgent route is never blocked or turned away.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from brain.chain.plan_rules import PLAN_RULES, PlanRule, Situation, apply_rules
from brain.chain.request_type import RequestType, request_type
from brain.escalation.decide import urgent_route
from brain.routing.cost import SemanticOdds
from brain.routing.plan import Candidate, LessonRoute, RoutePlan
from brain.routing.router import Router
from brain.signals.keyword_index import NO_CONTEXT_GROUPS, NO_INTENT
from brain.signals.memory import MemorySignal, memory_matches
from brain.signals.semantic import SemanticSignal, verdict_of
from controllers.roles import ANSWERS
from core.records import DryRunRecord, EscalationRecord, IntentResult

if TYPE_CHECKING:
    from brain.chain.evaluate import Evaluation
    from brain.chain.understand import Understanding
    from brain.dynamic.loop import DynamicSolver
    from brain.learning.ring import LessonRing
    from brain.parts import RegistryView
    from controllers.tickets import TicketStore
    from knowledge.skill import KnowledgeSkill

#: A correction on a message at least this similar makes routing try the corrected controller.
LESSON_MIN_SIMILARITY = 0.6
#: A message with no keyword, identifier or entity is treated as vague (never routed without
#: asking) unless the semantic model is at least this sure of one controller.
VAGUE_SEMANTIC = 0.5
#: ... or unless the recognised intent, at least this sure, names the top controller: "屏幕有问题
#: 一闪一闪然后就黑了" names no keyword or entity, but a screen fault is a hardware incident.
VAGUE_INTENT = 0.5


@dataclass(slots=True)
class Routing:
    """Step 4's output: the plan, why it escalates (if it does), and the memory's notes."""

    plan: RoutePlan
    #: Why the decision goes to on-call, or None.
    escalation: str | None
    #: Step 1's notes, then every memory that influenced a signal and what the ring detected.
    notes: list[str]
    #: The escalation decision behind `escalation`.
    escalated: EscalationRecord = field(default_factory=EscalationRecord)
    #: What the message asks for (`brain.chain.request_type`).
    request_type: str = "unknown"
    #: The plan rules that changed the router's plan, in the order they ran
    #: (`brain.chain.plan_rules`).
    plan_rules: list[str] = field(default_factory=list)


def route(
    understood: Understanding,
    evaluated: Evaluation,
    escalated: EscalationRecord,
    *,
    router: Router,
    view: RegistryView,
    ring: LessonRing,
    dry_run: Callable[[str], DryRunRecord],
    tickets: TicketStore | None = None,
    dynamic: DynamicSolver | None = None,
    knowledge: KnowledgeSkill | None = None,
    compliance: Mapping[str, str] | None = None,
    rules: Sequence[PlanRule] | None = None,
    read_as: RequestType | None = None,
) -> Routing:
    """Apply the tiers to the evaluated candidates, honouring the escalation decision
    (`escalated`, `brain.chain.escalate`), then the plan rules (`rules`, by default
    `PLAN_RULES`, in order; the dynamic tier, `brain.dynamic`, is one of them). `read_as`: the
    message's request type when the caller has read it already (for its dry-runs), so the
    speech-act model is not run twice."""
    table = evaluated.table
    compliance = compliance or {}
    verdict = verdict_of(table.reading_of(SemanticSignal))
    memories = memory_matches(table.reading_of(MemorySignal))
    vague = understood.vague
    chinese = understood.in_chinese
    candidates = evaluated.candidates
    if chinese:  # the question names the candidates in the asker's language
        candidates = [replace(c, label=view.labels_zh.get(c.name, c.label)) for c in candidates]
    plan = router.route(
        candidates,
        dry_run=dry_run,
        chinese=chinese,
        registered=len(view.controllers),
        # A safety net, not a filter: only when the semantic model is unsure too.
        vague=vague
        and float(table.values_of(SemanticSignal).max(initial=0.0)) < VAGUE_SEMANTIC
        and not _intent_names_top(understood, candidates),
        out_of_scope=(
            verdict.out_of_scope
            if _turned_away(
                verdict.declared_at(router.routing.out_of_scope_above),
                understood.ids,
                understood.context,
            )
            else None
        ),
        help_request=vague and _asks_for_help(evaluated.intent),
        feeds=view.feeds,
        lesson=lesson_of(evaluated, compliance, view.names) or ongoing_work(understood),
        urgent=urgent_route(escalated, frozenset(view.names)),
        # Nothing to go on (no keyword, identifier or entity): a lone candidate is asked about
        # among others, not routed (a request for a person is handed to one instead).
        unclear=vague,
        odds=(
            SemanticOdds.of(table.names, table.values_of(SemanticSignal))
            if table.has(SemanticSignal)
            else None
        ),
    )
    kind = _request_type(understood, evaluated, read_as, answers=view.holder(ANSWERS))
    if kind == "question" and escalated.escalate and escalated.kind in ("security", "outage"):
        # On-call was paged for a live event, so it is reported, not asked about (a question
        # about one never pages), whatever the intent vote made of its form.
        kind = "problem"
    situation = Situation(
        understood=understood,
        evaluated=evaluated,
        view=view,
        escalated=escalated,
        kind=kind,
        dry_run=dry_run,
        tickets=tickets,
        knowledge=knowledge,
        dynamic=dynamic,
    )
    plan, applied = apply_rules(plan, situation, PLAN_RULES if rules is None else rules)
    notes = list(understood.notes)
    if evaluated.capped:
        notes.append(
            "the LLM alone backed " + ", ".join(evaluated.capped) + ": kept at the confidence "
            "the other signals give (the LLM is a voter, not a ruler)"
        )
    for influences in memories.values():
        notes.extend(m.describe() for m in influences)
    notes.extend(ring.detect(plan.controller, dict(memories)))
    return Routing(plan, escalated.reason, notes, escalated, kind, applied)


def _request_type(
    understood: Understanding,
    evaluated: Evaluation,
    read_as: RequestType | None,
    answers: str | None,
) -> RequestType:
    """What the message asks for. A message read as part of the ongoing work updates it,
    except a question after a question: asking more about what was just answered ("邮件附件最
    大能发多大？" then "邮件附件大小限制是多少") is a question too, never a report to file."""
    own = read_as or request_type(understood.text, evaluated.intent, understood.vector)
    if not understood.context:
        return own
    if own == "question" and answers is not None and set(understood.context.values()) == {answers}:
        return own
    return "update"


def _turned_away(declared: bool, ids: Mapping[str, str], context: Mapping[str, str]) -> bool:
    """Does the semantic model's "out of scope" verdict stand? An identifier or the ongoing
    work anchors a message in scope whatever its words."""
    return declared and not ids and not context


def _asks_for_help(intent: IntentResult) -> bool:
    """The intent recognizer's own cues ("help", "stuck", "卡住") read a request for IT help."""
    cued = float(intent.source_scores.get("keyword", 0.0)) > 0.0
    return cued and intent.group not in NO_CONTEXT_GROUPS


def ongoing_work(understood: Understanding) -> LessonRoute | None:
    """A follow-up that refers to the conversation's ongoing work goes where that work is
    (its dry-run may only lack a parameter, which is then asked for)."""
    if not understood.context:
        return None
    description, controller = next(iter(understood.context.items()))
    return LessonRoute(right=controller, note=f"it follows up on {description}", by_person=False)


def lesson_of(
    evaluated: Evaluation, compliance: Mapping[str, str], names: Sequence[str]
) -> LessonRoute | None:
    """What memory asks of routing: the preference, under any compliance rule that applies
    (the dual channel's order: compliance > the preference from memory > the defaults)."""
    preference = evaluated.preference
    if preference is None:
        return None
    intent = evaluated.intent.intent
    rule = compliance.get(intent)
    if rule is not None and rule in names:
        what = intent.replace("_", " ")
        return LessonRoute(
            right=preference.controller,
            note=preference.describe(),
            compliance=rule,
            compliance_note=f"a compliance rule sends every {what} to {rule}",
        )
    return LessonRoute(right=preference.controller, note=preference.describe())


def _intent_names_top(understood: Understanding, candidates: Sequence[Candidate]) -> bool:
    """The recognised intent is sure enough (`VAGUE_INTENT`) and belongs to the top candidate:
    evidence of what the message is about even when it names no keyword or entity. The
    generic readings ("it is broken again" is an incident at 0.26) stay under the bar."""
    intent = understood.intent
    return (
        bool(candidates)
        and intent.intent not in NO_INTENT
        and intent.confidence >= VAGUE_INTENT
        and intent.group == candidates[0].name
    )
