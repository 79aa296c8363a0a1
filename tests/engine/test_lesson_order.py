"""Lessons come back in the order they were made, also when they were made in the same instant.

A brain opened afresh (the next command, another process, a replica) replays the stored
corrections oldest first: each tests the ones before it to calibrate the online layer, and a
user's latest vote is the one that counts. Lessons made within one second came back in the
order of their ids (hashes of random decision ids), so two runs of the same history could
calibrate different layers.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from brain.engine import Brain
from brain.learning.control import show
from brain.memory import lessons
from brain.memory.entry import MOVED_TO
from core.records import Message

TEXTS = [
    f"the payroll export for the {place} office shows last year's figures"
    for place in ("Berlin", "Dublin", "Lisbon", "Madrid", "Oslo", "Prague", "Vienna")
]


def test_corrections_made_in_one_instant_come_back_in_the_order_they_were_made(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    instant = datetime(2026, 12, 6, 10, 0, 0, tzinfo=UTC)
    monkeypatch.setattr(lessons, "_now", lambda: instant)  # a clock that does not move
    with Brain.open() as brain:
        for text in TEXTS:
            decision = brain.decide(Message(text, user="U1", channel="C1"))
            target = "alarm" if decision.controller != "alarm" else "consultation"
            brain.feedback(decision.decision_id, "correct", controller=target, user="U1")

    with Brain.open() as fresh:
        listed = [lesson for lesson in show(fresh) if lesson["kind"] == MOVED_TO]

    assert [lesson["text"] for lesson in listed] == TEXTS
    stamps = [lesson["created_at"] for lesson in listed]
    assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps), stamps
