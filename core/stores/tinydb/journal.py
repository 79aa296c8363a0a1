"""The decision log's journal: an append-only file that makes a write durable with one fsync.

Writing a decision into its shard and three index buckets costs four file rewrites and eight
fsyncs (about 60 ms on a virtual disk); appending one line to this journal costs one fsync, and
every writer waiting at that moment shares it (group commit). The shards are brought up to date
from the journal in the background (a checkpoint), after which the applied lines are cut off.

Appends and cuts hold the journal's own inter-process lock; a line cut short by a crash (never
acknowledged: its fsync did not return) is dropped before the next append. Readers parse the
journal incrementally and cache it per process.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from core.stores.tinydb.locks import store_lock
from core.stores.tinydb.storage import AtomicJSONStorage

Record = dict[str, Any]

#: Journal lines after which a write starts a background fold (tickets, lessons).
CHECKPOINT_AT = 256

log = logging.getLogger(__name__)


#: Bytes of the journal's start remembered to tell one journal file's contents from the next.
HEAD_BYTES = 256


class Journal:
    """Records (JSON objects), one per line, in `path`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = store_lock(path)
        self._cache_guard = threading.Lock()
        #: (inode, bytes parsed, the file's first bytes): a cut that empties the file in place,
        #: or a new file that reuses an inode, changes the head, so stale offsets are never used.
        self._cache_key: tuple[int, int, bytes] | None = None
        self._cached: list[Record] = []

    def append(self, lines: list[str], *, sync: bool = True) -> None:
        """Append encoded records; with `sync` they are on disk when this returns."""
        payload = "".join(line + "\n" for line in lines).encode("utf-8")
        with self.lock.held():
            created = not self.path.exists()
            with open(self.path, "ab") as handle:
                self._drop_torn_tail(handle)
                handle.write(payload)
                handle.flush()
                if sync:
                    os.fsync(handle.fileno())
            if created and sync:
                _fsync_folder(self.path.parent)

    @staticmethod
    def _drop_torn_tail(handle: Any) -> None:
        """Cut a last line left without its newline by a crash mid-append."""
        size = handle.seek(0, os.SEEK_END)
        if size == 0:
            return
        with open(handle.name, "rb") as reader:
            reader.seek(size - 1)
            if reader.read(1) == b"\n":
                return
            reader.seek(0)
            keep = reader.read().rfind(b"\n") + 1
        handle.truncate(keep)
        handle.seek(keep)

    def snapshot(self) -> tuple[list[Record], int]:
        """Every complete record now in the journal, and the byte length they span."""
        with self.lock.held():
            try:
                data = self.path.read_bytes()
            except FileNotFoundError:
                return [], 0
        end = data.rfind(b"\n") + 1
        return _parse(data[:end]), end

    def cut(self, length: int) -> None:
        """Remove the first `length` bytes (already applied elsewhere); atomic and durable."""
        if length == 0:
            return
        with self.lock.held():
            data = self.path.read_bytes()
            rest = data[length:]
            if rest:
                storage = AtomicJSONStorage(self.path)  # temp file, fsync, rename, folder fsync
                storage.write_bytes(rest)
            else:
                with open(self.path, "r+b") as handle:
                    handle.truncate(0)
                    handle.flush()
                    os.fsync(handle.fileno())
        with self._cache_guard:  # nor do the records parsed before (a forget cuts: no old words)
            self._cache_key, self._cached = None, []

    def records(self) -> list[Record]:
        """The journal's records, re-reading only what was appended since the last call."""
        with self._cache_guard:
            try:
                handle = open(self.path, "rb")  # noqa: SIM115 (closed below)
            except FileNotFoundError:
                self._cache_key, self._cached = None, []
                return []
            with handle:
                stat = os.fstat(handle.fileno())  # of the file read, even if replaced meanwhile
                head = handle.read(HEAD_BYTES)
                parsed = 0
                key = self._cache_key
                if key is not None and key[0] == stat.st_ino and head.startswith(key[2]):
                    parsed = key[1]
                if stat.st_size < parsed or parsed == 0:
                    self._cached, parsed = [], 0
                if stat.st_size > parsed:
                    handle.seek(parsed)
                    data = handle.read()
                    end = data.rfind(b"\n") + 1
                    self._cached = self._cached + _parse(data[:end])
                    parsed += end
            self._cache_key = (stat.st_ino, parsed, head[: min(parsed, HEAD_BYTES)])
            return list(self._cached)


def _parse(data: bytes) -> list[Record]:
    records = []
    for line in data.splitlines():
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a torn line that a later append has not cut yet
    return records


def _fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class BackgroundFold:
    """At most one thread at a time folding a journal into its buckets (`fold`); a failure is
    logged, not raised: the journal keeps every acknowledged line, so the next fold retries."""

    def __init__(self, fold: Callable[[], None], *, name: str, what: str) -> None:
        self._fold = fold
        self._name = name
        self._what = what
        self._guard = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Fold in the background unless a fold is already running."""
        with self._guard:
            if self._thread is not None and self._thread.is_alive():
                return
            self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
            self._thread.start()

    def wait(self) -> None:
        """Return once no fold is running: what closing the store waits for. A fold left
        running still writes and removes temporary files in the home, under a copy or a
        backup made after the close (in a process of its own the exit ends it, and the next
        opener folds again)."""
        with self._guard:
            thread = self._thread
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        try:
            self._fold()
        except Exception:
            log.exception("folding %s into its buckets failed", self._what)


def replay_in_runs(
    records: Iterable[Record],
    put_many: Callable[[Iterable[Any]], object],
    remove: Callable[[Iterable[str]], object],
) -> None:
    """Apply journal lines in order, each run of puts or of removals as one batch (the latest
    line of a key wins within a run of puts)."""
    run: list[Record] = []
    for record in records:
        if run and ("put" in run[0]) != ("put" in record):
            _replay(run, put_many, remove)
            run = []
        run.append(record)
    if run:
        _replay(run, put_many, remove)


def _replay(
    run: list[Record],
    put_many: Callable[[Iterable[Any]], object],
    remove: Callable[[Iterable[str]], object],
) -> None:
    if "put" in run[0]:
        put_many(record["put"] for record in run)
    else:
        remove(str(record["remove"]) for record in run)


def fold_lines(records: Iterable[Record], key: Callable[[Record], str]) -> dict[str, Any]:
    """What a journal's put/remove lines say, the latest line per key (None: removed)."""
    fold: dict[str, Any] = {}
    for record in records:
        if "put" in record:
            fold[key(record["put"])] = record["put"]
        else:
            fold[str(record["remove"])] = None
    return fold


def overlay(
    rows: Iterable[Record],
    fold: Mapping[str, Any],
    key: Callable[[Record], str],
    copy: Callable[[Record], Record],
) -> list[Record]:
    """The buckets' `rows` with a journal's `fold` over them (its removals dropped, its puts
    copied in)."""
    merged = {key(row): row for row in rows}
    for name, document in fold.items():
        if document is None:
            merged.pop(name, None)
        else:
            merged[name] = copy(document)
    return list(merged.values())
