"""A sharded collection acknowledged by one fsynced journal line, folded into its buckets later.

A write into a hash bucket rewrites the bucket: about 25 tickets at 100k against 0-1 at 100, so
a ticket write cost 1.6-2.0x as much there. Here a write appends one line to
`<collection>.journal.jsonl` (`Journal`: one fsync, no folder fsync), whatever the store's size.
A background checkpoint (any process; one at a time) replays the lines in order into the
buckets of the `TinyCollection` behind it, then cuts them off, so the journal stays short
(`CHECKPOINT_AT` lines) and a bucket is rewritten once per batch instead of once per write.

Inserts and modifications read the record and append under the journal's inter-process lock,
so they stay atomic across threads and processes: while the lock is held the journal holds
every line not yet cut, and a checkpoint only writes records those lines already decide. Reads
fold the journal over the buckets, the journal first (a checkpoint running meanwhile applies
before it cuts, and applying a line twice changes nothing). A line cut short by a crash was never
acknowledged (its fsync had not returned) and is dropped.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from core.stores.protocols import Document, KeyOf
from core.stores.tinydb.collection import TinyCollection, copy_document
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


class JournaledCollection:
    """A `Collection` over a sharded `TinyCollection` (`base`) with a journal in front."""

    def __init__(self, base: TinyCollection, journal: Path, *, key: KeyOf) -> None:
        self.base = base
        self.path = base.path
        self._key = key
        self._journal = Journal(journal)
        self._checkpoint_lock = store_lock(journal.with_name(journal.name + ".checkpoint"))
        self._guard = threading.Lock()
        self._fold_of: tuple[int, int] | None = None
        self._fold: Mapping[str, Document | None] = {}
        self._fold_last: Record | None = None  # keeps the id in `_fold_of` from being reused
        #: (the base's view, the fold, their overlay): `view` until either changes.
        self._merged: tuple[Mapping[str, Document], Mapping[str, Document | None], list[Document]]
        self._merged = ({}, {}, [])
        self._background = BackgroundFold(
            self._checkpoint, name="collection-journal", what=f"the journal of {self.path}"
        )
        with self._journal.lock.held():  # a cut interrupted by a crash left its temporary file
            remove_stale_temporaries(journal.parent, journal.name)
        if self._journal.records():
            self._background.start()  # what a crashed (or exited) process acknowledged

    # -- the journal -------------------------------------------------------------------------
    def _folded(self) -> Mapping[str, Document | None]:
        """The journal's documents (None: removed), the latest line per key; built again only
        when the journal changed (it holds up to `CHECKPOINT_AT` lines, read on every call)."""
        records = self._journal.records()
        last = records[-1] if records else None
        with self._guard:
            # The same count of lines ending in the very same parsed line (held here, so its
            # id is not reused): `Journal.records` parses a line once, so nothing changed.
            if self._fold_of == (len(records), id(last)):
                return self._fold
        fold: Mapping[str, Document | None] = fold_lines(records, self._key)
        with self._guard:
            self._fold_of, self._fold, self._fold_last = (len(records), id(last)), fold, last
        return fold

    def _current(self, key: str, fold: Mapping[str, Document | None]) -> Document | None:
        if key in fold:
            found = fold[key]
            return None if found is None else copy_document(found)
        return self.base.get(key)

    def _append(self, records: list[Record]) -> None:
        """Append records durably; call with the journal's lock held."""
        # A nonce first: no two lines start alike, so a reader's cache never takes a journal
        # emptied in place and written again for the one it parsed (`Journal.records`).
        lines = [
            json.dumps({"n": os.urandom(6).hex(), **record}, ensure_ascii=False)
            for record in records
        ]
        self._journal.append(lines)

    def _after_append(self) -> None:
        if len(self._journal.records()) >= CHECKPOINT_AT:
            self._background.start()

    # -- reads -------------------------------------------------------------------------------
    def get(self, key: str) -> Document | None:
        return self._current(key, self._folded())

    def all(self) -> list[Document]:
        fold = self._folded()  # first: a checkpoint may apply and cut meanwhile
        return overlay(self.base.all(), fold, self._key, copy_document)

    def count(self) -> int:
        return len(self.all())

    def view(self) -> list[Document]:
        """Every document, read-only and shared with later calls (never change one): the
        buckets' view (`TinyCollection.view_by_key`, parsed again only after a checkpoint by
        any process) with the journal's fold over it. What a dynamic decision reads the whole
        case book with, instead of parsing and copying every case each time."""
        fold = self._folded()  # first: a checkpoint may apply and cut meanwhile
        base = self.base.view_by_key()
        with self._guard:
            last_base, last_fold, merged = self._merged
            if last_base is base and last_fold is fold:
                return merged
        documents = dict(base)
        for name, document in fold.items():
            if document is None:
                documents.pop(name, None)
            else:
                documents[name] = document
        merged = list(documents.values())
        with self._guard:
            self._merged = (base, fold, merged)
        return merged

    # -- writes ------------------------------------------------------------------------------
    def put_many(self, documents: Iterable[Mapping[str, Any]]) -> None:
        rows: list[Record] = [{"put": dict(document)} for document in documents]
        if rows:
            with self._journal.lock.held():
                self._append(rows)
            self._after_append()

    def insert(self, document: Mapping[str, Any]) -> bool:
        key = self._key(document)
        with self._journal.lock.held():
            if self._current(key, self._folded()) is not None:
                return False
            self._append([{"put": dict(document)}])
        self._after_append()
        return True

    def modify(self, key: str, change: Callable[[Document], None]) -> Document | None:
        with self._journal.lock.held():
            document = self._current(key, self._folded())
            if document is None:
                return None
            change(document)  # raises before anything is written
            self._append([{"put": document}])
        self._after_append()
        return copy_document(document)

    def remove(self, keys: Iterable[str]) -> None:
        wanted: list[Record] = [{"remove": str(key)} for key in dict.fromkeys(keys)]
        if wanted:
            with self._journal.lock.held():
                self._append(wanted)
            self.flush()  # the removed documents leave the journal now

    def clear(self) -> None:
        with self._checkpoint_lock.held(), self._journal.lock.held():
            self.base.clear()
            self._journal.cut(self._journal.snapshot()[1])

    # -- checkpoints -------------------------------------------------------------------------
    def close(self) -> None:
        """Wait for a background fold this opener started (`BackgroundFold.wait`)."""
        self._background.wait()

    def flush(self) -> None:
        """Replay the journal into the buckets, in order, then cut what was replayed: when it
        returns, no line of the journal keeps an earlier version of a document, and neither
        does this process's memory of the journal's fold and of the buckets (a forget
        flushes: no word of the forgotten stays in memory; the next read parses again)."""
        self._checkpoint()
        with self._guard:
            self._fold_of, self._fold, self._fold_last = None, {}, None
            self._merged = ({}, {}, [])
        self.base.flush()

    def _checkpoint(self) -> None:
        """`flush` without letting go of what reads keep (the background fold's, which runs
        every `CHECKPOINT_AT` lines: the next read would parse every bucket again)."""
        with self._checkpoint_lock.held():
            records, length = self._journal.snapshot()
            with self.base.one_version():  # views keep the buckets until every line is in
                replay_in_runs(records, self.base.put_many, self.base.remove)
            self._journal.cut(length)
