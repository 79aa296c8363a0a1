"""The TinyDB decision log's journal: acknowledged lines survive a crash, torn ones do not harm."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from core.records import Decision
from core.stores.tinydb import decisions
from core.stores.tinydb.decisions import TinyDecisionStore
from core.stores.tinydb.journal import Journal
from core.stores.tinydb.storage import AtomicJSONStorage


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


def test_a_bulk_append_is_one_fsynced_journal_write_and_every_decision_is_kept(
    tmp_path: Path, make_decision: Callable[..., Decision], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "decisions"
    store = TinyDecisionStore(root, shard_size=50)
    decisions = [make_decision(user=f"u{i % 3}", channel="C9") for i in range(120)]
    appends: list[int] = []
    real_append = Journal.append

    def counted(journal: Journal, lines: list[str], *, sync: bool = True) -> None:
        appends.append(len(lines))
        assert sync
        real_append(journal, lines, sync=sync)

    monkeypatch.setattr(Journal, "append", counted)
    store.append_many(decisions)
    assert appends == [120]  # acknowledged with one journal write, not one per decision
    store.close()

    reopened = TinyDecisionStore(root, shard_size=50)
    try:
        ids = [d.decision_id for d in decisions]
        assert [d.decision_id for d in reopened.get_many(ids)] == ids
        assert len(list((root / "shards").glob("*.json"))) == 3  # 50 + 50 + 20
        last = reopened.last_for("u2", "C9")
        assert last is not None and last.decision_id == decisions[-1].decision_id
        assert reopened.session_ids("C9:u0") == [d.decision_id for d in decisions[::3]][-50:]
    finally:
        reopened.close()


def test_feedback_after_a_checkpoint_parses_no_shard_or_index_bucket_again(
    tmp_path: Path, make_decision: Callable[..., Decision], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checkpoint keeps the shard and the index bucket it wrote in the cache: a correction
    read its decision's shard afresh (a megabyte for 200 decisions) after every background
    merge, twice, and the new decision's index bucket (390 ids at 100k). The merge itself
    reads the shard's bytes and, finding the ones it wrote, parses nothing either."""
    log = TinyDecisionStore(tmp_path / "decisions")
    try:
        decision = make_decision()
        log.append(decision)
        log.flush()  # written into its shard by the checkpoint
        parsed: list[str] = []
        real = AtomicJSONStorage.parse

        def counted(storage: AtomicJSONStorage, raw: str) -> object:
            parsed.append(storage.path.parent.name)
            return real(storage, raw)

        monkeypatch.setattr(AtomicJSONStorage, "parse", counted)
        entry = {"kind": "confirm", "controller": None, "user": "u2", "source": "t"}

        updated = log.add_feedback(decision.decision_id, entry)
        log.flush()  # the merge rewrites the shard (reading it from disk, under the lock)
        later = make_decision()
        log.append(later)
        log.flush()  # a new decision into the same shard
        merged = log.get_many([decision.decision_id, later.decision_id])

        assert "shards" not in parsed
        assert "index" not in parsed
        assert [item.user for item in updated.feedback] == ["u2"]
        assert [item.user for item in merged[0].feedback] == ["u2"]
        assert merged[1].text == later.text
    finally:
        log.close()


def test_a_shard_another_opener_wrote_meanwhile_is_read_again_and_nothing_is_lost(
    tmp_path: Path, make_decision: Callable[..., Decision]
) -> None:
    """A checkpoint takes the shard from memory only while the file holds the bytes this
    opener wrote: another process's checkpoint into the same shard is read, not overwritten."""
    root = tmp_path / "decisions"
    first, second = TinyDecisionStore(root), TinyDecisionStore(root)
    try:
        decisions = [make_decision(user=f"u{i}") for i in range(6)]
        for number, decision in enumerate(decisions):
            writer = (first, second)[number % 2]
            writer.append(decision)
            writer.flush()
        ids = [d.decision_id for d in decisions]
        for reader in (first, second):
            assert [d.decision_id for d in reader.get_many(ids)] == ids
        assert len(list((root / "shards").glob("*.json"))) == 1
    finally:
        first.close()
        second.close()
    reopened = TinyDecisionStore(root)
    try:
        assert [d.text for d in reopened.get_many(ids)] == [d.text for d in decisions]
    finally:
        reopened.close()


def test_the_background_checkpoint_waits_out_its_gather_while_writes_arrive(
    tmp_path: Path, make_decision: Callable[..., Decision], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every append woke the checkpoint thread out of its gather, so it rewrote the current
    shard after about every second decision instead of once per batch."""
    monkeypatch.setattr(decisions, "CHECKPOINT_DELAY_S", 3600.0)
    ran = threading.Event()
    real = TinyDecisionStore.checkpoint
    mine: list[TinyDecisionStore] = []

    def noted(store: TinyDecisionStore) -> None:
        if store in mine:  # not a store another test left open
            ran.set()
        real(store)

    monkeypatch.setattr(TinyDecisionStore, "checkpoint", noted)
    store = TinyDecisionStore(tmp_path / "decisions")  # its own checkpoint is not noted
    mine.append(store)
    try:
        batch = [make_decision() for _ in range(5)]
        for decision in batch:
            store.append(decision)  # each append wakes the gathering thread
        assert not ran.wait(timeout=1.0)  # still gathering: no checkpoint yet
        ids = [d.decision_id for d in batch]
        assert [d.decision_id for d in store.get_many(ids)] == ids  # read from the journal
    finally:
        store.close()
    assert ran.is_set()  # closing applies the batch
