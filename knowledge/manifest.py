"""What was ingested from which file: content hash and chunk ids, for idempotent re-ingest."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tinydb import Query

from core.storage import file_lock, open_db


@dataclass(frozen=True, slots=True)
class ManifestEntry:
    """One ingested source file."""

    source: str
    digest: str
    chunk_ids: tuple[str, ...]
    dense: bool


class DocManifest:
    """A TinyDB file (crash-safe writes) keyed by absolute source path."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = open_db(path)
        self._table = self._db.table("documents")
        self._lock = file_lock(path)

    def get(self, source: str) -> ManifestEntry | None:
        """The entry of `source`, if it was ingested."""
        with self._lock:
            row = self._table.get(Query().source == source)
        return _entry(row) if isinstance(row, dict) else None

    def put(self, entry: ManifestEntry) -> None:
        """Record (or replace) the entry of one source."""
        row = {
            "source": entry.source,
            "digest": entry.digest,
            "chunk_ids": list(entry.chunk_ids),
            "dense": entry.dense,
        }
        with self._lock:
            self._table.upsert(row, Query().source == entry.source)

    def remove(self, source: str) -> None:
        """Forget one source."""
        with self._lock:
            self._table.remove(Query().source == source)

    def under(self, root: Path) -> list[ManifestEntry]:
        """Entries whose source is `root` itself or lies below it."""
        prefix = str(root).rstrip("/") + "/"
        with self._lock:
            rows = self._table.all()
        return [
            _entry(row)
            for row in rows
            if row["source"] == str(root) or str(row["source"]).startswith(prefix)
        ]

    def sources(self) -> list[str]:
        """Every ingested source, in the order they were first recorded."""
        with self._lock:
            return [str(row["source"]) for row in self._table.all()]

    def clear(self) -> None:
        """Forget everything (the store it described is gone)."""
        with self._lock:
            self._table.truncate()

    def __len__(self) -> int:
        with self._lock:
            return len(self._table)

    def close(self) -> None:
        """Close the database file."""
        self._db.close()


def _entry(row: dict[str, object]) -> ManifestEntry:
    chunk_ids = row.get("chunk_ids") or []
    assert isinstance(chunk_ids, list)
    return ManifestEntry(
        source=str(row["source"]),
        digest=str(row["digest"]),
        chunk_ids=tuple(str(item) for item in chunk_ids),
        dense=bool(row.get("dense", False)),
    )
