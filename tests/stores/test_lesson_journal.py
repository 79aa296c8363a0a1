"""TinyDB's lesson journal (`core.stores.tinydb.lessons`): a lesson write is one fsynced
journal line, every other opener sees it at once, a checkpoint folds it into the buckets
without renumbering the change feed, and a removal takes the lesson's text out of every file."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from core.config import Settings, StorageConfig
from core.stores import open_stores
from core.stores.tinydb.lessons import TinyLessonStore
from core.stores.tinydb.storage import AtomicJSONStorage


def _settings(home: Path) -> Settings:
    return Settings(home=home, storage=StorageConfig(backend="tinydb"))


def _lesson(key: str, text: str = "", weight: float = 0.1) -> dict[str, object]:
    return {"memory_id": key, "weight": weight, "text": text or f"text of {key}"}


def _files_holding(home: Path, word: str) -> list[str]:
    return sorted(
        str(p.relative_to(home))
        for p in home.rglob("*")
        if p.is_file() and word.encode() in p.read_bytes()
    )


def test_a_lesson_write_is_one_fsync(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lessons = open_stores(_settings(tmp_path / "home")).lessons.documents
    lessons.put_many([_lesson("m0")])  # first write creates the journal (and fsyncs its folder)
    calls: list[int] = []
    real = os.fsync
    writer = threading.get_ident()

    def counted(fd: int) -> None:
        if threading.get_ident() == writer:  # not the other stores' background writers
            calls.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", counted)

    lessons.put_many([_lesson("m1"), _lesson("m2", weight=-0.15)])  # a correction's two

    assert len(calls) == 1  # was 8 through the buckets and the feed document
    assert lessons.get("m2") == _lesson("m2", weight=-0.15)


def test_other_openers_see_journal_lines_and_the_checkpoint_keeps_the_numbering(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    writer = open_stores(_settings(home)).lessons.documents
    reader = open_stores(_settings(home)).lessons.documents
    writer.put_many([_lesson(f"m{i}") for i in range(3)])
    seen = reader.version()
    writer.put_many([_lesson("m3")])
    writer.remove(["m0"])  # a removal checkpoints at once

    assert isinstance(writer, TinyLessonStore)
    assert (home / "memory_journal.jsonl").read_bytes() == b""
    assert reader.version() == writer.version() == 5
    assert reader.changed_since(seen) == (5, ["m0", "m3"])
    writer.put_many([_lesson("m4")])  # in the journal again, after the folded lines
    assert reader.changed_since(seen) == (6, ["m0", "m3", "m4"])
    assert sorted(str(row["memory_id"]) for row in reader.all()) == ["m1", "m2", "m3", "m4"]
    assert reader.get("m0") is None and reader.count() == 4

    again = open_stores(_settings(home)).lessons.documents  # a later process folds what is left
    assert isinstance(again, TinyLessonStore)
    again.flush()
    assert (home / "memory_journal.jsonl").read_bytes() == b""
    assert again.version() == 6 and again.changed_since(5) == (6, ["m4"])


def test_a_lesson_written_while_lines_wait_reads_no_feed_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The feed document grows to 512 keys with the store; the journal numbers a write."""
    home = tmp_path / "home"
    lessons = open_stores(_settings(home)).lessons.documents
    lessons.put_many([_lesson("m1")])
    read: list[str] = []
    real = AtomicJSONStorage.read_raw

    writer = threading.get_ident()

    def counted(storage: AtomicJSONStorage) -> str | None:
        if threading.get_ident() == writer:  # other stores' background threads read too
            read.append(storage.path.name)
        return real(storage)

    monkeypatch.setattr(AtomicJSONStorage, "read_raw", counted)  # every read goes through it

    lessons.put_many([_lesson("m2"), _lesson("m3")])

    assert read == []
    assert lessons.version() == 3 and lessons.changed_since(1) == (3, ["m2", "m3"])
    lessons.flush()
    assert lessons.version() == 3 and lessons.changed_since(1) == (3, ["m2", "m3"])


def test_lines_folded_before_a_crash_cut_them_are_not_applied_twice(tmp_path: Path) -> None:
    home = tmp_path / "home"
    lessons = open_stores(_settings(home)).lessons.documents
    assert isinstance(lessons, TinyLessonStore)
    lessons.put_many([_lesson("m1"), _lesson("m2")])
    journal = (home / "memory_journal.jsonl").read_bytes()
    lessons.flush()
    (home / "memory_journal.jsonl").write_bytes(journal)  # as if the cut never happened

    again = open_stores(_settings(home)).lessons.documents
    again.put_many([_lesson("m3")])
    assert again.version() == 3
    assert again.changed_since(2) == (3, ["m3"])
    assert sorted(str(row["memory_id"]) for row in again.all()) == ["m1", "m2", "m3"]


def test_removing_a_lesson_leaves_its_text_in_no_file(tmp_path: Path) -> None:
    home = tmp_path / "home"
    lessons = open_stores(_settings(home)).lessons.documents
    lessons.put_many([_lesson("m1", "quarterly ledger vanished"), _lesson("m2", "vpn down")])
    assert _files_holding(home, "quarterly ledger vanished")

    lessons.remove(["m1"])

    assert _files_holding(home, "quarterly ledger vanished") == []
    assert [row["memory_id"] for row in lessons.all()] == ["m2"]


def test_a_cut_interrupted_by_a_crash_leaves_no_copy_of_the_journal(tmp_path: Path) -> None:
    home = tmp_path / "home"
    open_stores(_settings(home)).lessons.documents.put_many(
        [_lesson("m1", "quarterly ledger vanished")]
    )
    left = home / ".memory_journal.jsonl.abc123"  # what a kill -9 during a cut leaves
    left.write_bytes((home / "memory_journal.jsonl").read_bytes())

    open_stores(_settings(home)).lessons.documents.remove(["m1"])

    assert not left.exists()
    assert _files_holding(home, "quarterly ledger vanished") == []
