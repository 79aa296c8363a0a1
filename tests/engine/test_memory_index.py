"""The Qdrant lesson index (`brain.memory.index`) is derived from the lesson records: forget
removes a user's points, a lost index is rebuilt, and a second process that cannot hold the
embedded shard still records lessons (the holder takes them in from the change feed)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from brain.engine import Brain
from brain.memory.index import MEMORY_COLLECTION, LessonIndex
from core.config import load_settings
from core.records import Message
from knowledge.vectors import open_vector_store
from tests.cli_calls import brain_call
from tests.cli_process import brain_process

TEXT = "the money for order 88231 has still not arrived"


def _points_of(user: str) -> list[str]:
    index = LessonIndex.open(
        lambda: open_vector_store(load_settings(), dense_dim=384, collection=MEMORY_COLLECTION),
        strict=True,
    )
    assert index is not None
    try:
        return index.points_of(user)
    finally:
        index.close()


def test_forget_removes_the_users_points_and_a_lost_index_is_rebuilt(home: Path) -> None:
    with Brain.open() as brain:
        decision = brain.decide(Message(TEXT, user="U1", channel="C1"))
        brain.feedback(decision.decision_id, "correct", controller="consultation", user="U1")
        brain.decide(Message("order 99127: funds still not received", user="U1", channel="C2"))
        assert brain.memory.open_index()
    assert _points_of("U1")

    shutil.rmtree(home / "vectors" / MEMORY_COLLECTION)  # the index is lost, not the lessons
    with Brain.open() as brain:
        again = brain.decide(Message("payment for order 40211 not arrived yet", "U1", "C3"))
        assert again.controller == "consultation", again.tier_path
        assert "you moved a message like this" in again.rationale
        assert brain.memory.reindex() == len(brain.memory.entries())
    assert _points_of("U1")

    with Brain.open() as brain:
        brain.forget_user("U1")
    assert _points_of("U1") == []


def test_a_second_process_records_lessons_while_the_first_holds_the_index(home: Path) -> None:
    with Brain.open() as holder, Brain.open() as other:
        first = holder.decide(Message(TEXT, user="U1", channel="C1"))
        assert holder.memory.open_index()
        assert not other.memory.open_index()  # the shard is held: records only, no error
        other.feedback(first.decision_id, "correct", controller="consultation", user="U1")
        later = holder.decide(Message("order 99127: funds still not received", "U1", "C2"))
        assert later.controller == "consultation", later.tier_path
        assert holder.memory._index is not None
        assert holder.memory._index.points_of("U1")


def test_from_the_cli_a_deleted_index_is_rebuilt_at_next_use_and_by_reindex(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each step a command of its own (in-process: each opens and closes its Brain), the index
    deleted while no command holds it."""
    asked = json.loads(brain_call(capsys, "ask", TEXT, "--user", "U1", "--json"))
    brain_call(
        capsys, "feedback", asked["decision_id"], "--correct", "consultation", "--user", "U1"
    )
    taught = json.loads(brain_call(capsys, "memory", "show", "--json"))
    brain_call(capsys, "ask", "order 99127: funds still not received", "--user", "U1")
    assert (home / "vectors" / MEMORY_COLLECTION).is_dir()

    shutil.rmtree(home / "vectors" / MEMORY_COLLECTION)  # lost, in between two commands
    later = json.loads(
        brain_call(
            capsys, "ask", "payment for order 40211 not arrived yet", "--user", "U1", "--json"
        )
    )

    assert later["controller"] == "consultation", later["rationale"]
    assert "you moved a message like this" in later["rationale"]
    assert (home / "vectors" / MEMORY_COLLECTION).is_dir()  # rebuilt by that command
    assert _points_of("U1")
    kept = json.loads(brain_call(capsys, "memory", "show", "--json"))
    assert {lesson["memory_id"] for lesson in taught} <= {lesson["memory_id"] for lesson in kept}
    rebuilt = brain_call(capsys, "memory", "reindex")
    assert rebuilt.strip() == f"lesson index rebuilt: {len(kept)} lessons"


def test_reindex_while_another_process_holds_the_index_says_so(home: Path) -> None:
    with Brain.open() as holder:
        holder.decide(Message(TEXT, user="U1", channel="C1"))
        assert holder.memory.open_index()
        refused = brain_process("memory", "reindex", code=3)
    assert "Traceback" not in refused.stderr
    assert "is in use" in refused.stderr
