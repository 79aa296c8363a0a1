"""Brains of one process that open the same knowledge shard read one loaded copy of it.

Loading a Qdrant Edge shard replays its write-ahead log and rebuilds its segment in memory:
about 57 ms CPU for the sample knowledge base, and closing it waits for Qdrant's threads. A
process that opens many brains on homes holding the same shard (the command line called
in-process, the console's replays in copies of the home, every test on a copy of one fitted
home) paid it at every open. Here the shard's bytes are read and hashed instead (about 5 ms),
and a brain whose shard holds the same bytes as one this process loaded before reads that
loaded copy. The copy is loaded from a private copy of the folder in a temporary directory,
deleted as soon as it is loaded (Qdrant keeps its files open), so it never holds, writes or
locks any home's files and nothing is left behind, even by a process killed with -9.

Copy on write: the first write of a brain (an ingest, a delete, `optimize`) opens the brain's
own shard with `EdgeVectorStore.open` and reads and writes there from then on; the shared copy
is never written. Same bytes give the same points, schema and search results, so no decision
changes. While a brain reads the shared copy, its home's shard is still locked against other
processes with the lock Qdrant itself takes (a `flock` on the WAL folder): a second process is
refused as before; brains of the same process share the lock (before, a second brain of one
home in one process found the shard locked and decided without the knowledge base).
"""

from __future__ import annotations

import atexit
import fcntl
import hashlib
import os
import shutil
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from core.files import copy_tree, data_extents
from knowledge.vectors.base import (
    HybridQuery,
    StoreLockedError,
    VectorHit,
    VectorPoint,
    VectorRecord,
    VectorStore,
    Where,
)
from knowledge.vectors.edge import LOCK_FILE, EdgeVectorStore, locked_message

__all__ = ["CopyOnWriteShard", "open_shared", "shard_digest"]

#: Loaded copies kept while no brain reads them (each holds a loaded shard and its threads).
KEEP_UNUSED = 2
#: The file whose presence says a folder holds a shard.
_CONFIG = "edge_config.json"


def shard_digest(path: Path) -> str:
    """A digest of every file of the shard in `path`: its name, size and data (holes are not
    read: the WAL and pages are preallocated sparse files)."""
    digest = hashlib.sha256()
    root = len(str(path))
    for folder, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            file = os.path.join(folder, name)
            digest.update(file[root:].encode() + b"\0")
            with open(file, "rb") as reader:
                size = os.fstat(reader.fileno()).st_size
                digest.update(size.to_bytes(8, "little"))
                for start, end in data_extents(reader.fileno(), size):
                    reader.seek(start)
                    digest.update(start.to_bytes(8, "little"))
                    digest.update(reader.read(end - start))
    return digest.hexdigest()


@dataclass(slots=True)
class _Loaded:
    """One loaded private copy of a shard, and how many brains read it now."""

    store: EdgeVectorStore
    readers: int = 0


class _Locks:
    """The home shards this process reads through a shared copy, each locked once (a
    `flock` on its WAL folder, the lock Qdrant Edge takes) for all the brains reading it."""

    def __init__(self) -> None:
        self._held: dict[Path, tuple[int, int]] = {}
        self._lock = threading.Lock()

    def take(self, path: Path) -> None:
        """Lock `path`'s shard for one more reader; StoreLockedError when another process,
        or a shard of this one opened for writing, holds it."""
        with self._lock:
            held = self._held.get(path)
            if held is not None:
                self._held[path] = (held[0], held[1] + 1)
                return
            fd = os.open(path / LOCK_FILE, os.O_RDONLY)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise StoreLockedError(locked_message(path)) from None
            self._held[path] = (fd, 1)

    def give_back(self, path: Path) -> None:
        """One reader fewer; the last one releases the lock."""
        with self._lock:
            fd, readers = self._held[path]
            if readers > 1:
                self._held[path] = (fd, readers - 1)
                return
            del self._held[path]
            os.close(fd)


