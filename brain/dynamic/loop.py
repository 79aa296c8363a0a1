"""The dynamic tier: Draft-Critique-Refine, at most three rounds, then the fallback ladder.

`DynamicSolver.solve` takes the router's dynamic plan (a clarification or an honest boundary)
and tries to do better: a plan that survives the critique is routed (one controller) or
composed (a pipeline or parallel plan, with its I/O contract); a standard KB solution is a
static route after all; the capability hook may answer; otherwise the router's question or
boundary stands, with next steps. Every round is kept in the decision (`Decision.dcr`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from brain.dynamic.cases import CaseBook
from brain.dynamic.critique import critique
from brain.dynamic.draft import Constraints, Draft, draft
from brain.dynamic.ladder import (
    MEMORY_PASS_SLACK,
    CapabilityHook,
    climb,
    expanded_queries,
    next_steps,
)
from brain.dynamic.refine import refine
from brain.dynamic.situation import Situation
from brain.routing.plan import Candidate, RoutePlan, unavailable
from brain.routing.wording import clarification_question
from core.config import Settings
from core.plans import DcrRound, DcrTrace, Plan
from core.records import (
    PRESSING,
    DryRunRecord,
    Entities,
    ExecutionResult,
    IntentResult,
    SignalScores,
)
from core.wording import wording_for

if TYPE_CHECKING:
    from brain.dynamic.llm_stages import LLMStages
    from knowledge.skill import KnowledgeSkill
    from knowledge.types import Hit

log = logging.getLogger(__name__)

#: KB passages retrieved for the draft.
DRAFT_K = 5


class DynamicSolver:
    """Runs the loop for one brain home."""

    def __init__(
        self,
        settings: Settings,
        cases: CaseBook,
        *,
        knowledge: Callable[[], KnowledgeSkill | None],
        llm: Callable[[], LLMStages | None] = lambda: None,
    ) -> None:
        self.settings = settings
        self.cases = cases
        self._knowledge = knowledge
        self._llm = llm
        self.hook = CapabilityHook(settings)

    def solve(
        self,
        plan: RoutePlan,
        *,
        decision_id: str,
        text: str,
        user: str,
        intent: IntentResult,
        entities: Entities,
        candidates: Sequence[Candidate],
        signals: Mapping[str, SignalScores],
        ids: Mapping[str, str],
        vector: np.ndarray | None,
        names: Sequence[str],
        labels: Mapping[str, str],
        feeds: Mapping[str, Sequence[str]],
        dry_run: Callable[[str], DryRunRecord],
        chinese: bool,
        declared_out_of_scope: bool = False,
        request_type: str = "",
        takes_problems: str | None = None,
    ) -> RoutePlan:
        """A better plan than the router's clarification or boundary, when one survives.
        `request_type` (what the message does) and `takes_problems` (the holder of the
        `outages` role) let a reported problem the router's checks refused elsewhere count as
        a clue for the controller left to take it."""
        started = time.perf_counter()
        config = self.settings.dynamic
        knowledge = self._knowledge()
        # The case book is read and scored once per decision: the same problem's cases and the
        # looser related ones the ladder's memory pass reads (two full reads grew with the book).
        related = self.cases.similar(text, vector, minimum=config.same_problem - MEMORY_PASS_SLACK)
        situation = Situation(
            text=text,
            intent=intent,
            entities=entities,
            candidates=candidates,
            signals=signals,
            ids=ids,
            vector=vector,
            names=names,
            labels=labels,
            feeds=feeds,
            dry_run=_known_dry_runs(plan.dry_runs, dry_run),
            chinese=chinese,
            declared_out_of_scope=declared_out_of_scope,
            similar=[s for s in related if s.similarity >= config.same_problem],
            kb_hits=_kb_hits(knowledge, text, intent, entities),
            request_type=request_type,
            takes_problems=takes_problems,
            refused=_refused(plan.dry_runs),
        )
        trace = DcrTrace()
        llm = self._llm() if config.use_llm else None
        constraints = Constraints()
        chosen: Draft | None = None
        tied: list[str] = []
        for number in range(1, config.max_rounds + 1):
            drafts = draft(situation, constraints)
            drafted_by = "deterministic"
            if llm is not None:
                proposed = llm.draft(situation, constraints, drafts, trace.llm)
                if proposed is not None:
                    drafts = [
                        proposed,
                        *[d for d in drafts if d.plan.signature != proposed.plan.signature],
                    ]
                    drafted_by = "llm"
            if not drafts:
                trace.rounds.append(DcrRound(number, None, note="no draft left to try"))
                break
            item, others = drafts[0], drafts[1:]
            checks = critique(item, others, situation, hook=self._hook_probe(situation, knowledge))
            if llm is not None and all(c.ok for c in checks):
                veto = llm.critique(situation, item, trace.llm)
                if veto is not None:
                    checks.append(veto)
            survived = all(c.ok for c in checks)
            current = DcrRound(number, item.plan, checks, survived, drafted_by=drafted_by)
            trace.rounds.append(current)
            if survived:
                chosen = item
                break
            refinement = refine(item, checks, others, constraints)
            current.constraints = refinement.added
            tied = tied or refinement.tied
        answer: ExecutionResult | None = None
        if chosen is None:
            rung = climb(
                situation,
                constraints,
                knowledge=knowledge,
                cases=self.cases,
                hook=self.hook,
                same_problem=config.same_problem,
                related=related,
            )
            trace.ladder = rung.lines
            chosen, answer = rung.draft, rung.answer
        result = self._result(plan, situation, trace, chosen, answer, tied)
        case = self.cases.record(
            decision_id=decision_id,
            text=text,
            user=user,
            result=trace.result,
            plan=result.execution,
            vector=vector,
        )
        trace.case_id = case["case_id"]
        trace.latency_ms = round((time.perf_counter() - started) * 1000, 2)
        return result

    def _hook_probe(
        self, situation: Situation, knowledge: KnowledgeSkill | None
    ) -> Callable[[], bool]:
        return lambda: self.hook.ask(situation, expanded_queries(situation, knowledge)) is not None

    def _result(
        self,
        plan: RoutePlan,
        situation: Situation,
        trace: DcrTrace,
        chosen: Draft | None,
        answer: ExecutionResult | None,
        tied: list[str],
    ) -> RoutePlan:
        path = list(plan.tier_path)
        path.extend(f"DCR round {r.number}: {r.describe()}" for r in trace.rounds)
        path.extend(f"ladder: {line}" for line in trace.ladder)
        dry_runs = _merged(plan.dry_runs, situation.dry_runs)
        if chosen is not None and chosen.plan.topology == "hook":
            answer = self.hook.ask(situation, expanded_queries(situation, self._knowledge()))
            chosen = None if answer is None else chosen
        if chosen is not None and chosen.plan.topology != "hook":
            trace.result = "downgraded" if chosen.plan.source == "kb-standard" else "plan"
            return _plan_route(chosen.plan, situation, path, dry_runs, trace)
        if answer is not None:
            trace.result = "hook"
            hook_plan = Plan(topology="hook", source="hook", hook="capability_hook")
            hook_plan.parameters = {k: list(v) for k, v in situation.entities.items()}
            path.append("answered by the generic capability hook")
            return replace(
                plan,
                outcome="fallback",
                tier_path=path,
                dry_runs=dry_runs,
                execution=hook_plan,
                dcr=trace,
                answer=answer,
                clarification=None,
            )
        trace.evolution_signal = True
        viable = [c for c in situation.candidates if c.name in tied]
        # Drafts tied because none outweighed the semantic model's out-of-scope verdict are
        # equally weak, not equally right: asking between them would pass a message no
        # controller should take to one of them. An urgent one ("urgent!!!") is asked about
        # all the same: someone in a hurry is never turned away.
        urgent = situation.intent.urgency in PRESSING
        declared = plan.outcome == "fallback" and situation.declared_out_of_scope and not urgent
        if len(viable) >= 2 and not declared:
            trace.result = "clarify"
            path.append(f"clarify between the tied plans {', '.join(tied)}")
            return replace(
                plan,
                outcome="clarify",
                controller=None,
                candidates=[c.name for c in viable],
                clarification=clarification_question(viable, situation.chinese),
                tier_path=path,
                dry_runs=dry_runs,
                dcr=trace,
            )
        trace.result = "clarify" if plan.outcome == "clarify" else "boundary"
        clarification = plan.clarification
        if plan.outcome == "fallback":
            trace.next_steps = next_steps(self.settings, situation.chinese)
            words = wording_for(situation.chinese)
            joined = words.say("common.clause_separator").join(trace.next_steps)
            label, stop = words.say("dynamic.next_steps"), words.say("common.full_stop")
            clarification = f"{plan.clarification or ''}{label}{joined}{stop}"
        return replace(
            plan, tier_path=path, dry_runs=dry_runs, dcr=trace, clarification=clarification
        )


def _plan_route(
    plan: Plan,
    situation: Situation,
    path: list[str],
    dry_runs: list[DryRunRecord],
    trace: DcrTrace,
) -> RoutePlan:
    primary = plan.primary or plan.controllers[0]
    supporting = [n for n in plan.controllers if n != primary]
    composed = len(plan.controllers) > 1
    path.append(f"DCR plan: {plan.describe()}")
    return RoutePlan(
        tier="dynamic",
        outcome="composed" if composed else "routed",
        controller=primary,
        confidence=situation.confidence(primary),
        supporting=supporting,
        composition=plan.topology if composed else None,
        dry_runs=dry_runs,
        tier_path=path,
        candidates=[c.name for c in situation.candidates[:3]],
        execution=plan,
        dcr=trace,
    )


def _kb_hits(
    knowledge: KnowledgeSkill | None, text: str, intent: IntentResult, entities: Entities
) -> list[Hit]:
    """KB passages for the message plus the recognised intent and entities."""
    if knowledge is None:
        return []
    extra = " ".join(v for values in entities.values() for v in values)
    described = intent.description if intent.intent != "other" else ""
    query = " ".join(part for part in (text, described, extra) if part)
    try:
        return knowledge.search(query, k=DRAFT_K)
    except Exception as exc:  # decide without the KB rather than not at all
        log.warning("DCR draft: KB search failed (%s)", type(exc).__name__)
        return []


def _known_dry_runs(
    earlier: Sequence[DryRunRecord], dry_run: Callable[[str], DryRunRecord]
) -> Callable[[str], DryRunRecord]:
    """Reuse the router's dry-runs of this message instead of running them again."""
    known = {record.controller: record for record in earlier}
    return lambda name: known[name] if name in known else dry_run(name)


def _refused(records: Sequence[DryRunRecord]) -> tuple[str, ...]:
    """The controllers whose dry-run failed on what the message says: not for a parameter
    it lacks (a controller that asks for it could still take it), nor for being down."""
    return tuple(r.controller for r in records if not r.ok and not r.missing and not unavailable(r))


def _merged(first: Sequence[DryRunRecord], second: Sequence[DryRunRecord]) -> list[DryRunRecord]:
    seen = {r.controller for r in first}
    return [*first, *(r for r in second if r.controller not in seen)]
