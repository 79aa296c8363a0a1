"""Closing a Brain waits for the stores' background write-back: when `close` returns nothing of
the brain still writes in its home, so the home can be copied, backed up or opened again at once.
A journal that holds lines when a store opens is folded into its buckets in the background (what
an earlier process acknowledged); a close that did not wait for it left the fold writing and
removing temporary files in the home, and a copy made meanwhile lost one."""

from __future__ import annotations

from pathlib import Path

from brain.engine import Brain
from core.config import Settings, StorageConfig
from core.files import copy_tree
from core.stores import open_stores
from core.stores.lesson import Lesson

LESSONS = 200
CASES = 60


def _settings(home: Path) -> Settings:
    return Settings(home=home, storage=StorageConfig(backend="tinydb"))


def _lesson(n: int) -> Lesson:
    return Lesson(
        memory_id=f"m{n}",
        controller="vpn",
        weight=0.1,
        kind="confirmation",
        text=f"my vpn drops every {n} minutes",
        decision_id=f"d{n}",
        user="U1",
        created_at="2026-12-05T13:00:00+00:00",
    )


def _journal_lines(path: Path) -> int:
    return len(path.read_bytes().splitlines()) if path.exists() else 0


def test_a_closed_brain_has_folded_the_journals_it_opened_with(tmp_path: Path) -> None:
    home = tmp_path / "home"
    earlier = open_stores(_settings(home))  # what an earlier process left in the journals
    earlier.lessons.put_many(_lesson(n) for n in range(LESSONS))
    for n in range(CASES):
        earlier.cases.insert({"case_id": f"c{n}", "text": f"case {n}"})
    earlier.close()
    assert _journal_lines(home / "memory_journal.jsonl") == LESSONS
    assert _journal_lines(home / "dynamic_cases.journal.jsonl") == CASES

    brain = Brain(_settings(home))  # opening the lessons and the cases folds them in
    brain.close()

    assert _journal_lines(home / "memory_journal.jsonl") == 0
    assert _journal_lines(home / "dynamic_cases.journal.jsonl") == 0
    copy = tmp_path / "copy"
    copy_tree(home, copy)  # nothing vanishes or changes under the copy
    copied = open_stores(_settings(copy))
    try:
        assert copied.lessons.count() == LESSONS
        assert copied.cases.count() == CASES
    finally:
        copied.close()
