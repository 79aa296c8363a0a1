"""Type A consolidation: three confirmed, similar unknown requests become a controller."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from brain.engine import Brain
from cli import main
from controllers.registry import ControllerRegistry
from core.config import load_settings
from core.records import Decision, Message
from tests.fakes.capability_hook import FakeHook

#: The same request, asked by three people in three ways, then a fourth way.
ASKED = [
    ("u1", "book the large meeting room on floor 5 for Friday 3pm"),
    ("u2", "reserve the big conference room on the 5th floor friday at 15:00"),
    ("u3", "I need the big meeting room, 5th floor, Friday 3 pm"),
]
FOURTH = "can I get the large room on level five this Friday afternoon at 3"


def _hook_home(home: Path, hook: FakeHook, approval: bool) -> None:
    (home / "brain.toml").write_text(
        f'[dynamic]\nhook_url = "{hook.url}"\n'
        f"[evolution]\nrequire_approval = {'true' if approval else 'false'}\n"
    )


@pytest.fixture
def hook() -> Iterator[FakeHook]:
    with FakeHook() as fake:
        yield fake


def _ask_and_confirm(brain: Brain) -> list[Decision]:
    decisions = []
    for user, text in ASKED:
        decision = brain.ask(Message(text, user=user, channel="C1"))
        assert decision.controller is None and decision.dcr is not None, decision.tier_path
        assert decision.dcr.result == "hook"
        brain.feedback(decision.decision_id, "confirm", user=user)
        decisions.append(decision)
    return decisions


def _controllers(capsys: pytest.CaptureFixture[str]) -> dict[str, dict]:
    assert main(["controllers", "--json"]) == 0
    return {row["name"]: row for row in json.loads(capsys.readouterr().out)}


@pytest.mark.slow
def test_three_confirmed_requests_evolve_a_controller_the_fourth_takes_fast(
    home: Path, hook: FakeHook, capsys: pytest.CaptureFixture[str]
) -> None:
    _hook_home(home, hook, approval=False)
    with Brain.open() as brain:
        decisions = _ask_and_confirm(brain)
        # The second and third were drafted from the first one's confirmed plan.
        assert decisions[1].dcr is not None and decisions[1].dcr.rounds[0].survived
        evolved = [n for n in brain.registry.names() if n.startswith("evolved_")]
        assert len(evolved) == 1
        fourth = brain.ask(Message(FOURTH, user="u4", channel="C2"))

    name = evolved[0]
    assert fourth.controller == name, fourth.tier_path
    assert fourth.tier == "fast" and fourth.outcome == "routed"
    assert fourth.result is not None and fourth.result.summary.startswith("Facilities:")
    assert hook.requests[-1]["controller"] == name  # the evolved controller replays the hook

    listed = _controllers(capsys)
    assert listed[name]["origin"] == "evolved"
    assert listed[name]["examples"] == 3
    assert main(["evolution", "report", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [row["name"] for row in report["evolved"]] == [name]

    assert main(["controllers", "retire", name]) == 0
    capsys.readouterr()
    assert name not in _controllers(capsys)


@pytest.mark.slow
def test_with_approval_required_it_routes_only_once_approved(
    home: Path, hook: FakeHook, capsys: pytest.CaptureFixture[str]
) -> None:
    _hook_home(home, hook, approval=True)
    with Brain.open() as brain:
        _ask_and_confirm(brain)
        assert not [n for n in brain.registry.names() if n.startswith("evolved_")]
        waiting = brain.decide(Message(FOURTH, user="u4", channel="C2"))
    assert waiting.controller is None or not waiting.controller.startswith("evolved_")

    pending = [row for row in _controllers(capsys).values() if row["origin"] == "evolved"]
    assert len(pending) == 1 and pending[0]["status"] == "pending approval"
    name = pending[0]["name"]
    assert name not in ControllerRegistry.load(load_settings()).names()

    assert main(["controllers", "approve", name, "--user", "admin1"]) == 0
    assert f"approved evolved controller {name}" in capsys.readouterr().out
    with Brain.open() as brain:
        approved = brain.decide(Message(FOURTH, user="u5", channel="C3"))
    assert approved.controller == name and approved.tier == "fast", approved.tier_path
