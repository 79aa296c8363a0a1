"""Routing lessons on TinyDB: acknowledged with one fsynced journal line, folded in later.

Through the generic `LessonRecords` a lesson cost four file rewrites (its bucket, then the
change feed's document, each a temporary file, an fsync and a folder fsync), and a correction
writes two lessons: feedback recording took 100-250 ms. Here a write appends one line per
lesson to `memory_journal.jsonl` (`Journal`: one fsync) numbered with the change feed's next
versions, so the journal *is* the newest part of the feed. A background checkpoint (any
process; one at a time) replays the lines in order into the buckets and the feed document
through `LessonRecords`, which numbers them the same way, then cuts them off.

Reads fold the journal over the buckets: the journal is read first, then the buckets and the
feed, so a checkpoint running meanwhile is never half seen (it writes the buckets and the feed
before it cuts). A line replayed twice (a crash between the feed's update and the cut) is
skipped by its version. A removal checkpoints at once, so a forgotten lesson's text leaves
the journal before `remove` returns.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from core.stores.kinds import LESSON_FEED_KEEP, LessonRecords
from core.stores.protocols import Document
from core.stores.tinydb.journal import (
    CHECKPOINT_AT,
    BackgroundFold,
    Journal,
    Record,
    fold_lines,
    overlay,
    replay_in_runs,
)
from core.stores.tinydb.locks import store_lock
from core.stores.tinydb.storage import remove_stale_temporaries


class TinyLessonStore:
    """A `LessonStore` over `LessonRecords` (the buckets and feed) and a journal in front."""

    def __init__(self, base: LessonRecords, journal: Path) -> None:
        self.base = base
        self._journal = Journal(journal)
        self._checkpoint_lock = store_lock(journal.with_name(journal.name + ".checkpoint"))
        self._guard = threading.Lock()
        self._fold_key: tuple[int, int] | None = None
        self._fold: dict[str, Document | None] = {}
        self._last = 0
        self._background = BackgroundFold(
            self.checkpoint, name="lesson-journal", what="the lesson journal"
        )
        with self._journal.lock.held():  # a cut interrupted by a crash left its temporary file
            remove_stale_temporaries(journal.parent, journal.name)
        if self._journal.records():
            self._background.start()  # what a crashed process acknowledged

    # -- the journal -------------------------------------------------------------------------
    def _folded(self) -> tuple[dict[str, Document | None], int]:
        """The journal's lessons (None: removed), latest line per key, and its last version."""
        records = self._journal.records()
        with self._guard:
            key = (len(records), int(records[-1]["seq"]) if records else 0)
            if key != self._fold_key:
                fold: dict[str, Document | None] = fold_lines(records, _lesson_key)
                self._fold_key, self._fold, self._last = key, fold, key[1]
            return self._fold, self._last

    def _append(self, changes: list[tuple[str, Any]]) -> None:
        """Number the changes after the feed's current version and append them, durably."""
        with self._journal.lock.held():
            records = self._journal.records()
            # While lines wait in the journal the feed is not past the last one (a checkpoint
            # numbers what it replays as the lines are numbered, and cuts them after), so the
            # feed document (512 recent keys once the store has that many lessons: parsing it
            # made a lesson 1.15x as costly at 100k as at 100) is read only when it is empty.
            version = int(records[-1]["seq"]) if records else self.base.version()
            lines = [
                json.dumps({"seq": version + offset, op: value}, ensure_ascii=False)
                for offset, (op, value) in enumerate(changes, start=1)
            ]
            self._journal.append(lines)
            pending = len(records) + len(lines)
        if pending >= CHECKPOINT_AT:
            self._background.start()

    # -- writes ------------------------------------------------------------------------------
    def put_many(self, documents: Iterable[Mapping[str, Any]]) -> None:
        rows = [("put", dict(document)) for document in documents]
        if rows:
            self._append(rows)

    def remove(self, keys: Iterable[str]) -> None:
        wanted = [("remove", str(key)) for key in dict.fromkeys(keys)]
        if wanted:
            self._append(wanted)
            self.checkpoint()  # the removed lessons' text leaves the journal now

    # -- reads -------------------------------------------------------------------------------
    def get(self, key: str) -> Document | None:
        fold, _ = self._folded()
        if key in fold:
            found = fold[key]
            return None if found is None else dict(found)
        return self.base.get(key)

    def all(self) -> list[Document]:
        fold, _ = self._folded()
        return overlay(self.base.all(), fold, _lesson_key, dict)

    def count(self) -> int:
        return len(self.all())

    def version(self) -> int:
        _, last = self._folded()
        return max(last, self.base.version())

    def changed_since(self, version: int) -> tuple[int, list[str] | None]:
        records = self._journal.records()
        current, older = self.base.changed_since(version)
        last = int(records[-1]["seq"]) if records else 0
        current = max(current, last)
        if current == version:
            return current, []
        if current < version or current - version > LESSON_FEED_KEEP:
            return current, None
        keys = {_key_of(record) for record in records if int(record["seq"]) > version}
        if older is None:
            first = int(records[0]["seq"]) if records else current + 1
            if first > version + 1:
                return current, None  # neither the feed nor the journal reaches back
        else:
            keys.update(older)
        return current, sorted(keys)

    # -- checkpoints -------------------------------------------------------------------------
    def close(self) -> None:
        """Wait for a background fold this opener started (`BackgroundFold.wait`)."""
        self._background.wait()

    def checkpoint(self) -> None:
        """Replay the journal's lines the feed has not seen, in order, then cut them."""
        with self._checkpoint_lock.held():
            records, length = self._journal.snapshot()
            done = self.base.version()
            # Lines at or below `done` were replayed before a crash cut them.
            fresh = [record for record in records if int(record["seq"]) > done]
            replay_in_runs(fresh, self.base.put_many, self.base.remove)
            self._journal.cut(length)

    def flush(self) -> None:
        """Fold the journal in now (waits for a running checkpoint)."""
        self.checkpoint()


def _key_of(record: Record) -> str:
    return _lesson_key(record["put"]) if "put" in record else str(record["remove"])


def _lesson_key(document: Document) -> str:
    return str(document["memory_id"])
