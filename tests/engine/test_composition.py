"""Several strong controllers: parallel dry-runs, composition, and the verify tier."""

from __future__ import annotations

from pathlib import Path

import pytest

from brain.engine import Brain
from brain.routing.plan import Candidate, RoutePlan, composition_of
from brain.routing.router import Router
from controllers.base import feeds_of
from controllers.registry import ControllerRegistry
from controllers.tickets import TicketStore
from core.config import RoutingConfig, Settings
from core.records import DryRunRecord, Message

WORK_ORDER = "2025060300011279027"
ALERT_FOR_TICKET = (
    "[FIRING:1] HighErrorRate service=payments severity=critical, error rate 12% on the "
    f"gateway; add this alert to work order {WORK_ORDER} and chase it"
)


def _open_ticket(home: Path, ticket_id: str | None = None) -> str:
    ticket = TicketStore.open(Settings(home=home)).create(
        "incident", title="payments errors", requester="u1", ticket_id=ticket_id
    )
    return ticket.id


def test_alert_attached_to_a_ticket_is_composed_as_a_pipeline(home: Path, brain: Brain) -> None:
    _open_ticket(home, WORK_ORDER)

    decision = brain.ask(Message(ALERT_FOR_TICKET, user="u1", channel="C1"))

    assert decision.outcome == "composed", decision.tier_path
    assert decision.tier == "verify"
    assert {decision.controller, *decision.supporting} == {"alarm", "ticket"}
    assert decision.composition == "pipeline"
    assert {d.controller for d in decision.dry_runs} == {"alarm", "ticket"}
    assert all(d.ok for d in decision.dry_runs)
    parts = decision.result.parts if decision.result else []
    assert [p.controller for p in parts] == ["alarm", "ticket"]
    stored = TicketStore.open(Settings(home=home)).get(WORK_ORDER)
    assert stored is not None and stored.comments  # the alarm diagnosis went into the ticket


def test_when_only_one_strong_controller_passes_its_dry_run_it_is_routed(brain: Brain) -> None:
    # The work order does not exist: the ticket dry-run fails, the alarm one passes.
    decision = brain.decide(Message(ALERT_FOR_TICKET, user="u1", channel="C1"))

    assert decision.outcome == "routed", decision.tier_path
    assert decision.controller == "alarm"
    assert decision.tier == "verify"
    failed = [d for d in decision.dry_runs if not d.ok]
    assert [d.controller for d in failed] == ["ticket"]


def _router_plan(
    results: dict[str, bool],
    confidences: dict[str, float],
    out_of_scope: float | None = None,
    help_request: bool = False,
) -> RoutePlan:
    # Which controller feeds which is declared by the built-in controllers themselves.
    builtins = ControllerRegistry.load(yaml_files=False).all()
    router = Router(RoutingConfig(), feeds={c.name: feeds_of(c) for c in builtins})
    candidates = [Candidate(name, name.title(), c) for name, c in confidences.items()]
    return router.route(
        candidates,
        dry_run=lambda name: DryRunRecord(name, results[name], "ok" if results[name] else "no"),
        chinese=False,
        registered=7,
        out_of_scope=out_of_scope,
        help_request=help_request,
    )


def test_declared_out_of_scope_answers_honestly_below_the_fast_path() -> None:
    declared = _router_plan({"incident": True}, {"incident": 0.6}, out_of_scope=0.99)
    assert (declared.outcome, declared.tier, declared.controller) == ("fallback", "dynamic", None)
    assert declared.dry_runs == [] and "out of scope" in declared.tier_path[-1]
    assert declared.clarification and "none of my 7 controllers" in declared.clarification

    # Without the verdict the same candidate is verified and routed; at >= 0.8 it stays fast.
    assert _router_plan({"incident": True}, {"incident": 0.6}).outcome == "routed"
    fast = _router_plan({"incident": True}, {"incident": 0.9}, out_of_scope=0.99)
    assert (fast.outcome, fast.tier) == ("routed", "fast")


def test_a_request_for_help_is_asked_about_even_with_no_plausible_controller() -> None:
    weak = {"incident": 0.1, "ticket": 0.08, "access": 0.05, "change": 0.01}
    assert _router_plan({}, weak).outcome == "fallback"
    assert _router_plan({}, weak, out_of_scope=0.97).outcome == "fallback"

    asked = _router_plan({}, weak, out_of_scope=0.97, help_request=True)
    assert (asked.outcome, asked.controller) == ("clarify", None)
    assert asked.candidates == ["incident", "ticket", "access"]
    assert asked.clarification and "Incident" in asked.clarification


