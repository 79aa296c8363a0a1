"""The dynamic tier: Draft-Critique-Refine rounds, the fallback ladder, Type B pipelines."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from brain.engine import Brain
from cli import main
from controllers.base import ControllerContext, ControllerResult
from controllers.registry import ControllerRegistry
from controllers.tickets import TicketStore
from core.config import Settings
from core.records import Message
from core.vector_text import decode_vector
from tests.fakes.capability_hook import FakeHook

TABLE = "book a table for four tonight"
ROOM = "book the large meeting room on floor 5 for Friday 3pm"
WORK_ORDER = "2025060300011279027"
PIPELINE = f"CPU alarm on settlement-batch-02, and ticket {WORK_ORDER} was opened for it"


@pytest.fixture
def hook(home: Path) -> Iterator[FakeHook]:
    """A capability hook that knows about meeting rooms, configured in the home."""
    with FakeHook() as fake:
        (home / "brain.toml").write_text(f'[dynamic]\nhook_url = "{fake.url}"\n')
        yield fake


def _ask(capsys: pytest.CaptureFixture[str], text: str, user: str = "u1") -> dict[str, Any]:
    assert main(["ask", text, "--json", "--user", user, "--channel", "C1"]) == 0
    decision: dict[str, Any] = json.loads(capsys.readouterr().out)
    return decision


@pytest.mark.usefixtures("home")
def test_a_restaurant_booking_ends_in_an_honest_boundary_with_next_steps(
    capsys: pytest.CaptureFixture[str],
) -> None:
    decision = _ask(capsys, TABLE)

    assert decision["controller"] is None and decision["supporting"] == []
    assert decision["outcome"] == "fallback" and decision["tier"] == "dynamic"
    assert decision["escalate"] is False
    dcr = decision["dcr"]
    assert dcr["result"] == "boundary" and dcr["evolution_signal"] is True
    assert 1 <= len(dcr["rounds"]) <= 3
    rungs = " | ".join(dcr["ladder"])
    for rung in ("deep KB retrieval", "full memory pass", "capability hook", "ladder covers it"):
        assert rung in rungs
    # The next steps name what a person can do on any surface (not a Slack-only button).
    assert "Next steps" in decision["clarification"]
    assert "hand it to a person" in decision["clarification"]

    assert main(["why", decision["decision_id"]]) == 0
    why = capsys.readouterr().out
    assert "DCR round 1:" in why and "Fallback ladder: deep KB retrieval" in why
    assert "Dynamic result: boundary" in why

    assert main(["evolution", "report", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["boundary_cases"] == 1


def test_the_capability_hook_answers_what_it_knows_and_nothing_else(
    capsys: pytest.CaptureFixture[str], hook: FakeHook
) -> None:
    table = _ask(capsys, TABLE)
    assert table["controller"] is None and table["dcr"]["result"] == "boundary"

    room = _ask(capsys, ROOM)
    assert room["controller"] is None and room["outcome"] == "fallback"
    assert room["dcr"]["result"] == "hook"
    assert room["result"]["summary"].startswith("Facilities: room request handled")
    assert room["plan"]["topology"] == "hook"
    # The hook was given the message and the ladder's expanded queries.
    assert [r["text"] for r in hook.requests] == [TABLE, ROOM]
    assert all(r["queries"][0] == r["text"] for r in hook.requests)


def test_a_plan_that_failed_on_a_similar_case_is_a_counter_example(
    home: Path, hook: FakeHook
) -> None:
    with Brain.open() as brain:
        first = brain.ask(Message(ROOM, user="u1", channel="C1"))
        brain.feedback(first.decision_id, "confirm", user="u1")
        second = brain.ask(
            Message("reserve the big conference room on the 5th floor friday", user="u2")
        )
        assert second.dcr is not None and second.dcr.rounds[0].survived  # drafted from memory
        assert second.dcr.rounds[0].plan is not None
        assert second.dcr.rounds[0].plan.source == "memory"
        brain.feedback(second.decision_id, "reject", user="u2")
        third = brain.ask(Message("I need the big meeting room, 5th floor, Friday", user="u3"))

    assert third.dcr is not None
    checks = {c.name: c for c in third.dcr.rounds[0].checks}
    assert not checks["counter_example"].ok
    assert "failed on a similar case" in checks["counter_example"].reason
    assert third.dcr.rounds[0].constraints  # the failure came back as a constraint


class _Recording:
    """The real ticket controller, recording what each call was given (its input)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.inputs: list[dict[str, Any] | None] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def handle(self, context: ControllerContext) -> ControllerResult:
        self.inputs.append(None if context.upstream is None else dict(context.upstream))
        result: ControllerResult = self._inner.handle(context)
        return result


