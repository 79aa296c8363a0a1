"""Corrections are tests of the examples before them: while one person's corrected messages
each moved an alike message of theirs rightly, the next alike message follows them; once alike
corrections kept contradicting the examples before them (long help-desk e-mails, noisy
categories), an example that alike moves nothing and the model decides."""

from __future__ import annotations

import json
import time

import pytest

from brain.engine import Brain
from core.records import Message
from tests.cli_calls import brain_call

#: One person's alike messages, each corrected to a controller none of the others went to (so
#: in whatever order lessons of the same second are listed, each contradicts the ones before).
CONTRADICTING = [
    ("my laptop is very slow whenever I open excel in the morning", "change"),
    ("my laptop is very slow whenever I open outlook in the morning", "access"),
    ("my laptop is very slow whenever I open teams in the morning", "consultation"),
    ("my laptop is very slow whenever I open chrome in the morning", "alarm"),
    ("my laptop is very slow whenever I open word in the morning", "ticket"),
]
NEXT = "my laptop is very slow whenever I open zoom in the morning"


def _correct(brain: Brain, text: str, controller: str, channel: str) -> None:
    decision = brain.ask(Message(text, user="U1", channel=channel))
    if decision.controller != controller:
        brain.feedback(decision.decision_id, "correct", controller=controller, user="U1")


def test_alike_corrections_that_contradict_each_other_stop_moving_messages(brain: Brain) -> None:
    text, controller = CONTRADICTING[0]
    _correct(brain, text, controller, "C0")
    first = brain.ask(Message(NEXT, user="U1", channel="C-next-0"))
    assert first.controller == controller and first.preference, first.tier_path  # it reaches

    for index, (text, controller) in enumerate(CONTRADICTING[1:], start=1):
        _correct(brain, text, controller, f"C{index}")
    later = brain.ask(Message(NEXT, user="U1", channel="C-next-1"))

    assert not later.preference, later.preference


#: One person moved a slow-laptop message to `access`; a second later three people moved
#: theirs, worded alike, to `change`.
DISSENT = ("U5", "the laptop gets really slow every morning", "access")
MAJORITY = [
    ("U1", "my laptop is very slow whenever I open excel in the morning", "change"),
    ("U2", "my laptop is very slow whenever I open outlook in the morning", "change"),
    ("U3", "my laptop is very slow whenever I open teams in the morning", "change"),
]


def test_a_clear_majority_of_people_moves_others_despite_one_dissent(
    brain: Brain, capsys: pytest.CaptureFixture[str]
) -> None:
    for user, text, controller in [DISSENT, *MAJORITY]:
        decision = brain.ask(Message(text, user=user, channel=f"C-{user}"))
        if decision.controller != controller:
            brain.feedback(decision.decision_id, "correct", controller=controller, user=user)
        if user == DISSENT[0]:
            time.sleep(1.1)  # lessons are ordered by their second, then by id

    decision = brain.ask(Message(NEXT, user="U4", channel="C-U4"))

    assert decision.controller == "change", decision.tier_path
    assert "3 people moved messages like this to change" in decision.rationale
    conflicts = json.loads(brain_call(capsys, "memory", "conflicts", "--json"))
    assert {"access": ["U5"], "change": ["U1", "U2", "U3"]} in [c["targets"] for c in conflicts]
