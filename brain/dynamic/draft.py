"""Draft: candidate plans for an unknown message, best first (the dynamic tier's DCR).

In order: a plan confirmed on a similar unknown case (memory); a standard solution in the
knowledge base, which downgrades the case to a static route (it was not really unknown); and a
plan assembled from fragment-level clues (the controllers the message holds clues for, in a
pipeline when one's output feeds another). Constraints from earlier rounds remove drafts.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from brain.dynamic.situation import Situation
from core.plans import Binding, Plan, PlanStep

#: A KB passage this relevant, in a controller's domain, is a standard solution.
STANDARD_SOLUTION = 0.8
#: Plans drafted from fragments hold at most this many controllers.
MAX_STEPS = 3


@dataclass(slots=True)
class Draft:
    """One candidate plan, how strongly the evidence backs it, and that evidence."""

    plan: Plan
    score: float
    evidence: list[str] = field(default_factory=list)
    #: Similarity of the memory case it replays (memory drafts only).
    similarity: float = 0.0


@dataclass(slots=True)
class Constraints:
    """What earlier critiques ruled out."""

    excluded_controllers: set[str] = field(default_factory=set)
    excluded_signatures: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)

    def allows(self, plan: Plan) -> bool:
        if plan.signature in self.excluded_signatures:
            return False
        return not any(name in self.excluded_controllers for name in plan.controllers)


def contract_for(order: Sequence[str]) -> list[Binding]:
    """A pipeline's I/O contract: each step's result (summary and data) is the next one's
    upstream input, as `brain.chain.execute` runs it."""
    return [
        Binding(source=a, output="summary+data", target=b, input="upstream")
        for a, b in itertools.pairwise(order)
    ]


def plan_of(names: Sequence[str], situation: Situation, source: str) -> Plan:
    """Single, pipeline (producers first) or parallel, from what the controllers declare."""
    from brain.routing.plan import composition_of

    parameters = {k: list(v) for k, v in situation.entities.items()}
    if len(names) == 1:
        return Plan([PlanStep(names[0])], "single", parameters=parameters, source=source)
    topology, order = composition_of(names, situation.feeds)
    primary = names[0]
    steps = [PlanStep(n, "primary" if n == primary else "supporting") for n in order]
    contract = contract_for(order) if topology == "pipeline" else []
    return Plan(steps, topology, contract, parameters, source)  # type: ignore[arg-type]


def draft(situation: Situation, constraints: Constraints) -> list[Draft]:
    """Every allowed draft, best first (memory, then KB standard solutions, then fragments)."""
    drafts = memory_drafts(situation) + standard_drafts(situation) + fragment_drafts(situation)
    seen: set[str] = set()
    allowed: list[Draft] = []
    for item in drafts:
        if item.plan.signature in seen or not constraints.allows(item.plan):
            continue
        if any(name not in situation.names for name in item.plan.controllers):
            continue  # a controller retired since the case was solved
        seen.add(item.plan.signature)
        allowed.append(item)
    return allowed


def memory_drafts(situation: Situation) -> list[Draft]:
    """Plans confirmed on similar unknown cases, most similar first."""
    found: list[Draft] = []
    for similar in situation.similar:
        plan = similar.plan
        if plan is None or not similar.confirmed or similar.failed:
            continue
        if not plan.steps and plan.topology != "hook":
            continue  # a person's note ("ask facilities"): nothing the brain can run
        replay = Plan.from_dict(plan.to_dict())
        replay.source = "memory"
        replay.parameters = {k: list(v) for k, v in situation.entities.items()}
        replay.note = f"confirmed on a similar case ({similar.case.get('text', '')[:60]!r})"
        found.append(
            Draft(
                replay,
                similar.similarity,
                [f"a similar unknown case ({similar.similarity:.2f}) was solved this way"],
                similarity=similar.similarity,
            )
        )
    return found


def standard_drafts(situation: Situation) -> list[Draft]:
    """A KB passage that is a standard solution for the message, in a controller's domain."""
    found: list[Draft] = []
    for hit in situation.kb_hits:
        if hit.score < STANDARD_SOLUTION or hit.domain not in situation.names:
            continue
        plan = plan_of([hit.domain], situation, "kb-standard")
        plan.note = f"standard solution: {hit.title} ({hit.source})"
        found.append(Draft(plan, hit.score, [f"the KB holds {hit.title!r} ({hit.score:.2f})"]))
    return found


def fragment_drafts(situation: Situation) -> list[Draft]:
    """Plans from the controllers the message holds clues for (strongest first)."""
    clued = [(c, situation.clues(c.name)) for c in situation.candidates]
    clued = [(c, found) for c, found in clued if found]
    if not clued:
        return []
    drafts: list[Draft] = []
    names = [c.name for c, _ in clued][:MAX_STEPS]
    if len(names) > 1:
        combined = plan_of(names, situation, "fragments")
        if combined.topology == "pipeline":
            evidence = [f"{c.name}: {', '.join(found)}" for c, found in clued[:MAX_STEPS]]
            score = min(len(found) for _, found in clued[:MAX_STEPS]) + 0.5
            drafts.append(Draft(combined, score, evidence))
    for candidate, found in clued:
        plan = plan_of([candidate.name], situation, "fragments")
        drafts.append(Draft(plan, len(found) + candidate.confidence, [", ".join(found)]))
    drafts.sort(key=lambda d: -d.score)
    return drafts
