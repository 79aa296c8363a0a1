"""The TinyDB decision log's journal: acknowledged lines survive a crash, torn ones do not harm."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from core.records import Decision
from core.stores.tinydb.decisions import TinyDecisionStore


def test_lines_left_by_a_crash_are_applied_and_a_torn_line_is_cut(
    tmp_path: Path, make_decision: Callable[..., Decision]
) -> None:
    root = tmp_path / "decisions"
    crashed = TinyDecisionStore(root)
    kept = make_decision()
    crashed.append(kept)
    crashed.add_feedback(kept.decision_id, {"kind": "confirm", "user": "u1", "source": "t"})
    # As if killed mid-append: the acknowledged lines stay, an unacknowledged one is torn.
    with open(root / "journal.jsonl", "a", encoding="utf-8") as journal:
        journal.write('{"op": "put", "new": true, "doc": {"decision_id": "d-torn", "te')

    reopened = TinyDecisionStore(root)  # applies what the crashed process left
    later = make_decision()
    reopened.append(later)
    reopened.close()

    stored = TinyDecisionStore(root)
    try:
        first, second = stored.get_many([kept.decision_id, later.decision_id])
        assert [item.to_dict() for item in first.feedback] == [
            {
                "kind": "confirm",
                "controller": None,
                "user": "u1",
                "source": "t",
                "at": "",
                "persisted": [],
            }
        ]
        assert second.text == later.text
        assert stored.session_ids("C1:u1") == [kept.decision_id, later.decision_id]
        assert (root / "journal.jsonl").read_text(encoding="utf-8") == ""
        assert list((root / "shards").glob("*.json"))
    finally:
        stored.close()


def test_other_processes_see_acknowledged_writes_before_the_checkpoint(
    tmp_path: Path, make_decision: Callable[..., Decision]
) -> None:
    root = tmp_path / "decisions"
    writer = TinyDecisionStore(root)
    reader = TinyDecisionStore(root)  # another opener of the same folder
    decision = make_decision(user="u7", channel="C7")
    writer.append(decision)

    assert reader.get_many([decision.decision_id])[0].text == decision.text
    last = reader.last_for("u7", "C7")
    assert last is not None and last.decision_id == decision.decision_id
    assert reader.session_ids("C7:u7") == [decision.decision_id]
    writer.close()
    reader.close()
