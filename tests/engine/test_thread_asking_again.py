"""A reply that gives none of what the bot asked for a record is not answered with the same
question again: the bot asks in other words once (saying what happens if the asker does not
know), and the record goes ahead without the value when the asker says they do not know or
has been asked twice. Through `brain ask --thread`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_calls import all_tickets, ask_json

#: The sentence that first asks for a missing field, in each language.
FIRST_ASK = ("To proceed I still need", "还需要你提供")


def _ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_json(capsys, text, "--thread", "T1", "--user", "u1")


def _summary(decision: dict[str, Any]) -> str:
    return str(decision["result"]["summary"])


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("request_text", "reason", "answer", "system", "asked_again"),
    [
        ("I need access", "I need it for the audit next week", "Tableau", "Tableau",
         "still has no system"),
        ("我需要开通权限", "领导已经批了", "要 Jenkins 的", "Jenkins", "还缺少系统"),
    ],
)  # fmt: skip
def test_an_unanswered_question_is_asked_in_other_words_and_still_answerable(
    capsys: pytest.CaptureFixture[str],
    request_text: str,
    reason: str,
    answer: str,
    system: str,
    asked_again: str,
) -> None:
    """Before, the reply was followed by the filing's own "To proceed I still need: system."
    word for word."""
    first = _ask(capsys, request_text)
    assert any(ask in _summary(first) for ask in FIRST_ASK), _summary(first)

    second = _ask(capsys, reason)

    said = _summary(second)
    assert asked_again in said and not any(ask in said for ask in FIRST_ASK), said
    assert second["result"]["missing"] == ["system"]  # still asked: an answer fills it
    _ask(capsys, answer)
    [ticket] = all_tickets(capsys)
    assert ticket["fields"]["system"] == system


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("request_text", "replies", "ahead"),
    [
        ("I need access", ["not sure"], "goes ahead without the system"),
        ("I need access", ["no idea, sorry"], "goes ahead without the system"),
        ("我需要开通权限", ["真的不清楚"], "先按现有信息处理"),
        # read as a closing before ("好的。REQ-000001 仍在处理中"), and "dunno" as no answer
        ("我需要开通权限", ["不知道"], "先按现有信息处理"),
        ("I need access", ["dunno"], "goes ahead without the system"),
        # asked twice without an answer: the bot stops asking
        ("I need access", ["I need it for the audit next week", "my manager approved it"],
         "goes ahead without the system"),
    ],
)  # fmt: skip
def test_a_request_goes_ahead_without_a_value_the_asker_does_not_know(
    capsys: pytest.CaptureFixture[str], request_text: str, replies: list[str], ahead: str
) -> None:
    """Before, "not sure" was asked the same question again, and "no idea, sorry" and "真的不
    清楚" were filed as the system."""
    _ask(capsys, request_text)
    for reply in replies:
        last = _ask(capsys, reply)

    said = _summary(last)
    assert ahead in said and not any(ask in said for ask in FIRST_ASK), said
    assert last["result"]["missing"] == []  # nothing is waiting for an answer any more
    [ticket] = all_tickets(capsys)
    assert not ticket["fields"].get("system") and ticket["status"] == "open", ticket
