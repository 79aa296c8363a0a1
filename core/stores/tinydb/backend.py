"""Where each TinyDB collection lives under the brain home, and moving older layouts there."""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import TypeVar

from core.stores.backends import BackendBase
from core.stores.kinds import LessonRecords
from core.stores.protocols import KeyOf
from core.stores.tinydb.collection import TinyCollection
from core.stores.tinydb.decisions import TinyDecisionStore
from core.stores.tinydb.journaled import JournaledCollection
from core.stores.tinydb.lessons import TinyLessonStore
from core.stores.tinydb.locks import store_lock
from core.stores.tinydb.owed import OwedJournal
from core.stores.tinydb.storage import AtomicJSONStorage

log = logging.getLogger(__name__)

Journaled = TypeVar("Journaled", JournaledCollection, TinyLessonStore)

#: Collections that used to be one TinyDB file (name -> (file, table)); a home written by an
#: earlier version is moved into the sharded layout the first time the collection is opened.
LEGACY_FILES: dict[str, tuple[str, str]] = {
    "tickets": ("tickets.json", "tickets"),
    "memory": ("memory.json", "memories"),
}

#: Sharded collections whose store puts its own journal in front (`lessons`); every other
#: sharded collection gets a `JournaledCollection`, so a write costs one fsynced line whatever
#: the collection's size.
OWN_JOURNAL = frozenset({"memory"})


class TinyDBBackend(BackendBase):
    """TinyDB files under `home`: `<name>.json`, or a folder `<name>/` when sharded."""

    name = "tinydb"

    def __init__(self, home: Path) -> None:
        self.home = home
        self._guard = threading.Lock()
        #: The journaled stores opened here, whose background folds `close` waits for.
        self._journaled: list[JournaledCollection | TinyLessonStore] = []

    def collection(
        self, name: str, *, key: KeyOf, table: str = "_default", sharded: bool = False
    ) -> TinyCollection | JournaledCollection:
        path = self.home / name if sharded else self.home / f"{name}.json"
        collection: TinyCollection | JournaledCollection
        collection = TinyCollection(path, key=key, table=table, sharded=sharded)
        if sharded and name not in OWN_JOURNAL:
            collection = self._opened(
                JournaledCollection(collection, self.home / f"{name}.journal.jsonl", key=key)
            )
        if sharded and name in LEGACY_FILES:
            _migrate(self.home / LEGACY_FILES[name][0], LEGACY_FILES[name][1], collection)
        return collection

    def owed_events(self) -> OwedJournal:
        """Slack events owed an answer: an append-only journal (one fsynced line per ack)."""
        return OwedJournal(self.home / "slack" / "owed.jsonl")

    def decisions(self) -> TinyDecisionStore:
        return TinyDecisionStore(self.home / "decisions")

    def lessons(self, base: LessonRecords) -> TinyLessonStore:
        """Routing lessons: `base` (buckets and feed) behind a journal, one fsync a write."""
        return self._opened(TinyLessonStore(base, self.home / "memory_journal.jsonl"))

    def _opened(self, store: Journaled) -> Journaled:
        with self._guard:
            self._journaled.append(store)
        return store

    def close(self) -> None:
        """Wait for the background folds of the journals opened here: when it returns no
        thread of these stores writes in the home any more."""
        with self._guard:
            opened = list(self._journaled)
        for store in opened:
            store.close()


def _migrate(legacy: Path, table: str, collection: TinyCollection | JournaledCollection) -> None:
    """Copy the documents of a one-file collection into `collection`, then rename the file
    (`.migrated`) so it is read once; other tables of the file stay where they are."""
    if not legacy.is_file():
        return
    with store_lock(legacy).held():
        if not legacy.is_file():
            return  # another process moved it meanwhile
        data = AtomicJSONStorage(legacy).read() or {}
        rows = list(data.get(table, {}).values())
        collection.put_many(rows)
        legacy.rename(legacy.with_name(legacy.name + ".migrated"))
    log.info("moved %d records from %s to %s", len(rows), legacy, collection.path)
