"""Lessons learnt through one replica reach another's next decision (records on PostgreSQL).

Replica 2's memory was empty when it started: before it re-read the store's change counter
on every look-up, it said "no lessons" (its length was the count loaded at start) and never
looked again.
"""

from __future__ import annotations

from brain.memory.lessons import LessonRecall
from core.config import Settings
from core.stores import open_stores
from tests.records import make_decision


def test_a_lesson_stored_by_one_replica_is_found_by_another(postgres_settings: Settings) -> None:
    first, second = open_stores(postgres_settings), open_stores(postgres_settings)
    try:
        learner, other = LessonRecall(first.lessons), LessonRecall(second.lessons)
        assert len(other) == 0
        decision = make_decision(text="my VPN keeps dropping, error 691", user="u1")
        learner.add(
            controller="access",
            weight=0.15,
            kind="correction-right",
            decision=decision,
            vector=None,
            ids=[],
        )

        assert len(other) == 1
        found = other.similar("my VPN keeps dropping, error 691", vector=None, ids=[])
        assert [(entry.controller, entry.decision_id) for entry, _ in found] == [
            ("access", decision.decision_id)
        ]
    finally:
        first.close()
        second.close()
