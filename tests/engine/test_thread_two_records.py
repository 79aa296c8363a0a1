"""A thread that holds two records: a follow-up naming the older one's subject is about that
one, not the newest (`brain.conversation.judging`); and a record beside a waiting question
(`brain.conversation.waiting`). "any update on the printer?" after an
access request was filed beside a printer jam was answered with the access request's state,
and "打印机那个还要等多久？" filled the newer incident's asked category with "打印机"."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_calls import all_tickets, ask_json


def _ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_json(capsys, text, "--thread", "T1", "--user", "u1")


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("first", "second", "about_the_first"),
    [
        ("my printer is jammed", "different issue: I can't get into the system",
         "any update on the printer?"),
        ("打印机卡纸了", "另外一个问题：我进不去系统了", "打印机那个还要等多久？"),
    ],
)  # fmt: skip
def test_a_status_question_naming_the_older_record_is_answered_with_its_state(
    capsys: pytest.CaptureFixture[str], first: str, second: str, about_the_first: str
) -> None:
    _ask(capsys, first)
    _ask(capsys, second)
    before = {t["id"]: (t["status"], t.get("fields")) for t in all_tickets(capsys)}
    assert len(before) == 2
    status = _ask(capsys, about_the_first)
    assert status["request_type"] == "reference"
    summary = status["result"]["summary"]
    assert "INC-000001" in summary and "000002" not in summary
    after = {t["id"]: (t["status"], t.get("fields")) for t in all_tickets(capsys)}
    assert after == before  # nothing filed, no field filled on either record


@pytest.mark.usefixtures("home")
def test_a_status_question_while_the_bot_asks_which_controller_is_about_the_record(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A follow-up the bot could not place ("which is it: access or IT support?") leaves that
    question waiting; "还要等多久？" then is about the locked account on record, not more of the
    waiting message (joined to it, it was asked about again)."""
    _ask(capsys, "我的账号被锁了")
    _ask(capsys, "试了自助重置，提示手机号不对")
    status = _ask(capsys, "还要等多久？")
    assert status["outcome"] != "clarify" and status["request_type"] == "reference"
    assert "REQ-000001" in status["result"]["summary"]
    assert len(all_tickets(capsys)) == 1
