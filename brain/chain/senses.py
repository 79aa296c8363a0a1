"""Polysemy from the knowledge base reaches routing: "钱没到" beside "放款" is a ticket matter.

The glossary marks a polysemous term's routing sense with `domain` and the words that select
it with `contexts` (`knowledge.skill.KnowledgeSkill.senses`). A message using the term in that
context is routed to the sense's controller when routing would otherwise answer it as a
consultation, ask about it, or turn it away; a "what is 钱没到?" question stays a consultation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from brain.routing.plan import RoutePlan
from controllers.answering import definition_term

if TYPE_CHECKING:
    from knowledge.skill import KnowledgeSkill
    from knowledge.types import Definition

#: Routes a sense may replace: an answer to a question, a question back, a refusal.
_REPLACEABLE = ("clarify", "fallback")


def senses_of(knowledge: KnowledgeSkill | None, text: str) -> list[Definition]:
    """The polysemy senses the text selects (none without a knowledge base)."""
    if knowledge is None or definition_term(text) is not None:
        return []
    try:
        return knowledge.senses(text)
    except Exception:  # the KB is down: routing goes on without senses
        return []


def apply_sense(
    plan: RoutePlan,
    senses: Sequence[Definition],
    registered: Sequence[str],
    answers: str | None,
) -> RoutePlan:
    """`plan`, or a route to the first sense's controller (see the module docstring);
    `answers`: the controller that answers questions (`controllers.roles.ANSWERS`)."""
    sense = next((s for s in senses if s.domain in registered), None)
    if sense is None or plan.controller == sense.domain:
        return plan
    if plan.outcome not in _REPLACEABLE and plan.controller != answers:
        return plan
    note = (
        f"sense: {sense.term!r} is used in its {sense.domain} sense here (knowledge base "
        f"glossary: {sense.definition[:80]})"
    )
    return RoutePlan(
        tier=plan.tier,
        outcome="routed",
        controller=sense.domain,
        confidence=plan.confidence,
        dry_runs=plan.dry_runs,
        tier_path=[*plan.tier_path, note],
        candidates=list(dict.fromkeys([sense.domain, *plan.candidates])),
    )
