"""The embedded default's journal of Slack events owed an answer: what a run left owed is
what the next open returns, settled events never come back, and compaction keeps only the
owed ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.stores.tinydb import owed
from core.stores.tinydb.owed import OwedJournal


def test_the_events_a_run_left_owed_are_what_the_next_open_returns(tmp_path: Path) -> None:
    path = tmp_path / "slack" / "owed.jsonl"
    first = OwedJournal(path)
    assert first.all() == []
    first.put_many([{"key": "event:E1", "payload": {"event_id": "E1"}}])
    first.put_many([{"key": "event:E2", "payload": {"event_id": "E2"}}])
    first.remove(["event:E1", "message:C1:1.0"])  # unknown keys are ignored

    second = OwedJournal(path)  # the next start (the first run died without closing)
    assert second.all() == [{"key": "event:E2", "payload": {"event_id": "E2"}}]
    second.remove(["event:E2"])
    assert OwedJournal(path).all() == []


def test_settled_lines_are_compacted_away(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(owed, "COMPACT_AFTER", 3)
    path = tmp_path / "owed.jsonl"
    journal = OwedJournal(path)
    for i in range(5):
        journal.put_many([{"key": f"event:E{i}", "payload": {"event_id": f"E{i}"}}])
    journal.remove(["event:E0", "event:E1", "event:E2"])  # the third settle compacts
    assert len(path.read_text(encoding="utf-8").splitlines()) == 2
    assert [row["key"] for row in OwedJournal(path).all()] == ["event:E3", "event:E4"]
