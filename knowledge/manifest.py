"""What was ingested from which file: content hash and chunk ids, for idempotent re-ingest."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from core.stores.protocols import ManifestStore
from core.stores.records import ManifestEntry

if TYPE_CHECKING:
    from core.config import Settings

__all__ = ["DocManifest", "ManifestEntry"]


class DocManifest:
    """The KB manifest of a home (a `ManifestStore`), keyed by absolute source path."""

    def __init__(self, store: ManifestStore) -> None:
        self.store = store

    @classmethod
    def open(cls, settings: Settings) -> DocManifest:
        """The manifest of a brain home, on the configured backend."""
        from core.stores import open_stores

        return cls(open_stores(settings).manifest)

    def get(self, source: str) -> ManifestEntry | None:
        """The entry of `source`, if it was ingested."""
        return self.store.get(source)

    def put(self, entry: ManifestEntry) -> None:
        """Record (or replace) the entry of one source."""
        self.store.put(entry)

    def remove(self, source: str) -> None:
        """Forget one source."""
        self.store.remove(source)

    def under(self, root: Path) -> list[ManifestEntry]:
        """Entries whose source is `root` itself or lies below it."""
        prefix = str(root).rstrip("/") + "/"
        return [
            entry
            for entry in self.store.all()
            if entry.source == str(root) or entry.source.startswith(prefix)
        ]

    def sources(self) -> list[str]:
        """Every ingested source, in the order they were first recorded."""
        return [entry.source for entry in self.store.all()]

    def clear(self) -> None:
        """Forget everything (the store it described is gone)."""
        self.store.clear()

    def __len__(self) -> int:
        return self.store.count()

    def close(self) -> None:
        """Nothing to release: the store is written on every change."""
        return None
