"""The one place the decision chain calls into the dynamic tier (from `brain.chain.route`).

A composed plan gets its explicit topology and I/O contract; a dynamic plan that would ask a
question or admit a boundary goes through Draft-Critique-Refine and the fallback ladder first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from brain.dynamic.draft import contract_for
from brain.routing.plan import RoutePlan, composition_of
from brain.signals.semantic import verdict_of
from controllers.roles import OUTAGES
from core.plans import Plan, PlanStep
from core.records import DryRunRecord

if TYPE_CHECKING:
    from brain.chain.evaluate import Evaluation
    from brain.chain.understand import Understanding
    from brain.dynamic.loop import DynamicSolver
    from brain.parts import RegistryView


def attend(
    plan: RoutePlan,
    understood: Understanding,
    evaluated: Evaluation,
    *,
    solver: DynamicSolver,
    view: RegistryView,
    dry_run: Callable[[str], DryRunRecord],
    kind: str = "",
) -> RoutePlan:
    """The router's plan, with its execution plan; improved by DCR when it is dynamic
    (`kind`: what the message does, `brain.chain.request_type`)."""
    if plan.outcome == "composed" and plan.execution is None and plan.controller:
        return replace(plan, execution=composition_plan(plan, view))
    if plan.tier != "dynamic" or plan.outcome not in ("clarify", "fallback"):
        return plan
    if not solver.settings.dynamic.enabled:
        return plan
    return solver.solve(
        plan,
        decision_id=understood.decision_id,
        text=understood.text,
        user=understood.message.user,
        intent=evaluated.intent,
        entities=evaluated.entities,
        candidates=evaluated.candidates,
        signals=evaluated.table.as_dict(),
        ids=understood.ids,
        vector=understood.vector,
        names=view.names,
        labels=view.labels,
        feeds=view.feeds,
        dry_run=dry_run,
        chinese=understood.in_chinese,
        declared_out_of_scope=verdict_of(evaluated.table.reading("semantic")).declared_at(
            solver.settings.routing.out_of_scope_above
        ),
        request_type=kind,
        takes_problems=view.holder(OUTAGES),
    )


def composition_plan(plan: RoutePlan, view: RegistryView) -> Plan:
    """The explicit topology and I/O contract of a composition the router decided."""
    assert plan.controller is not None
    names = [plan.controller, *plan.supporting]
    topology, order = composition_of(names, view.feeds)
    steps = [PlanStep(n, "primary" if n == plan.controller else "supporting") for n in order]
    contract = contract_for(order) if topology == "pipeline" else []
    return Plan(steps, topology, contract, source="composition")  # type: ignore[arg-type]
