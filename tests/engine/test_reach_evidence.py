"""Corrections are tests of the examples before them: while one person's corrected messages
each moved an alike message of theirs rightly, the next alike message follows them; once alike
corrections kept contradicting the examples before them (long help-desk e-mails, noisy
categories), an example that alike moves nothing and the model decides."""

from __future__ import annotations

from brain.engine import Brain
from core.records import Message

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