def test_seed_002_supporting_rule_and_composition_kinds() -> None:
    # incident 0.7 + access 0.5 (>= 0.45 and >= 55% of 0.7): both dry-run, no data flow.
    parallel = _router_plan({"incident": True, "access": True}, {"incident": 0.7, "access": 0.5})
    assert (parallel.outcome, parallel.composition) == ("composed", "parallel")
    assert (parallel.controller, parallel.supporting) == ("incident", ["access"])

    # alarm output feeds the ticket: a pipeline, the producer first.
    pipeline = _router_plan({"ticket": True, "alarm": True}, {"ticket": 0.7, "alarm": 0.6})
    assert (pipeline.composition, pipeline.controller, pipeline.supporting) == (
        "pipeline",
        "ticket",
        ["alarm"],
    )

    # 0.44 is below the absolute floor, 0.46 below 55% of 0.9: no parallel exploration.
    weak = _router_plan({"incident": True, "access": True}, {"incident": 0.7, "access": 0.44})
    assert weak.outcome == "routed" and weak.supporting == [] and len(weak.dry_runs) == 1
    relative = _router_plan({"incident": True, "access": True}, {"incident": 0.9, "access": 0.46})
    assert relative.tier == "fast" and relative.dry_runs == []

    # none passes -> dynamic (clarify between them).
    none = _router_plan({"incident": False, "access": False}, {"incident": 0.7, "access": 0.5})
    assert (none.outcome, none.tier, none.controller) == ("clarify", "dynamic", None)


PAYROLL = """
name: payroll
label: Payroll desk
description: Salary, payslips and payroll tax forms of employees.
keywords: [payroll, payslip, salary, 工资条]
examples: ["Where is my payslip for May?", "my salary was paid twice", "我的工资条在哪里看"]
required_entities: [employee_id]
handler: none
"""


@pytest.mark.slow
def test_verify_tier_with_a_failing_dry_run_asks_instead(home: Path) -> None:
    # A new YAML controller is routable at once; its dry-run needs an employee id.
    (home / "controllers").mkdir(exist_ok=True)
    (home / "controllers" / "payroll.yaml").write_text(PAYROLL, encoding="utf-8")
    (home / "brain.toml").write_text("[routing]\nfast_threshold = 1.0\n", encoding="utf-8")
    brain = Brain.open()
    try:
        decision = brain.decide(Message("my payslip for May shows the wrong salary"))
    finally:
        brain.close()

    assert [(d.controller, d.ok) for d in decision.dry_runs] == [("payroll", False)]
    assert decision.dry_runs[0].missing == ["employee_id"]
    assert decision.candidates[0] == "payroll"
    assert decision.tier_path[0].startswith("verify")
    assert "Dry-run failed for payroll" in decision.rationale or decision.follow_up
    if decision.outcome == "clarify":
        # Asked back: never about a single candidate.
        assert decision.controller is None and decision.tier == "dynamic"
        assert len(decision.candidates) >= 2
        assert "Payroll desk" in (decision.clarification or "")
    else:
        # The only plausible controller: routed, its missing parameter asked after.
        assert (decision.outcome, decision.controller) == ("routed", "payroll")
        assert "employee_id" in (decision.follow_up or "")


def test_verify_tier_with_a_passing_dry_run_routes(home: Path) -> None:
    ticket_id = _open_ticket(home)
    (home / "brain.toml").write_text("[routing]\nfast_threshold = 1.0\n", encoding="utf-8")
    brain = Brain.open()
    try:
        decision = brain.decide(Message(f"what's the status of ticket {ticket_id}?"))
    finally:
        brain.close()

    assert decision.outcome == "routed"
    assert decision.controller == "ticket"
    assert decision.tier == "verify"
    assert decision.dry_runs[0].ok


def test_controllers_declare_what_their_output_feeds(isolated_env: Path) -> None:
    folder = isolated_env / "controllers"
    folder.mkdir(parents=True)
    (folder / "payroll.yaml").write_text(PAYROLL + "feeds: [ticket]\n", encoding="utf-8")
    (folder / "broken.yaml").write_text(
        PAYROLL.replace("payroll", "broken") + "feeds: [Not A Name]\n", encoding="utf-8"
    )
    registry = ControllerRegistry.load()
    feeds = {c.name: feeds_of(c) for c in registry.all() if feeds_of(c)}

    assert feeds == {
        "consultation": ("ticket", "incident", "access", "change"),
        "alarm": ("ticket", "incident", "change"),
        "coding": ("change", "ticket"),
        "payroll": ("ticket",),
    }
    assert composition_of(["ticket", "payroll"], feeds) == ("pipeline", ["payroll", "ticket"])
    assert composition_of(["ticket", "payroll"], {}) == ("parallel", ["ticket", "payroll"])
    assert any("broken.yaml" in w and "feeds" in w for w in registry.warnings)
