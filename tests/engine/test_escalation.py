"""Escalation as its own decision and the LLM as a voter, end to end
through `brain ask --json` (the CLI) and the `Brain` API, each example of the escalation cases.

Pages need explicit evidence (a reported security event, urgency words, company-wide scope with
an impact verb, a request for a person); questions about security never page or file anything;
an urgent route is never blocked by a missing parameter nor turned away.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from brain.engine import Brain
from cli import main
from core.records import Message
from tests.fakes.anthropic_server import FakeAnthropic, FakeReply, brain_llm


def _ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    assert main(["ask", text, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _tickets(capsys: pytest.CaptureFixture[str]) -> str:
    main(["tickets", "list"])
    return capsys.readouterr().out


@pytest.mark.usefixtures("home")
def test_a_question_about_phishing_pages_nobody_and_files_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    decision = _ask(capsys, "what is our policy on phishing emails?")

    assert decision["escalate"] is False
    assert decision["urgency"] == "low"
    assert decision["controller"] == "consultation"
    assert decision["supporting"] == []
    assert decision["escalation"]["consultation"] is True
    assert "ticket" not in (decision["result"] or {}).get("data", {})
    assert "INC-" not in _tickets(capsys)


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    "text",
    [
        "I accidentally committed our AWS access key to a public GitHub repo",
        "我把数据库密码提交到了公开的 GitHub 仓库",
    ],
    ids=["en", "zh"],
)
def test_exposed_secrets_are_critical_security_incidents(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    decision = _ask(capsys, text)

    assert decision["controller"] == "incident"
    assert decision["outcome"] == "routed"
    assert decision["escalate"] is True
    assert decision["urgency"] == "critical"
    assert decision["escalation"]["security"] == ["exposed_secret"]
    assert "security incident" in decision["rationale"]


@pytest.mark.usefixtures("home")
def test_a_password_typed_into_a_fake_login_page_is_escalated_at_critical(
    capsys: pytest.CaptureFixture[str],
) -> None:
    decision = _ask(capsys, "I typed my password into a fake login page that looked like our SSO")

    assert decision["controller"] == "incident"
    assert decision["escalate"] is True
    assert decision["urgency"] == "critical"
    assert "credential_entry" in decision["escalation"]["security"]
    # The taxonomy's finding is the incident's category: nothing is left to ask.
    assert decision["result"]["ok"] is True
    assert "security" in decision["result"]["summary"]


@pytest.mark.usefixtures("home")
def test_a_company_wide_outage_lacking_its_category_is_routed_and_asked_after(
    capsys: pytest.CaptureFixture[str],
) -> None:
    decision = _ask(capsys, "the whole company can't log in, everything is down")

    assert decision["escalate"] is True
    assert decision["urgency"] == "critical"
    assert decision["outcome"] == "routed"
    assert decision["controller"] == "incident"
    assert decision["clarification"] is None
    assert "category" in decision["follow_up"]
    assert "outside what I can handle" not in json.dumps(decision)


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    "text",
    [
        "we need an emergency change to bump the db pool size tonight",
        "紧急变更需要几个人审批？",
        "what is the policy for urgent access requests?",
    ],
)
def test_urgency_words_naming_a_thing_or_asked_about_do_not_page(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    decision = _ask(capsys, text)

    assert decision["escalate"] is False
    assert decision["urgency"] != "critical"


@pytest.mark.usefixtures("home")
def test_an_escalated_message_no_controller_takes_is_not_turned_away(
    capsys: pytest.CaptureFixture[str],
) -> None:
    decision = _ask(capsys, "urgent!!!")

    # words alone do not page: an urgency word is urgency, not impact
    assert decision["escalate"] is False
    assert decision["outcome"] in ("clarify", "fallback")
    assert "outside what I can handle" not in (decision["clarification"] or "")
    assert len(decision["candidates"]) != 1


# -- the LLM is a voter, not a ruler ------------------------------------------------------
@pytest.fixture
def fake_llm(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropic]:
    with brain_llm(monkeypatch, timeout_s=5) as fake:
        yield fake


def test_an_llm_saying_security_incident_alone_pages_nobody(fake_llm: FakeAnthropic) -> None:
    fake_llm.default = FakeReply.json(
        {"intent": "security_incident", "confidence": 1.0, "reasoning": "A security breach."}
    )
    brain = Brain.open()
    try:
        decision = brain.decide(Message("the thing is broken, can someone check", "u1", "D1"))
    finally:
        brain.close()

    assert decision.llm_calls == 1 and decision.llm_status == "ok"
    assert decision.escalate is False
    assert decision.urgency != "critical"
    assert decision.intent.intent != "security_incident"


def test_an_llm_vote_alone_routes_nothing(fake_llm: FakeAnthropic) -> None:
    fake_llm.default = FakeReply.json(
        {"intent": "password_reset", "confidence": 1.0, "reasoning": "Reset the password."}
    )
    brain = Brain.open()
    try:
        decision = brain.decide(Message("zorblax quintessence flarn wibble", "u1", "D1"))
    finally:
        brain.close()

    assert decision.llm_status == "ok"
    assert decision.intent.intent == "password_reset"  # the LLM voted, and was heard ...
    assert decision.outcome not in ("routed", "composed")  # ... but routed nothing alone
    assert decision.controller is None
