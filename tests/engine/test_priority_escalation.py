"""Pages you can trust, through `brain ask --json`: each must-page kind in new
wordings (English and Chinese) pages with P1 and its evidence spans; routine "urgent"
requests, resolved alerts, drills, policy questions and instructions in the text do not; a
request for a person is handed to one, never asked back; a P1 that no controller fits is routed
to the outage controller. The wordings are not in the escalation training data."""

from __future__ import annotations

import json

import pytest

from brain.escalation.decide import OUTAGE_CONTROLLER, SECURITY_INTENT
from brain.escalation.model import labelled_rows
from brain.intent.taxonomy import intent_group
from cli import main
from tests.escalation_wordings import HANDOFF, MUST_NOT_PAGE, MUST_PAGE


def _ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    assert main(["ask", text, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_wordings_here_are_not_training_rows() -> None:
    known = {str(r["text"]) for r in labelled_rows(None)}
    wordings = [*MUST_PAGE.values(), *MUST_NOT_PAGE.values(), *HANDOFF.values()]
    assert not known & set(wordings)


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize("text", list(MUST_PAGE.values()), ids=list(MUST_PAGE))
def test_must_page_kinds_page_with_p1_and_evidence(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    decision = _ask(capsys, text)

    assert decision["escalate"] is True
    assert decision["urgency"] == "critical"
    escalation = decision["escalation"]
    assert escalation["priority"] == "P1"
    assert escalation["kind"] in ("security", "outage")
    assert escalation["evidence"]
    _one_priority(escalation)
    # no outage left unrouted: something takes it
    assert decision["outcome"] in ("routed", "composed")
    assert decision["controller"] is not None
    for span in escalation["spans"]:
        assert text.lower()[span["start"] : span["end"]] == span["text"]


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize("text", list(MUST_NOT_PAGE.values()), ids=list(MUST_NOT_PAGE))
def test_words_resolved_alerts_drills_and_instructions_do_not_page(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    decision = _ask(capsys, text)

    assert decision["escalate"] is False
    assert decision["escalation"]["priority"] != "P1"
    assert decision["urgency"] != "critical"
    _one_priority(decision["escalation"])


def _one_priority(escalation: dict) -> None:
    """The evidence names one priority, the decision's, never the matrix's beside it."""
    lines = [e for e in escalation["evidence"] if e.startswith("priority ")]
    assert len(lines) == 1
    assert lines[0].startswith(f"priority {escalation['priority']} "), lines


@pytest.mark.usefixtures("home")
def test_a_priority_set_over_the_matrix_says_what_set_it_and_what_it_overrode(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A live vishing call the matrix reads as one person's P4: the evidence said "priority P4
    (impact individual x urgency no rush)" beside the P1 page, two verdicts side by side."""
    decision = _ask(
        capsys,
        "someone from 'IT' called me and is asking for the MFA code right now, they know my "
        "manager's name",
    )

    assert decision["escalate"] is True
    escalation = decision["escalation"]
    assert escalation["priority"] == "P1"
    (line,) = [e for e in escalation["evidence"] if e.startswith("priority ")]
    assert line.startswith("priority P1 (the ")
    assert "), not the matrix's P4 (impact individual x urgency no rush)" in line
    assert "priority P4" not in decision["rationale"]
    assert "not the matrix's P4" in decision["rationale"]


@pytest.mark.usefixtures("home")
def test_an_outage_spans_name_impact_and_state(capsys: pytest.CaptureFixture[str]) -> None:
    decision = _ask(capsys, "URGENT, checkout is down for all customers")

    escalation = decision["escalation"]
    roles = {s["role"] for s in escalation["spans"]}
    assert {"down", "scope_all"} <= roles
    assert escalation["impact"] == "all"
    assert escalation["urgency_level"] == "down"
    assert "P1" in decision["rationale"] or "P1" in (escalation["reason"] or "")


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize("text", list(HANDOFF.values()), ids=list(HANDOFF))
def test_a_request_for_a_person_is_handed_to_one_never_asked_back(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    decision = _ask(capsys, text)

    assert decision["escalate"] is True
    assert decision["outcome"] != "clarify"
    assert decision["escalation"]["kind"] == "handoff"


@pytest.mark.usefixtures("home")
def test_a_p1_no_controller_fits_goes_to_the_outage_controller(
    capsys: pytest.CaptureFixture[str],
) -> None:
    decision = _ask(capsys, "everything is down for all customers")

    assert decision["escalate"] is True
    assert decision["controller"] == OUTAGE_CONTROLLER
    assert decision["outcome"] == "routed"


@pytest.mark.usefixtures("home")
def test_why_shows_priority_and_evidence(capsys: pytest.CaptureFixture[str]) -> None:
    decision = _ask(capsys, "主数据库宕机了，主备切换失败")
    assert main(["why", decision["decision_id"]]) == 0
    out = capsys.readouterr().out
    assert "P1" in out


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize("kind", ["mfa_fatigue_en", "data_leaving_en", "vishing_en"])
def test_a_security_event_only_the_model_recognises_goes_to_the_security_controller(
    capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """No taxonomy class names it, yet it is paged as a security event, so it is routed and
    filed as one (an MFA push storm went to access before, and a vishing call in progress was
    answered from the knowledge base as a how-to question)."""
    decision = _ask(capsys, MUST_PAGE[kind])

    assert decision["escalate"] is True
    assert decision["escalation"]["kind"] == "security"
    assert decision["escalation"]["security"] == []
    assert decision["controller"] == intent_group(SECURITY_INTENT)
    assert decision["request_type"] != "question"  # reported, not asked about
    assert decision["entities"]["category"] == ["security"]
