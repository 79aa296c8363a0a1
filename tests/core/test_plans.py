"""Plans and DCR traces travel in the decision JSON and come back typed; old records load."""

from __future__ import annotations

import json

from core.plans import Binding, CritiqueCheck, DcrRound, DcrTrace, LLMUsage, Plan, PlanStep
from core.records import Decision
from tests.records import make_decision


def _plan() -> Plan:
    return Plan(
        steps=[PlanStep("alarm"), PlanStep("ticket", "supporting")],
        topology="pipeline",
        contract=[Binding("alarm", "summary+data", "ticket", "upstream")],
        parameters={"host": ["settlement-batch-02"]},
        source="fragments",
    )


def test_a_decision_with_a_plan_and_rounds_round_trips_through_json() -> None:
    trace = DcrTrace(
        rounds=[
            DcrRound(
                1,
                _plan(),
                [CritiqueCheck("counter_example", True), CritiqueCheck("boundary", False, "x")],
                constraints=["exclude ticket: x"],
            ),
            DcrRound(2, None, note="no draft left to try"),
        ],
        result="boundary",
        ladder=["deep KB retrieval: none"],
        next_steps=["ask the IT service desk"],
        llm=LLMUsage(calls=2, input_tokens=300, output_tokens=16, cost_usd=0.0004),
        case_id="d-1",
        evolution_signal=True,
    )
    decision = make_decision(outcome="composed", supporting=["ticket"], plan=_plan(), dcr=trace)

    back = Decision.from_dict(json.loads(json.dumps(decision.to_dict())))

    assert back.plan == decision.plan and back.dcr == decision.dcr
    assert back.plan is not None and back.plan.signature == "alarm>ticket"
    assert back.plan.contract[0].describe() == "alarm.summary+data -> ticket.upstream"
    assert "boundary FAILED" in trace.rounds[0].describe()


def test_a_record_from_before_the_dynamic_tier_has_no_plan_and_no_trace() -> None:
    data = make_decision().to_dict()
    assert "plan" not in data and "dcr" not in data  # the JSON of such a decision is unchanged

    back = Decision.from_dict(data)

    assert back.plan is None and back.dcr is None
