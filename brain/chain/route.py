"""Step 3, route: the tier, the dry-runs, composition and escalation (`brain.routing.Router`).

This step gathers what the router weighs besides the confidences: whether the message is vague,
declared out of scope, a request for help, or like one a person corrected before (a lesson from
the memory ring), and which controllers feed which. Escalation to on-call is decided here too:
critical urgency (security incidents are always critical) or an explicit request for a person.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from brain.chain.lookup import asks_about_ticket, named_tickets, prefer_existing
from brain.chain.senses import apply_sense, senses_of
from brain.routing import Candidate, MemoryLesson, RoutePlan, Router, is_chinese
from brain.signals.keyword import NO_CONTEXT_GROUPS
from brain.signals.memory import memory_matches
from brain.signals.semantic import verdict_of
from core.records import DryRunRecord, IntentResult

if TYPE_CHECKING:
    from brain.chain.evaluate import Evaluation
    from brain.chain.understand import Understanding
    from brain.memory import MemoryMatch
    from brain.memory_ring import MemoryRing
    from brain.parts import RegistryView
    from controllers.tickets import TicketStore
    from knowledge.skill import KnowledgeSkill

#: A correction on a message at least this similar makes routing try the corrected controller.
LESSON_MIN_SIMILARITY = 0.6
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
    tickets: TicketStore | None = None,
    knowledge: KnowledgeSkill | None = None,
) -> Routing:
    """Apply the tiers to the evaluated candidates."""
    table = evaluated.table
    verdict = verdict_of(table.reading("semantic"))
    memories = memory_matches(table.reading("memory"))
    vague = understood.vague
    chinese = is_chinese(understood.text)
    candidates = evaluated.candidates
    if chinese:  # the question names the candidates in the asker's language
        candidates = [replace(c, label=view.labels_zh.get(c.name, c.label)) for c in candidates]
    plan = router.route(
        candidates,
        dry_run=dry_run,
        chinese=chinese,
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
        lesson=_lesson(evaluated.candidates, memories),
    )
    plan = apply_sense(plan, senses_of(knowledge, understood.text), view.names)
    plan = prefer_existing(
        plan,
        named_tickets(understood.text, evaluated.entities, _exists_in(tickets)),
        asks=asks_about_ticket(understood.text),
        filers=view.filers,
        registered=view.names,
        feeds=view.feeds,
    )
    notes = list(understood.notes)
    for influences in memories.values():
        notes.extend(m.describe() for m in influences)
    notes.extend(ring.detect(plan.controller, dict(memories)))
    return Routing(plan, escalation_of(evaluated.intent), notes)


def _exists_in(tickets: TicketStore | None) -> Callable[[str], bool]:
    """Is an id in the ticket store? (An unreadable store knows no ticket.)"""

    def exists(ticket_id: str) -> bool:
        if tickets is None:
            return False
        try:
            return tickets.get(ticket_id) is not None
        except Exception:  # the store is down: only the known id formats count
            return False

    return exists


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


def _lesson(
    candidates: Sequence[Candidate], matches: Mapping[str, list[MemoryMatch]]
) -> MemoryLesson | None:
    """The strongest correction away from the top candidate on a similar message, if any."""
    if not candidates:
        return None
    top = candidates[0].name
    best: MemoryLesson | None = None
    for wrong in matches.get(top, []):
        if wrong.entry.kind != "correction-wrong" or wrong.similarity < LESSON_MIN_SIMILARITY:
            continue
        for name, found in matches.items():
            for right in found:
                if (
                    right.entry.kind == "correction-right"
                    and right.entry.decision_id == wrong.entry.decision_id
                    and (best is None or wrong.similarity > best.similarity)
                ):
                    best = MemoryLesson(
                        wrong=top,
                        right=name,
                        similarity=wrong.similarity,
                        note=(
                            f"a similar message ({wrong.entry.text[:60]!r}) was corrected from "
                            f"{top} to {name} on {wrong.entry.created_at[:10]}"
                        ),
                    )
    return best
