"""One lock per store that holds across threads *and* processes.

A thread lock alone (what the stores had before) let two processes on one brain home read,
modify and rewrite the same file at once, and one of them silently lost the other's records.
Every read-modify-write of a TinyDB store therefore runs under this lock, and re-reads the file
under it. Inside one process a re-entrant thread lock comes first, so threads queue without
polling; across processes an OS file lock (`filelock`) is taken on `<store>.lock`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock

#: How often a process waiting for another process's lock retries (seconds).
POLL_INTERVAL_S = 0.002

_REGISTRY: dict[str, StoreLock] = {}
_REGISTRY_GUARD = threading.Lock()


class StoreLock:
    """A re-entrant lock shared by every thread and process that opens the same store."""

    def __init__(self, lock_path: Path) -> None:
        self.lock_path = lock_path
        self._threads = threading.RLock()
        self._process = FileLock(str(lock_path), thread_local=False, poll_interval=POLL_INTERVAL_S)
        self._folder_made = False

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold the lock for the duration of the block."""
        with self._threads:
            if not self._folder_made:  # once: a mkdir on every write was a syscall per write
                self.lock_path.parent.mkdir(parents=True, exist_ok=True)
                self._folder_made = True
            with self._process:
                yield


def store_lock(store_path: Path) -> StoreLock:
    """The lock of the store at `store_path` (a file or a folder): `<store_path>.lock`."""
    resolved = store_path.resolve()
    key = str(resolved)
    with _REGISTRY_GUARD:
        lock = _REGISTRY.get(key)
        if lock is None:
            lock = _REGISTRY[key] = StoreLock(resolved.with_name(resolved.name + ".lock"))
        return lock
