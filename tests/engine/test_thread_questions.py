"""A question about the thread's record that names no subject of its own ("what should I try
next?") is answered on the record's subject and kept on the record; a question with its own
subject in the same thread is its own question. Through `brain ask --thread`, the CLI surface
the contract names."""

from __future__ import annotations

import pytest

from tests.cli_calls import all_tickets, ask_json, comments


@pytest.mark.usefixtures("home")
def test_what_to_try_next_is_answered_on_the_records_subject_and_kept_on_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ask_json(capsys, "VPN drops every 10 minutes when I'm at home", "--thread", "T1")
    ask_json(capsys, "I'm on the latest GlobalProtect client", "--thread", "T1")
    [filed] = all_tickets(capsys)

    decision = ask_json(capsys, "what should I try next?", "--thread", "T1")

    assert decision["controller"] == "incident" and decision["request_type"] == "reference"
    result = decision["result"]
    assert result["ok"] and result["citations"], result
    assert "GlobalProtect" in result["summary"] and filed["id"] in result["summary"]
    [ticket] = all_tickets(capsys)
    assert comments(ticket)[-1] == "what should I try next?"


@pytest.mark.usefixtures("home")
def test_a_chinese_question_about_the_record_stays_on_it_in_chinese(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ask_json(capsys, "我的电脑开不了机", "--thread", "T1")
    decision = ask_json(capsys, "有什么临时办法吗", "--thread", "T1")

    [ticket] = all_tickets(capsys)
    assert decision["request_type"] == "reference" and decision["language"] == "zh"
    assert ticket["id"] in decision["result"]["summary"]
    assert comments(ticket) == ["有什么临时办法吗"]


@pytest.mark.usefixtures("home")
def test_a_question_with_its_own_subject_is_not_put_on_the_record(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ask_json(capsys, "outlook keeps asking for my password every few minutes", "--thread", "T1")
    decision = ask_json(capsys, "how do I book a meeting room?", "--thread", "T1")

    [ticket] = all_tickets(capsys)
    assert decision["request_type"] == "question" and decision["controller"] != "incident"
    assert comments(ticket) == []


@pytest.mark.usefixtures("home")
def test_a_question_about_a_change_is_answered_from_the_change_pages_not_the_access_policy(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The record's controller's pages are read first: "who needs to approve it?" about a
    release was answered with the access policy's approvers (line manager, mailbox owner)."""
    ask_json(
        capsys,
        "we need to deploy payments-api v2.3.1 to production this saturday 22:00-23:00",
        "--thread",
        "T1",
    )
    decision = ask_json(capsys, "who needs to approve it?", "--thread", "T1")

    assert decision["controller"] == "change" and decision["request_type"] == "reference"
    result = decision["result"]
    assert result["ok"] and result["citations"], result
    assert not any("access-request-approval" in c for c in result["citations"]), result
    assert "line manager" not in result["summary"], result["summary"]


@pytest.mark.usefixtures("home")
def test_who_approves_a_request_is_answered_from_the_policy_not_with_its_status(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ask_json(capsys, "I need access to the finance SharePoint site", "--thread", "T1")
    decision = ask_json(capsys, "who needs to approve that?", "--thread", "T1")

    [ticket] = all_tickets(capsys)
    assert decision["controller"] == "access" and decision["request_type"] == "reference"
    result = decision["result"]
    assert result["ok"] and result["citations"], result
    assert "line manager" in result["summary"], result["summary"]
    assert comments(ticket) == ["who needs to approve that?"]


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("report", "question"),
    [
        (
            "my account got locked after the password change",
            "I've unlocked it through the portal already, anything else I need to do?",
        ),
        ("我的邮箱收不到外部邮件", "垃圾邮件文件夹也看过了，还要我做什么吗"),
        (
            "vpn keeps dropping since this morning",
            "I updated the client last night, could that be why?",
        ),
    ],
)
def test_what_was_done_then_what_next_stays_on_the_record(
    capsys: pytest.CaptureFixture[str], report: str, question: str
) -> None:
    """What the user did (or suspects), then a question about what comes next: the question
    names nothing of its own, the first half is the record's story."""
    ask_json(capsys, report, "--thread", "T1")
    decision = ask_json(capsys, question, "--thread", "T1")

    [ticket] = all_tickets(capsys)
    assert decision["request_type"] in ("reference", "update"), decision["rationale"]
    assert comments(ticket) == [question]
