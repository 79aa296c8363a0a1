"""Plan rules: the route step's overrules of the tiers' plan are named, listed in one ordered
tuple, and recorded on the decision, so `brain why` says which rule decided."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import brain.chain.route as route_step
from brain.chain.plan_rules import PLAN_RULES, PlanRule, Situation
from brain.engine import Brain
from brain.routing.plan import RoutePlan
from cli import main
from core.records import Decision, Message


def test_the_rules_are_named_once_in_their_order() -> None:
    names = [rule.name for rule in PLAN_RULES]
    assert len(names) == len(set(names))
    assert names.index("dynamic tier") < names.index(
        "questions stay questions after the dynamic tier"
    )


@pytest.mark.usefixtures("home")
def test_a_rule_that_decides_is_named_in_the_decision_and_by_brain_why(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["ask", "how do i get access to a Bloomberg terminal?", "--json"]) == 0
    decision = Decision.from_dict(json.loads(capsys.readouterr().out))
    assert decision.controller == "consultation"
    assert decision.plan_rules == ["questions stay questions"]

    assert main(["why", decision.decision_id, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["plan_rules"] == ["questions stay questions"]
    assert main(["why", decision.decision_id]) == 0
    assert "Decided by plan rules: questions stay questions" in capsys.readouterr().out


def test_a_decision_no_rule_changed_keeps_its_stored_shape(brain: Brain) -> None:
    decision = brain.ask(Message("my laptop screen is cracked and flickers", user="U1"))
    assert decision.plan_rules == []
    assert "plan_rules" not in decision.to_dict()


def test_a_new_rule_is_one_entry_in_the_tuple(
    brain: Brain, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A toy rule sends anything about the canteen to the answering controller; added to the
    rules, it decides and is named, and nothing else needed changing."""

    def canteen(plan: RoutePlan, situation: Situation) -> RoutePlan:
        if "canteen" not in situation.understood.text:
            return plan
        plan.tier_path.append("the canteen is answered, never filed")
        return replace(plan, controller="consultation", outcome="routed", supporting=[])

    toy = PlanRule("the canteen is answered", canteen)
    monkeypatch.setattr(route_step, "PLAN_RULES", (*PLAN_RULES, toy))
    decision = brain.ask(Message("the canteen card reader is broken again", user="U2"))
    assert decision.controller == "consultation"
    assert decision.plan_rules[-1] == "the canteen is answered"


@pytest.mark.parametrize("text", ["需要开通VPN账号", "I need a VPN account"])
def test_a_request_for_an_account_files_one_record_not_an_incident_beside_it(
    brain: Brain, text: str
) -> None:
    """The catch-all for outages passed its dry-run on the system named ("VPN") and joined the
    access request as a second record for one request."""
    decision = brain.ask(Message(text, user="U1"))

    assert decision.controller == "access" and decision.supporting == []
    assert decision.result is not None
    assert [ticket["kind"] for _, ticket in decision.result.tickets()] == ["access"]


def test_a_problem_reported_beside_a_request_still_composes(brain: Brain) -> None:
    decision = brain.ask(Message("我的VPN连不上，还需要开通GitLab权限", user="U1"))
    assert {decision.controller, *decision.supporting} >= {"access", "incident"}
