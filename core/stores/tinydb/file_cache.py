"""Parsed JSON files kept per process until the file changes.

Every write of a decision-log file replaces it atomically, so its inode, modification time and
size identify a version; a cached parse is used while they match. Parsing a shard or an index
bucket on each look-up made every read slower as the log grew.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, TypeVar

from core.stores.tinydb.storage import AtomicJSONStorage

#: What a cached file parses into.
Parsed = TypeVar("Parsed")
#: A file's version: (inode, mtime in ns, size).
Version = tuple[int, int, int]


def version_of(path: Path) -> Version:
    """The version of the file at `path` (raises FileNotFoundError)."""
    stat = path.stat()
    return (stat.st_ino, stat.st_mtime_ns, stat.st_size)


class FileCache(Generic[Parsed]):
    """`parse` of JSON files by name; `limit`: the least recently stored beyond it are dropped."""

    def __init__(
        self, parse: Callable[[dict[str, Any]], Parsed], *, limit: int | None = None
    ) -> None:
        self.parse = parse
        self.limit = limit
        self._guard = threading.Lock()
        self._entries: dict[str, tuple[Version, Parsed]] = {}

    def get(self, name: str, path: Path) -> Parsed:
        """The parse of `path` (empty when there is none), read again only when it changed."""
        try:
            version = version_of(path)
        except FileNotFoundError:
            return self.parse({})
        with self._guard:
            cached = self._entries.get(name)
            if cached is not None and cached[0] == version:
                return cached[1]
        parsed = self.parse(AtomicJSONStorage(path).read() or {})
        self._store(name, version, parsed)
        return parsed

    def written(self, name: str, path: Path, data: dict[str, Any]) -> None:
        """Remember `data`, just written to `path`, so the next read does not parse it again."""
        self._store(name, version_of(path), self.parse(data))

    def clear(self) -> None:
        """Forget every entry (after files were rewritten in place)."""
        with self._guard:
            self._entries.clear()

    def _store(self, name: str, version: Version, parsed: Parsed) -> None:
        with self._guard:
            self._entries.pop(name, None)  # re-inserted last: the newest is dropped last
            self._entries[name] = (version, parsed)
            while self.limit is not None and len(self._entries) > self.limit:
                self._entries.pop(next(iter(self._entries)))
