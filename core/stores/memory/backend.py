"""The in-memory backend: collections and a decision log, shared per brain home."""

from __future__ import annotations

import threading
from pathlib import Path

from core.stores.backends import BackendBase
from core.stores.memory.collection import MemoryCollection
from core.stores.memory.decisions import MemoryDecisionStore
from core.stores.protocols import KeyOf

_BY_HOME: dict[Path, MemoryBackend] = {}
_GUARD = threading.Lock()


class MemoryBackend(BackendBase):
    """Every store of one brain home, in this process's memory."""

    name = "memory"

    def __init__(self) -> None:
        self._collections: dict[str, MemoryCollection] = {}
        self._decisions = MemoryDecisionStore()
        self._lock = threading.Lock()

    @classmethod
    def for_home(cls, home: Path) -> MemoryBackend:
        """The one in-memory backend of `home` in this process."""
        with _GUARD:
            return _BY_HOME.setdefault(home.resolve(), cls())

    def collection(
        self, name: str, *, key: KeyOf, table: str = "_default", sharded: bool = False
    ) -> MemoryCollection:
        with self._lock:
            found = self._collections.get(name)
            if found is None:
                found = self._collections[name] = MemoryCollection(key)
            return found

    def decisions(self) -> MemoryDecisionStore:
        return self._decisions

    def close(self) -> None:
        return None
