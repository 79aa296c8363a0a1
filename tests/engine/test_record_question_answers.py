"""A question about a thread's record is answered from the passage that answers it: one the
multilingual encoder found where the words did not, or one that answers the question on the
record's subject without naming what the record is about. Through `brain ask --thread`."""

from __future__ import annotations

import pytest

from tests.cli_calls import all_tickets, ask_json, comments


@pytest.mark.usefixtures("home")
def test_who_approves_a_chinese_request_is_answered_from_the_chinese_policy(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The Chinese access-request section shares few character pairs with the request and
    the question together, and is found on meaning only."""
    ask_json(capsys, "我需要开通财务 SharePoint 站点的访问权限", "--thread", "T1")
    decision = ask_json(capsys, "这个需要谁审批？", "--thread", "T1")

    [ticket] = all_tickets(capsys)
    result = decision["result"]
    assert decision["controller"] == "access" and result["ok"] and result["citations"], result
    assert "直属领导审批" in result["summary"], result["summary"]
    assert comments(ticket) == ["这个需要谁审批？"]


@pytest.mark.usefixtures("home")
def test_who_approves_a_tool_the_policy_does_not_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The policy names no Figma and no design team: its "Who approves" section answers the
    question on the record's subject (access), not a section that shares more of the
    request's words."""
    ask_json(capsys, "I need access to Figma for the design team", "--thread", "T1")
    decision = ask_json(capsys, "who needs to approve that?", "--thread", "T1")

    result = decision["result"]
    assert decision["controller"] == "access" and result["ok"] and result["citations"], result
    assert "line manager" in result["summary"], result["summary"]
    assert "Who approves" in result["citations"][0], result["citations"]


@pytest.mark.usefixtures("home")
def test_a_question_about_a_record_the_knowledge_base_has_no_answer_for_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """No passage both answers the question and is about the record (a new monitor): no
    answer, and the question stays on the record."""
    ask_json(capsys, "I need a new monitor for my desk", "--thread", "T1")
    decision = ask_json(capsys, "who needs to approve that?", "--thread", "T1")

    [ticket] = all_tickets(capsys)
    result = decision["result"]
    assert not result["citations"] and "line manager" not in result["summary"], result
    assert comments(ticket)[-1] == "who needs to approve that?"


@pytest.mark.usefixtures("home")
def test_how_long_a_request_takes_is_answered_with_the_records_kind(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The policy's "How long it takes" names no finance drive and only "long" of the
    question: judged on the subject or the question alone it was refused; the question with
    the record's kind (access) is what the passage answers."""
    ask_json(capsys, "I need access to the finance shared drive", "--thread", "T1")
    decision = ask_json(capsys, "how long does that usually take?", "--thread", "T1")

    [ticket] = all_tickets(capsys)
    result = decision["result"]
    assert decision["controller"] == "access" and result["ok"] and result["citations"], result
    assert "one business day" in result["summary"], result["summary"]
    assert comments(ticket) == ["how long does that usually take?"]


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    "question", ["how long is the parking garage open?", "what does the canteen serve today?"]
)
def test_a_question_the_records_kind_does_not_answer_stays_refused(
    capsys: pytest.CaptureFixture[str], question: str
) -> None:
    """The record's kind is one key term of two needed: it carries no question whose own
    words the passage does not hold."""
    ask_json(capsys, "I need access to the finance shared drive", "--thread", "T1")
    decision = ask_json(capsys, question, "--thread", "T1")

    result = decision["result"]
    assert not result["citations"] and "business day" not in result["summary"], result
