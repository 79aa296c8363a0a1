"""Routing's two rules for urgent messages, on the Router's own API: an urgent route is never
blocked (routed, missing parameters asked after; never the boundary explanation) and a clarification
never offers a single candidate (that is a route with a question)."""

from __future__ import annotations

import pytest

from brain.engine import Brain
from brain.escalation.decide import UrgentRoute
from brain.routing.plan import Candidate
from brain.routing.router import Router
from core.config import RoutingConfig
from core.records import DryRunRecord, Message


def _lacks_category(name: str) -> DryRunRecord:
    return DryRunRecord(name, False, "missing category", ["category"])


def _passes(name: str) -> DryRunRecord:
    return DryRunRecord(name, True, "ok")


CANDIDATES = [
    Candidate("incident", "IT support", 0.55, 0.5),
    Candidate("access", "Access", 0.3, 0.2),
]


def test_a_critical_message_whose_dry_run_lacks_a_parameter_is_routed_and_asked_after() -> None:
    router = Router(RoutingConfig())

    usual = router.route(CANDIDATES, dry_run=_lacks_category, chinese=False, registered=7)
    urgent = router.route(
        CANDIDATES,
        dry_run=_lacks_category,
        chinese=False,
        registered=7,
        urgent=UrgentRoute("critical urgency", critical=True),
    )

    assert usual.outcome == "clarify"  # without urgency: asked back (the old behaviour)
    assert urgent.outcome == "routed"
    assert urgent.controller == "incident"
    assert urgent.clarification is None
    assert urgent.follow_up is not None and "category" in urgent.follow_up


def test_a_security_event_goes_to_its_own_controller_even_when_another_leads() -> None:
    router = Router(RoutingConfig())
    ranked = [Candidate("access", "Access", 0.9, 0.8), Candidate("incident", "IT support", 0.1)]

    plan = router.route(
        ranked,
        dry_run=_passes,
        chinese=False,
        registered=7,
        urgent=UrgentRoute("critical urgency (security incident)", True, "incident"),
    )

    assert (plan.outcome, plan.controller) == ("routed", "incident")


def test_an_escalated_message_is_never_told_it_is_outside_what_the_brain_handles() -> None:
    router = Router(RoutingConfig())
    weak = [Candidate("incident", "IT support", 0.05), Candidate("access", "Access", 0.04)]

    plan = router.route(
        weak,
        dry_run=_passes,
        chinese=True,
        registered=7,
        out_of_scope=0.99,
        urgent=UrgentRoute("the user asked for a person"),
    )

    assert plan.outcome == "fallback"
    assert plan.clarification is not None
    assert "超出" not in plan.clarification and "值班" in plan.clarification


@pytest.mark.parametrize("chinese", [False, True])
def test_one_plausible_candidate_is_a_route_with_a_question(chinese: bool) -> None:
    router = Router(RoutingConfig())
    # Verify band, the dry-run lacks a parameter, nobody else is plausible.
    ranked = [Candidate("incident", "IT support", 0.6), Candidate("access", "Access", 0.05)]

    plan = router.route(ranked, dry_run=_lacks_category, chinese=chinese, registered=7)

    assert plan.outcome == "routed"
    assert plan.controller == "incident"
    assert plan.follow_up is not None
    assert ("类别" if chinese else "category") in plan.follow_up  # the field in the asker's words
    assert plan.clarification is None


@pytest.mark.parametrize("vague", [True, False])
def test_a_weak_lone_candidate_is_asked_about_among_several_never_alone(vague: bool) -> None:
    router = Router(RoutingConfig())
    ranked = [Candidate("incident", "IT support", 0.3), Candidate("access", "Access", 0.05)]

    plan = router.route(ranked, dry_run=_passes, chinese=False, registered=7, vague=vague)

    assert plan.outcome == "clarify"
    assert plan.candidates == ["incident", "access"]


def test_an_urgent_message_skips_a_candidate_that_cannot_take_it_at_all() -> None:
    """The leading candidate's dry-run fails with nothing to ask for ("no alert recognised"):
    routed there anyway, it only answered that it could not; the next candidate that can
    take the message does, and with none that can, the outage controller does."""
    router = Router(RoutingConfig())
    candidates = [
        Candidate("alarm", "Alarm diagnosis", 0.3, 0.3),
        Candidate("incident", "IT support", 0.25, 0.25),
    ]

    def alarm_cannot(name: str) -> DryRunRecord:
        if name == "alarm":
            return DryRunRecord(name, False, "no alert, metric reading or exit code recognised")
        return _passes(name)

    urgent = UrgentRoute("P1", critical=True, outage="incident")
    plan = router.route(
        candidates, dry_run=alarm_cannot, chinese=False, registered=7, urgent=urgent
    )
    assert plan.outcome == "routed" and plan.controller == "incident"

    def none_can(name: str) -> DryRunRecord:
        return DryRunRecord(name, False, "nothing recognised")

    plan = router.route(candidates, dry_run=none_can, chinese=False, registered=7, urgent=urgent)
    assert plan.outcome == "routed" and plan.controller == "incident"


def test_an_urgent_build_failure_is_filed_not_told_to_paste_an_alert(brain: Brain) -> None:
    decision = brain.ask(Message("jenkins build for payments-service failing since noon", "U1"))
    assert decision.result is not None and decision.result.ok, decision.tier_path
    assert decision.controller != "alarm" or decision.result.data.get("signals")
