"""A demonstrative that names a span of time ("this week", "that morning", "这个月") does not
point back at the thread's record. "please schedule a standard change for this week" in a
thread about a Teams incident was read as a short follow-up ("this") and added to the incident
as a comment, although nothing in it is about the incident and the chain alone routes it to
the change controller."""

from __future__ import annotations

import pytest

from brain.chain.understand import REFERRING
from brain.engine import Brain
from tests.chat_threads import chat_thread


def test_a_change_for_this_week_in_an_incident_thread_is_filed_as_a_change(brain: Brain) -> None:
    replies = chat_thread(
        brain,
        "Teams keeps crashing when I join a meeting",
        "please schedule a standard change for this week",
    )
    store = brain.services.tickets
    assert store is not None
    incident = store.all()[0]
    said = replies[1]
    assert said.decision is not None and said.decision.request_type != "update"
    assert said.decision.controller == "change"
    assert not incident.comments


@pytest.mark.parametrize(
    ("text", "refers"),
    [
        ("it crashed again this morning", True),
        ("this is still broken", True),
        ("same as that one", True),
        ("这个还是不行", True),
        ("can we do it this week", True),
        ("deploy this week please", False),
        ("that morning the printer was fine", False),
        ("这个月底要扩容磁盘", False),
    ],
)
def test_a_span_of_time_is_no_reference(text: str, refers: bool) -> None:
    assert bool(REFERRING.search(text)) is refers
