"""TinyDB with crash-safe writes, shared by every structured store of the project.

Writes go to a temporary file in the same folder, are fsynced, then atomically replace the
database file, so a crash mid-write leaves the previous content intact. A process-wide lock
per file serialises writers inside one process.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.storages import Storage

_LOCKS: dict[str, threading.RLock] = {}
_LOCKS_GUARD = threading.Lock()


class StorageError(Exception):
    """A structured store could not be read; the message names the file."""


def file_lock(path: Path) -> threading.RLock:
    """The in-process lock guarding one database file."""
    key = str(path.resolve())
    with _LOCKS_GUARD:
        return _LOCKS.setdefault(key, threading.RLock())


class AtomicJSONStorage(Storage):
    """A TinyDB storage that never leaves a half-written file behind."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            raw = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        if not raw.strip():
            return None
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise StorageError(
                f"{self.path} is not valid JSON ({exc}); it was left untouched"
            ) from exc
        if not isinstance(data, dict):
            raise StorageError(
                f"{self.path} does not hold a TinyDB document; it was left untouched"
            )
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        fd, tmp_name = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(payload)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp_name, self.path)
        except BaseException:
            Path(tmp_name).unlink(missing_ok=True)
            raise

    def close(self) -> None:
        return None


def open_db(path: Path) -> TinyDB:
    """Open (creating if needed) a crash-safe TinyDB file."""
    return TinyDB(path, storage=AtomicJSONStorage)
