"""TinyDB files with crash-safe writes, used by every TinyDB record store.

Writes go to a temporary file in the same folder, are fsynced, then atomically replace the
database file (and the folder is fsynced so the rename itself survives a power cut), so a crash
mid-write leaves the previous content intact. A write interrupted by `kill -9` leaves only its
temporary file, which `remove_stale_temporaries` deletes (under the writers' lock) on open.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.storages import Storage

from core.errors import StorageError

__all__ = [
    "AtomicJSONStorage",
    "StorageError",
    "fsync_folder",
    "open_db",
    "remove_stale_temporaries",
]


class AtomicJSONStorage(Storage):
    """A TinyDB storage that never leaves a half-written file behind."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def read(self) -> dict[str, dict[str, Any]] | None:
        raw = self.read_raw()
        return None if raw is None else self.parse(raw)

    def read_raw(self) -> str | None:
        """The file's text (None when there is none), to look into before parsing it."""
        try:
            return self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None

    def parse(self, raw: str) -> dict[str, dict[str, Any]] | None:
        """The TinyDB document in `raw` (the file's text); None when it is empty."""
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

    def write(self, data: dict[str, dict[str, Any]], *, sync_folder: bool = True) -> None:
        self.write_bytes(encode(data), sync_folder=sync_folder)

    def write_bytes(self, payload: bytes, *, sync_folder: bool = True) -> None:
        """Replace the file's content atomically and durably; `sync_folder=False` leaves the
        rename's durability to one `fsync_folder` by the caller after a batch of files."""
        fd, tmp_name = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=self.path.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(payload)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp_name, self.path)
            if sync_folder:
                fsync_folder(self.path.parent)
        except BaseException:
            Path(tmp_name).unlink(missing_ok=True)
            raise

    def close(self) -> None:
        return None


def encode(data: dict[str, dict[str, Any]]) -> bytes:
    """The bytes `AtomicJSONStorage.write` puts in the file for `data`."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def open_db(path: Path) -> TinyDB:
    """Open (creating if needed) a crash-safe TinyDB file."""
    return TinyDB(path, storage=AtomicJSONStorage)


def fsync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale_temporaries(folder: Path, name: str | None = None) -> int:
    """Delete the temporary files that interrupted writes left in `folder` (only those of the
    file `name` when given); call with the writers' lock held so no write is in progress."""
    removed = 0
    if not folder.is_dir():
        return 0
    for candidate in folder.glob(f".{name}.*" if name else ".*.json.*"):
        if candidate.is_file():
            candidate.unlink(missing_ok=True)
            removed += 1
    return removed
