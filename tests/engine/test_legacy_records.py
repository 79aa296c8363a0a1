"""Decision logs written before the typed records still load, into the typed records."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from brain.engine import Brain
from cli import main
from core.records import ExecutionPart, ExecutionResult, FeedbackRecord, IntentResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "legacy_decisions"
COMPOSED = "d-a68d5ba5d4df"
REROUTED = "d-f7d31fa04323"
#: Fields added since the fixtures were written (fields are added, never removed): absent on a
#: legacy record, they read as None.
#: Fields `brain why --json` added since (it shows no scenario or preference of its own).
WHY_ADDED_FIELDS = {"escalation": None, "follow_up": None, "retrieval": [], "request_type": ""}
#: What `brain why --json` adds from the home, not the record: the weights it routes with now.
WHY_HOME_FIELDS = {
    "weights": {"keyword": 0.3, "semantic": 0.3, "knowledge": 0.2, "session": 0.1, "memory": 0.1},
    "weights_source": "configured",
}
#: Fields the decision record added since, read as their defaults from a legacy log.
ADDED_FIELDS = {**WHY_ADDED_FIELDS, "scenario": "", "preference": ""}


def _stored(name: str) -> dict:
    return json.loads((FIXTURE / name).read_text(encoding="utf-8"))


@pytest.fixture
def legacy_home(isolated_env: Path) -> Path:
    """A brain home holding only the decision log written by the earlier code."""
    shutil.copytree(FIXTURE / "decisions", isolated_env / "decisions")
    return isolated_env


@pytest.mark.usefixtures("legacy_home")
def test_a_legacy_composed_decision_loads_into_typed_records() -> None:
    with Brain.open() as brain:
        decision = brain.get_decision(COMPOSED)

    assert isinstance(decision.intent, IntentResult)
    assert (decision.intent.intent, decision.intent.group) == ("alert", "alarm")
    assert decision.intent.source_scores["keyword"] == 0.65
    assert decision.intent.urgency == decision.urgency == "critical"
    assert isinstance(decision.result, ExecutionResult)
    assert (decision.result.controller, decision.result.role) == ("alarm", "primary")
    assert decision.result.escalate is True
    assert all(isinstance(p, ExecutionPart) for p in decision.result.parts)
    assert [(p.controller, p.role, p.escalate) for p in decision.result.parts] == [
        ("alarm", "primary", True),
        ("ticket", "supporting", False),
    ]
    assert decision.result.parts[0].data["signals"][0]["name"] == "HighErrorRate"
    assert decision.result.summary.startswith("[alarm - primary] Firing: HighErrorRate")
    assert decision.feedback == [
        FeedbackRecord(
            kind="confirm",
            controller=None,
            user="u2",
            source="slack",
            at="2026-12-01T06:49:19+00:00",
            persisted=["memory: persisted +0.10 for alarm (confirmation)"],
        )
    ]


@pytest.mark.usefixtures("legacy_home")
def test_a_legacy_rerouted_decision_loads_into_typed_records() -> None:
    with Brain.open() as brain:
        decision = brain.get_decision(REROUTED)

    assert isinstance(decision.result, ExecutionResult)
    assert decision.result.controller == "access"
    assert decision.result.parts == []
    assert [(f.kind, f.controller, f.user, f.source) for f in decision.feedback] == [
        ("correct", "access", "u3", "slack"),
        ("reject", None, "u4", "cli"),
    ]
    assert decision.feedback[0].persisted[-1].endswith("+0.10 for access (correction-right)")


@pytest.mark.usefixtures("legacy_home")
@pytest.mark.parametrize("name", ["composed", "rerouted"])
def test_the_decision_json_of_a_legacy_decision_is_unchanged(name: str) -> None:
    decision_id = {"composed": COMPOSED, "rerouted": REROUTED}[name]
    with Brain.open() as brain:
        decision = brain.get_decision(decision_id)

    stored, dumped = _stored(f"{name}.json"), decision.to_dict()
    # Every stored field comes back unchanged; fields added since read as their defaults.
    assert {key: dumped[key] for key in stored} == stored
    assert {key: dumped[key] for key in dumped if key not in stored} == ADDED_FIELDS


@pytest.mark.usefixtures("legacy_home")
@pytest.mark.parametrize("name", ["composed", "rerouted"])
def test_brain_why_json_of_a_legacy_decision_is_unchanged(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    decision_id = {"composed": COMPOSED, "rerouted": REROUTED}[name]

    assert main(["why", decision_id, "--json"]) == 0

    assert json.loads(capsys.readouterr().out) == {
        **_stored(f"{name}.why.json"),
        **WHY_ADDED_FIELDS,
        **WHY_HOME_FIELDS,
    }


@pytest.mark.usefixtures("legacy_home")
def test_brain_why_text_of_a_legacy_decision_shows_intent_feedback_and_result(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["why", REROUTED]) == 0

    text = capsys.readouterr().out
    assert "Intent: " in text
    assert "correct -> access by u3 via slack" in text
    assert "reject by u4 via cli" in text
    assert "Result: " in text
