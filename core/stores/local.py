"""The `Coordinator` of backends used by one process (TinyDB, memory): in-process locks.

A home on TinyDB is served by one bot process, so a thread's messages need only an
in-process lock and the re-escalation pass needs no lease.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

_LOCKS: dict[str, threading.Lock] = {}
_GUARD = threading.Lock()


class LocalCoordinator:
    """Per-key locks in this process; every lease is granted."""

    @contextlib.contextmanager
    def serialized(self, key: str) -> Iterator[None]:
        with _GUARD:
            lock = _LOCKS.setdefault(key, threading.Lock())
        with lock:
            yield
        with _GUARD:
            if not lock.locked():
                _LOCKS.pop(key, None)

    def lease(self, name: str, holder: str, ttl_s: float) -> bool:
        return True

    def ping(self) -> None:
        return None
