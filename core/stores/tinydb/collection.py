"""Keyed documents in TinyDB files: one file for small collections, hash buckets for big ones.

TinyDB rewrites a whole file on every write, so a single file makes each write cost more as the
collection grows (a ticket took 1.5 ms at 0 tickets and 97 ms at 1,218). A sharded collection
spreads documents over `BUCKETS` files by a hash of their key, so a write rewrites one small
file: at 100k documents about 25 per file. Files keep TinyDB's format (table -> doc id ->
document), so TinyDB itself and earlier versions of the project read them.

Every write holds the collection's lock (threads and processes), re-reads the file under it,
and replaces it atomically with an fsync before returning.

`view()` keeps the documents parsed per process until any process writes the collection: a
sharded collection's writes change a version file first (`.version`, under the lock), a single
file's version is its own (a write replaces it), and a view is read again under the lock, so it
never mixes a write's files with the ones before it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from core.stores.protocols import Document, KeyOf
from core.stores.tinydb.file_cache import version_of
from core.stores.tinydb.locks import store_lock
from core.stores.tinydb.storage import (
    AtomicJSONStorage,
    fsync_folder,
    remove_stale_temporaries,
)

#: Bucket files of a sharded collection (three hex digits of the key's hash).
BUCKETS = 4096
_DIGITS = 3

Table = dict[str, Document]  # TinyDB doc id (as text) -> document
_T = TypeVar("_T")


def bucket_name(key: str) -> str:
    """The bucket file (without .json) a key lives in."""
    digest = hashlib.blake2s(key.encode("utf-8"), digest_size=2).hexdigest()
    return digest[:_DIGITS]


class TinyCollection:
    """A `Collection` in one TinyDB file (`path`) or in bucket files under a folder (`path`)."""

    def __init__(
        self, path: Path, *, key: KeyOf, table: str = "_default", sharded: bool = False
    ) -> None:
        self.path = path
        self.table = table
        self.sharded = sharded
        self._key = key
        self._lock = store_lock(path)
        #: (the version it was read at, key -> document): what `view` returns until a write.
        self._view: tuple[object, dict[str, Document]] | None = None
        #: Each bucket file's documents as the last view read them, by a digest of the file's
        #: text: a view after a write parses only the buckets that changed.
        self._buckets: dict[str, tuple[bytes, list[Document]]] = {}
        #: Inside `one_version`: the batch's files are written without a new version each.
        self._deferred: list[bool] | None = None
        folder = path if sharded else path.parent
        folder.mkdir(parents=True, exist_ok=True)
        with self._lock.held():
            remove_stale_temporaries(folder, None if sharded else path.name)

    # -- files -------------------------------------------------------------------------------
    def _file_of(self, key: str) -> Path:
        return self.path / f"{bucket_name(key)}.json" if self.sharded else self.path

    def _files(self) -> list[Path]:
        return [Path(name) for name in self._file_names()]

    def _read(self, path: Path) -> tuple[dict[str, Table], Table]:
        """The whole file (every table) and this collection's table in it."""
        data = AtomicJSONStorage(path).read() or {}
        return data, data.setdefault(self.table, {})

    def _edit(
        self, path: Path, edit: Callable[[Table], tuple[_T, bool]], *, sync_folder: bool = True
    ) -> _T:
        """Read the file under the lock, apply `edit` (which says whether it changed the
        table) and write the file back when it did (`sync_folder`: `AtomicJSONStorage`)."""
        with self._lock.held():
            data, table = self._read(path)
            result, changed = edit(table)
            if changed:
                if self._deferred is None:
                    self._bump()  # first: a view read before it holds no file of this write
                else:
                    self._deferred.append(True)
                AtomicJSONStorage(path).write(data, sync_folder=sync_folder)
            return result

    @contextmanager
    def one_version(self) -> Iterator[None]:
        """Writes inside get one new version, after the last of them (when any changed a
        file), instead of one before each file. For a journal's checkpoint only, whose lines
        stay in the journal until after it (so a view that keeps the buckets it read before
        misses none of them): with a version a file, every read of the view during a
        checkpoint into hundreds of buckets read every bucket file again (up to `BUCKETS`),
        and a message arriving meanwhile paid that. Call from one thread at a time."""
        self._deferred = []
        try:
            yield
        finally:
            changed, self._deferred = bool(self._deferred), None
            if changed:
                with self._lock.held():
                    self._bump()

    # -- the version every process's view is checked against ------------------------------------
    def _version_file(self) -> Path:
        return self.path / ".version"

    def _bump(self) -> None:
        """A new version of a sharded collection (call with the lock held); a single file
        changes its own version when it is replaced."""
        if self.sharded:
            self._version_file().write_text(os.urandom(8).hex(), encoding="ascii")

    def _version(self) -> object:
        """What changes whenever any process writes (None: unknown, read again)."""
        try:
            if self.sharded:
                return self._version_file().read_text(encoding="ascii") or None
            return version_of(self.path)
        except FileNotFoundError:
            return None

    def _edit_each(self, edits: Mapping[Path, Callable[[Table], tuple[None, bool]]]) -> None:
        """Several files' edits, then one fsync of the folder for all their renames (a batch
        into 250 buckets fsynced the folder 250 times)."""
        for path, edit in edits.items():
            self._edit(path, edit, sync_folder=False)
        if edits:
            fsync_folder(self.path if self.sharded else self.path.parent)

    def _find(self, table: Table, key: str) -> str | None:
        for doc_id, document in table.items():
            if self._key(document) == key:
                return doc_id
        return None

    # -- reads -------------------------------------------------------------------------------
    def get(self, key: str) -> Document | None:
        storage = AtomicJSONStorage(self._file_of(key))
        raw = storage.read_raw()
        if raw is None or (_spelled_alike(key) and json.dumps(key)[1:-1] not in raw):
            # Absent, known without parsing the bucket (about 25 documents at 100k): what an
            # insert asks first, for a new key, made a write cost more as the store grew.
            return None
        table = (storage.parse(raw) or {}).get(self.table, {})
        doc_id = self._find(table, key)
        return None if doc_id is None else table[doc_id]

    def all(self) -> list[Document]:
        documents: list[Document] = []
        for path in self._files():
            documents.extend(self._read(path)[1].values())
        return documents

    def count(self) -> int:
        return sum(len(self._read(path)[1]) for path in self._files())

    def view_by_key(self) -> dict[str, Document]:
        """Every document by key, parsed again only after a write by any process; shared with
        later calls, so never changed by the caller."""
        version, cached = self._version(), self._view
        if cached is not None and version is not None and cached[0] == version:
            return cached[1]
        with self._lock.held():  # no write between the version and the files read
            version = self._version()
            if version is None and self.sharded:
                self._bump()  # a collection written before versions existed
                version = self._version()
            documents = {self._key(document): document for document in self._current()}
        self._view = (version, documents)
        return documents

    def _current(self) -> list[Document]:
        """Every document (call with the lock held), reusing the documents of each bucket file
        whose text is unchanged since the last view: one write into a case book of 1,600
        buckets made the next view parse all of them (80-200 ms, a dynamic decision's p99),
        where one changed. Reading and hashing a file costs a fraction of parsing it; a file's
        stat could say "unchanged" wrongly (an inode reused within the clock's tick, the same
        size). Files are listed and read by name, without a `Path` and a storage object each."""
        documents: list[Document] = []
        buckets: dict[str, tuple[bytes, list[Document]]] = {}
        for name in self._file_names():
            try:
                with open(name, encoding="utf-8") as handle:
                    raw = handle.read()
            except FileNotFoundError:
                continue
            digest = hashlib.blake2b(raw.encode("utf-8"), digest_size=16).digest()
            known = self._buckets.get(name)
            if known is None or known[0] != digest:
                table = (AtomicJSONStorage(name).parse(raw) or {}).get(self.table, {})
                known = (digest, list(table.values()))
            buckets[name] = known
            documents.extend(known[1])
        self._buckets = buckets
        return documents

    def _file_names(self) -> list[str]:
        """The paths of the collection's files as strings, sorted (`_files` as paths); a view
        lists them without building a `Path` each."""
        if not self.sharded:
            return [str(self.path)]
        try:
            with os.scandir(self.path) as entries:
                names = [
                    entry.path
                    for entry in entries
                    if entry.name.endswith(".json") and len(entry.name) == _DIGITS + len(".json")
                ]
        except FileNotFoundError:  # a folder removed under us holds no file (as a glob says)
            return []
        return sorted(names)

    def view(self) -> list[Document]:
        """Every document, read-only (`view_by_key`)."""
        return list(self.view_by_key().values())

    # -- writes ------------------------------------------------------------------------------
    def put_many(self, documents: Iterable[Mapping[str, Any]]) -> None:
        by_file: dict[Path, list[Document]] = {}
        for document in documents:
            by_file.setdefault(self._file_of(self._key(document)), []).append(dict(document))
        edits = {}
        for path, group in by_file.items():

            def put(table: Table, group: list[Document] = group) -> tuple[None, bool]:
                positions = {self._key(doc): doc_id for doc_id, doc in table.items()}
                next_id = int(_next_id(table))  # once: a max over the table per new document
                for document in group:  # made a big batch quadratic
                    key = self._key(document)
                    doc_id = positions.get(key)
                    if doc_id is None:
                        doc_id = positions[key] = str(next_id)
                        next_id += 1
                    table[doc_id] = document
                return None, True

            edits[path] = put
        self._edit_each(edits)

    def insert(self, document: Mapping[str, Any]) -> bool:
        key = self._key(document)

        def add(table: Table) -> tuple[bool, bool]:
            if self._find(table, key) is not None:
                return False, False
            table[_next_id(table)] = dict(document)
            return True, True

        return self._edit(self._file_of(key), add)

    def modify(self, key: str, change: Callable[[Document], None]) -> Document | None:
        def apply(table: Table) -> tuple[Document | None, bool]:
            doc_id = self._find(table, key)
            if doc_id is None:
                return None, False
            changed = copy_document(table[doc_id])
            change(changed)  # raises before anything is written
            table[doc_id] = changed
            return copy_document(changed), True

        return self._edit(self._file_of(key), apply)

    def remove(self, keys: Iterable[str]) -> None:
        by_file: dict[Path, set[str]] = {}
        for key in keys:
            by_file.setdefault(self._file_of(key), set()).add(key)
        edits = {}
        for path, wanted in by_file.items():

            def drop(table: Table, wanted: set[str] = wanted) -> tuple[None, bool]:
                gone = [i for i, doc in table.items() if self._key(doc) in wanted]
                for doc_id in gone:
                    del table[doc_id]
                return None, bool(gone)

            edits[path] = drop
        self._edit_each(edits)

    def clear(self) -> None:
        def empty(table: Table) -> tuple[None, bool]:
            had = bool(table)
            table.clear()
            return None, had

        self._edit_each(dict.fromkeys(self._files(), empty))

    def flush(self) -> None:
        """Nothing to fold: every write replaced its file before it returned. The documents the
        last view kept are let go (a forget flushes: no earlier version stays in memory)."""
        self._view, self._buckets = None, {}


#: Keys whose document may hold a value JSON spells otherwise (true, null, NaN, Infinity).
_SPELLED_OTHERWISE = frozenset({"True", "False", "None", "nan", "inf", "-inf"})


def _spelled_alike(key: str) -> bool:
    """Does every document with this key hold it in its file as `json.dumps(key)` spells it
    inside the quotes? A printable ASCII key is escaped alike with or without `ensure_ascii`; a
    number's digits read the same as its `str` (the key function's); a container or one of
    `_SPELLED_OTHERWISE` may not."""
    return (
        key.isascii()
        and key.isprintable()
        and key not in _SPELLED_OTHERWISE
        and key[:1] not in ("[", "{")
    )


def copy_document(document: Document) -> Document:
    """A deep copy of a JSON document: a C-level round trip, several times faster than
    `copy.deepcopy` on a document with long lists (the lessons' change feed keeps 512)."""
    copied: Document = json.loads(json.dumps(document, ensure_ascii=False))
    return copied


def _next_id(table: Table) -> str:
    """TinyDB's numbering: one more than the largest doc id."""
    return str(max((int(i) for i in table), default=0) + 1)
