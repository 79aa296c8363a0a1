"""What was ingested from which file: content hash and chunk ids, for idempotent re-ingest."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from core.stores.protocols import ManifestStore
from core.stores.records import ManifestEntry

if TYPE_CHECKING:
    from core.config import Settings

__all__ = ["DocManifest", "ManifestEntry", "StagedManifest"]


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
        return [entry.source for entry in self.entries()]

    def entries(self) -> list[ManifestEntry]:
        """Every entry, in the order the sources were first recorded."""
        return self.store.all()

    def clear(self) -> None:
        """Forget everything (the store it described is gone)."""
        self.store.clear()

    def __len__(self) -> int:
        return self.store.count()

    def close(self) -> None:
        """Nothing to release: the store is written on every change."""
        return None


class StagedManifest(DocManifest):
    """The manifest as an ingest built aside sees it: reads go through to `live`, writes are
    kept here until `commit` (after the new collection was swapped in), so an ingest that
    fails halfway leaves the live manifest describing the live collection."""

    def __init__(self, live: DocManifest) -> None:
        super().__init__(live.store)
        self._live = live
        self._writes: dict[str, ManifestEntry | None] = {}
        self._cleared = False

    def _entries(self) -> dict[str, ManifestEntry]:
        found = {} if self._cleared else {entry.source: entry for entry in self.store.all()}
        for source, entry in self._writes.items():
            if entry is None:
                found.pop(source, None)
            else:
                found[source] = entry
        return found

    def get(self, source: str) -> ManifestEntry | None:
        if source in self._writes:
            return self._writes[source]
        return None if self._cleared else self._live.get(source)

    def put(self, entry: ManifestEntry) -> None:
        self._writes[entry.source] = entry

    def remove(self, source: str) -> None:
        self._writes[source] = None

    def under(self, root: Path) -> list[ManifestEntry]:
        prefix = str(root).rstrip("/") + "/"
        return [
            entry
            for source, entry in self._entries().items()
            if source == str(root) or source.startswith(prefix)
        ]

    def sources(self) -> list[str]:
        return list(self._entries())

    def clear(self) -> None:
        self._cleared = True
        self._writes.clear()

    def __len__(self) -> int:
        return len(self._entries())

    def commit(self) -> None:
        """Write what the ingest recorded to the live manifest."""
        if self._cleared:
            self._live.clear()
        for source, entry in self._writes.items():
            if entry is None:
                self._live.remove(source)
            else:
                self._live.put(entry)
        self._writes.clear()
        self._cleared = False
