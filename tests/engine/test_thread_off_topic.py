"""A question in a thread that is about nothing on record ("what's the weather like
tomorrow?" after a release is filed) is decided afresh: it is not answered with the record's
state, not taken for the value the bot asked for, and adds nothing to the record. A question
about how the record stands, in the same thread, still gets the record's state. Through
`brain ask --thread`, the CLI surface the contract names."""

from __future__ import annotations

import pytest

from tests.cli_calls import all_tickets, ask_json, comments

#: A change the bot files and asks about (which service?), so a question waits in the thread.
RELEASE = "we're releasing v2.3 tonight at 22:00, need a change ticket"


def _ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    return ask_json(capsys, text, "--thread", "T1")


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    "asked", ["what's the weather like tomorrow?", "who won the football last night?"]
)
def test_an_off_topic_question_leaves_the_record_alone(
    capsys: pytest.CaptureFixture[str], asked: str
) -> None:
    _ask(capsys, RELEASE)
    [filed] = all_tickets(capsys)

    reply = _ask(capsys, asked)

    assert reply["request_type"] != "update", reply["tier_path"]
    assert filed["id"] not in reply["result"]["summary"], reply["result"]
    [ticket] = all_tickets(capsys)
    assert ticket["fields"] == filed["fields"], ticket["fields"]
    assert comments(ticket) == []


@pytest.mark.usefixtures("home")
def test_a_status_question_in_the_same_thread_still_gets_the_records_state(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _ask(capsys, RELEASE)
    [filed] = all_tickets(capsys)

    reply = _ask(capsys, "is it going ahead tonight?")

    assert reply["request_type"] == "reference", reply["tier_path"]
    assert filed["id"] in reply["result"]["summary"], reply["result"]


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    "between", ["who won the football last night?", "how do I roll back a release?"]
)
def test_the_bots_question_still_waits_after_a_turn_that_touched_no_record(
    capsys: pytest.CaptureFixture[str], between: str
) -> None:
    _ask(capsys, RELEASE)
    _ask(capsys, between)

    reply = _ask(capsys, "it is the billing-api")

    assert reply["request_type"] == "update", reply["tier_path"]
    [ticket] = all_tickets(capsys)
    assert ticket["fields"]["service"] == "billing-api", ticket["fields"]
    assert ticket["status"] != "awaiting_info"
