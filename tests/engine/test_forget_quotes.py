"""`brain memory forget --user U` where others' decisions quote U's words: a status answer in
U's thread names U's ticket by its title, and decisions an organisation lesson moved quote the
corrected messages it was made of. Afterwards no file of the home holds U's words; the others'
own words stay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brain.conversation.turns import Conversation
from brain.engine import Brain
from core.records import Message
from tests.cli_calls import brain_call
from tests.engine.test_forget import _files_holding

OPENED = "my laptop screen flickers since the windows update this morning"
#: Another person in the same thread asks how it stands: the answer quotes the ticket's title.
FOLLOW_UP = "any update on this?"


def test_forget_removes_the_ticket_title_quoted_in_anothers_status_answer(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Brain.open() as brain:
        conversation = Conversation(brain, brain.conversations)  # as the Slack app keeps them
        conversation.handle(Message(OPENED, user="U1", channel="C1", thread="T1"))
        status = conversation.handle(Message(FOLLOW_UP, user="U5", channel="C1", thread="T1"))
    assert OPENED in str(status)  # precondition: U5's answer quotes U1's ticket
    assert any("decisions" in path for path in _files_holding(home, [OPENED]))

    report = json.loads(brain_call(capsys, "memory", "forget", "--user", "U1", "--json"))

    assert report["tickets"] == 1
    assert _files_holding(home, [OPENED]) == []
    assert any("decisions" in path for path in _files_holding(home, [FOLLOW_UP]))  # U5's stay


TAUGHT = [
    ("U1", "how do I install Docker on my laptop"),
    ("U2", "setting up docker desktop on my macbook"),
    ("U3", "docker installation keeps failing on my workstation"),
]
FOURTH = "can you help me get docker running locally"
OWN_AGAIN = "docker install on my laptop fails"


@pytest.mark.slow
def test_forget_removes_the_users_words_from_decisions_their_lesson_moved(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for user, text in TAUGHT:
        decision = json.loads(brain_call(capsys, "ask", "--json", text, "--user", user))
        brain_call(
            capsys,
            "feedback",
            decision["decision_id"],
            "--correct",
            "coding",
            "--user",
            user,
        )
    fourth = json.loads(brain_call(capsys, "ask", "--json", FOURTH, "--user", "U4"))
    own = json.loads(brain_call(capsys, "ask", "--json", OWN_AGAIN, "--user", "U1"))
    assert fourth["controller"] == own["controller"] == "coding"  # the lessons moved them
    mine = [TAUGHT[0][1], OWN_AGAIN]
    assert _files_holding(home, mine)

    brain_call(capsys, "memory", "forget", "--user", "U1", "--json")

    assert _files_holding(home, mine) == []
    assert _files_holding(home, [FOURTH, TAUGHT[1][1]])  # others' words stay
