"""A question about when the thread's record will be done ("how long will it take to fix?")
asks how the record stands: it is answered with the record's state (and, with a team, when
the team aims to answer), not with a knowledge-base passage on the record's subject, and adds
nothing to the record. A question about how long something of the subject lasts stays a
question about the record. Through `brain ask --thread`, the CLI surface the contract names."""

from __future__ import annotations

import pytest

from tests.cli_calls import all_tickets, ask_json, comments


def _ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    return ask_json(capsys, text, "--thread", "T1")


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("report", "asked"),
    [
        ("my laptop keeps losing the VPN, error 809", "how long will it take to fix?"),
        (
            "outlook crashes every time I open a calendar invite",
            "any idea how long a fix for this normally takes?",
        ),
        ("显示器一直闪屏", "这个大概要修几天？"),
    ],
)
def test_a_time_question_is_answered_with_the_records_state(
    capsys: pytest.CaptureFixture[str], report: str, asked: str
) -> None:
    _ask(capsys, report)
    [filed] = all_tickets(capsys)

    reply = _ask(capsys, asked)

    result = reply["result"]
    assert reply["request_type"] == "reference" and filed["id"] in result["summary"], result
    assert not result["citations"], result
    [ticket] = all_tickets(capsys)
    assert comments(ticket) == []