class _Copies:
    """The loaded copies of this process, by the shard's digest and the dense size asked."""

    def __init__(self) -> None:
        self._loaded: OrderedDict[tuple[str, int | None], _Loaded] = OrderedDict()
        self._lock = threading.Lock()

    def borrow(self, path: Path, dense_dim: int | None) -> _Loaded:
        """A loaded copy of the shard in `path` (locked by the caller), loaded if new."""
        key = (shard_digest(path), dense_dim)
        with self._lock:
            loaded = self._loaded.get(key)
            if loaded is None:
                folder = Path(tempfile.mkdtemp(prefix="brain-shard-"))
                try:
                    copy_tree(path, folder / "shard")
                    store = EdgeVectorStore.open(folder / "shard", dense_dim=dense_dim)
                finally:
                    shutil.rmtree(folder, ignore_errors=True)
                loaded = self._loaded[key] = _Loaded(store)
            self._loaded.move_to_end(key)
            loaded.readers += 1
            return loaded

    def give_back(self, loaded: _Loaded) -> None:
        """One reader fewer; the oldest copies no brain reads are closed beyond KEEP_UNUSED."""
        with self._lock:
            loaded.readers -= 1
            unused = [key for key, kept in self._loaded.items() if kept.readers == 0]
            for key in unused[: max(0, len(unused) - KEEP_UNUSED)]:
                _discard(self._loaded.pop(key))

    def close_all(self) -> None:
        """Close every copy (at the process's exit)."""
        with self._lock:
            while self._loaded:
                _discard(self._loaded.popitem()[1])


def _discard(loaded: _Loaded) -> None:
    loaded.store.close()


_LOCKS = _Locks()
_COPIES = _Copies()
atexit.register(_COPIES.close_all)


class CopyOnWriteShard:
    """A brain's knowledge shard: read from the process's shared loaded copy until the first
    write, which opens the brain's own shard (see the module docstring). The copy stays
    borrowed until `close`, so a read begun on it (a scroll) is never cut by its closing."""

    def __init__(self, path: Path, dense_dim: int | None, loaded: _Loaded) -> None:
        self._path = path
        self._dense_dim = dense_dim
        self._loaded: _Loaded | None = loaded
        self._own: EdgeVectorStore | None = None
        self._lock = threading.RLock()

    def _reader(self) -> VectorStore:
        with self._lock:
            if self._own is not None:
                return self._own
            if self._loaded is None:
                raise RuntimeError(f"the vector store {self._path} is closed")
            return self._loaded.store

    def _writer(self) -> EdgeVectorStore:
        """The brain's own shard, opened at the first write (Qdrant takes the lock itself)."""
        with self._lock:
            if self._own is None:
                if self._loaded is None:
                    raise RuntimeError(f"the vector store {self._path} is closed")
                _LOCKS.give_back(self._path)
                try:
                    self._own = EdgeVectorStore.open(self._path, dense_dim=self._dense_dim)
                except BaseException:
                    _LOCKS.take(self._path)
                    raise
            return self._own

    @property
    def has_dense(self) -> bool:
        """Whether points carry the dense vector (the same in the copy and the shard)."""
        return self._reader().has_dense

    def upsert(self, points: Sequence[VectorPoint]) -> None:
        """Write points in the brain's own shard."""
        if points:
            self._writer().upsert(points)

    def delete(self, point_ids: Sequence[str]) -> None:
        """Remove points from the brain's own shard."""
        if point_ids:
            self._writer().delete(point_ids)

    def count(self, where: Where | None = None) -> int:
        """Exact number of points (matching `where`)."""
        return self._reader().count(where)

    def scroll(self, where: Where | None = None) -> Iterator[VectorRecord]:
        """Every point (matching `where`) with its payload."""
        return self._reader().scroll(where)

    def search(
        self, query: HybridQuery, *, limit: int, where: Where | None = None
    ) -> list[VectorHit]:
        """The best `limit` points (see `EdgeVectorStore.search`)."""
        return self._reader().search(query, limit=limit, where=where)

    def optimize(self) -> None:
        """Run the segment optimizers on the brain's own shard (they may write its files)."""
        self._writer().optimize()

    def close(self) -> None:
        """Release the shared copy and the home's lock, or close the own shard; twice is
        harmless."""
        with self._lock:
            if self._own is not None:
                self._own.close()
            if self._loaded is not None:
                loaded, self._loaded = self._loaded, None
                _COPIES.give_back(loaded)
                if self._own is None:
                    _LOCKS.give_back(self._path)


def open_shared(path: Path, *, dense_dim: int | None) -> VectorStore:
    """The shard in `path` read through the process's shared copy of its bytes; a folder
    without a shard yet is created and opened as the brain's own."""
    if not (path / _CONFIG).is_file():
        return EdgeVectorStore.open(path, dense_dim=dense_dim)
    path = path.resolve()
    _LOCKS.take(path)
    try:
        loaded = _COPIES.borrow(path, dense_dim)
    except BaseException:
        _LOCKS.give_back(path)
        raise
    return CopyOnWriteShard(path, dense_dim, loaded)