def test_an_alarm_on_a_ticket_runs_as_a_pipeline_with_the_diagnosis_injected(
    home: Path,
) -> None:
    TicketStore.open(Settings(home=home)).create(
        "incident", title="settlement batch slow", requester="u1", ticket_id=WORK_ORDER
    )
    builtins = ControllerRegistry.load(yaml_files=False).all()
    ticket = _Recording(next(c for c in builtins if c.name == "ticket"))
    registry = ControllerRegistry([ticket if c.name == "ticket" else c for c in builtins])

    with Brain.open(registry=registry) as brain:
        decision = brain.ask(Message(PIPELINE, user="u1", channel="C1"))
        why = brain.explain(decision.decision_id).to_dict()

    assert decision.outcome == "composed", decision.tier_path
    assert decision.composition == "pipeline"
    assert decision.plan is not None and decision.plan.topology == "pipeline"
    assert decision.plan.controllers == ["alarm", "ticket"]
    assert [b.describe() for b in decision.plan.contract] == [
        "alarm.summary+data -> ticket.upstream"
    ]
    parts = decision.result.parts if decision.result else []
    assert [p.controller for p in parts] == ["alarm", "ticket"]
    diagnosis = parts[0].summary
    assert "cpu" in diagnosis.lower()
    # The ticket's input held the alarm diagnosis, and the ticket kept it.
    assert len(ticket.inputs) == 1 and ticket.inputs[0] is not None
    assert ticket.inputs[0]["summary"] == diagnosis
    assert ticket.inputs[0]["controller"] == "alarm"
    stored = TicketStore.open(Settings(home=home)).get(WORK_ORDER)
    assert stored is not None and any(diagnosis[:40] in str(c) for c in stored.comments)
    roles = {p.controller: p.role for p in parts}
    assert set(roles.values()) == {"primary", "supporting"}
    assert why["plan"]["contract"][0]["target"] == "ticket"


@pytest.mark.usefixtures("home")
def test_a_dynamic_decision_reads_the_case_book_once() -> None:
    # The case book grows by one case per dynamic decision; reading all of it twice per
    # decision (the draft's similar cases, then the ladder's memory pass) made the slowest
    # messages slower with every thousand decided, and so did copying every case on each
    # read: the decision reads the store's shared view once and copies nothing.
    with Brain.open() as brain:
        brain.ask(Message(TABLE, user="u0", channel="C1"))  # one case in the book
        store = brain.cases.store
        reads = {"view": 0, "all": 0}

        def counting(name: str) -> None:
            original = getattr(store, name)

            def counted() -> Any:
                reads[name] += 1
                return original()

            setattr(store, name, counted)

        counting("view")
        counting("all")
        decision = brain.decide(Message(TABLE, user="u1", channel="C1"))
    assert decision.tier == "dynamic" and decision.dcr is not None
    assert any("full memory pass" in line for line in decision.dcr.ladder)
    assert reads == {"view": 1, "all": 0}


@pytest.mark.usefixtures("home")
def test_a_case_stored_with_a_list_vector_is_still_a_similar_case(hook: FakeHook) -> None:
    # Cases kept their vector as a JSON list of 384 numbers before it became base64 text
    # (a copy of every case per dynamic decision parsed them all); such a case still counts.
    with Brain.open() as brain:
        first = brain.ask(Message(ROOM, user="u1", channel="C1"))
        brain.feedback(first.decision_id, "confirm", user="u1")
        stored = brain.cases.store.get(first.decision_id)
        assert stored is not None and isinstance(stored["vector"], str)
        vector = decode_vector(stored["vector"])
        assert vector is not None and vector.shape == (384,)
        as_list = [round(float(x), 5) for x in vector]
        brain.cases.store.modify(first.decision_id, lambda case: case.update(vector=as_list))
        second = brain.ask(
            Message("reserve the big conference room on the 5th floor friday", user="u2")
        )
    assert second.dcr is not None and second.dcr.rounds[0].plan is not None
    assert second.dcr.rounds[0].plan.source == "memory"
