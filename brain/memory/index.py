"""The lesson index: every lesson a point of the Qdrant `memory` collection, recalled by it.

Each lesson's embedding (`dense`) and character 2-3-gram vector (`sparse`) is a point on the
same vector store as the knowledge base (`knowledge.vectors.open_vector_store`: the embedded
Qdrant Edge shard `BRAIN_HOME/vectors/memory`, or the collection `memory` on the Qdrant server
of `BRAIN_QDRANT_URL`). Its payload holds who taught the lesson and whose message it is about,
never a word of the message. A look-up asks Qdrant for the nearest lessons twice, with a
payload filter on the asker's own lessons and without one (the organisation's, for
agreement), and scores only those exactly (`brain.memory.scan.similarity`).

The lesson records are the truth and the index is derived from them: a meta point keeps the
record store's change-feed version it reflects, so an index that is missing, of another
schema, or behind by more than the feed remembers is rebuilt from the records, and one a
little behind takes in the changed lessons (`brain.memory.lessons.LessonRecall.open_index`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from brain.memory.entry import TEXT_CAP
from core.text.sparse import SparseEncoder
from knowledge.vectors import HybridQuery, SparseVector, StoreLockedError, VectorPoint

if TYPE_CHECKING:
    from brain.memory.entry import Lesson
    from knowledge.vectors import VectorStore

log = logging.getLogger(__name__)

#: The collection's name on the vector store.
MEMORY_COLLECTION = "memory"
#: What the points hold; another value rebuilds the index.
SCHEMA = 1
#: The id and `kind` of the point that records the index's state.
META_ID = "00000000-0000-4000-8000-00000000a11d"
META_KIND = "lesson-index"
#: Points written per upsert while rebuilding.
BATCH = 1000
#: Points written since the last optimization after which the shard is optimized again.
OPTIMIZE_AFTER = 2000
#: Nearest lessons asked for: the asker's own, and everyone's.
OWN_LIMIT, ALL_LIMIT = 16, 48
#: Candidates each channel contributes before the fusion.
CHANNEL_LIMIT = 48

_SPARSE = SparseEncoder(2, 3)


def sparse_of(text: str) -> SparseVector:
    """The lesson's character 2-3-grams as a sparse vector (the n-grams it is compared by)."""
    indices, values = _SPARSE.encode(text[:TEXT_CAP])
    return SparseVector(indices, values)


class LessonIndex:
    """The `memory` collection of lesson points and its meta point."""

    def __init__(self, vectors: VectorStore) -> None:
        self.vectors = vectors
        self._unoptimized = 0

    @classmethod
    def open(cls, opener: Callable[[], VectorStore], *, strict: bool = False) -> LessonIndex | None:
        """The index, or None when this process cannot hold it (another process holds the
        embedded shard: it takes this process's lessons in through the change feed);
        `strict` raises StoreLockedError instead."""
        try:
            return cls(opener())
        except StoreLockedError as exc:
            if strict:
                raise
            log.info("lesson index held by another process; matching lessons in memory (%s)", exc)
        except Exception as exc:  # the records still hold every lesson
            log.warning("could not open the lesson index (%s: %s)", type(exc).__name__, exc)
        return None

    # -- state ------------------------------------------------------------------------------
    def state(self) -> int | None:
        """The change-feed version the index reflects; None when unknown or of another schema."""
        for record in self.vectors.scroll({"kind": [META_KIND]}):
            if record.point_id == META_ID and record.payload.get("schema") == SCHEMA:
                return int(record.payload.get("version", -1))
        return None

    def mark(self, version: int) -> None:
        """Record that the index reflects the lessons as of change-feed `version`."""
        payload = {"kind": META_KIND, "schema": SCHEMA, "version": version}
        self.vectors.upsert([VectorPoint(META_ID, SparseVector([], []), payload)])

    def lessons(self) -> int:
        """How many lesson points there are."""
        return self.vectors.count() - self.vectors.count({"kind": [META_KIND]})

    # -- writes -----------------------------------------------------------------------------
    def put(self, entries: Sequence[Lesson]) -> None:
        """Write lesson points (replacing same ids)."""
        for start in range(0, len(entries), BATCH):
            self.vectors.upsert([self._point(e) for e in entries[start : start + BATCH]])
        self._unoptimized += len(entries)
        if self._unoptimized >= OPTIMIZE_AFTER:
            self.optimize()

    def _point(self, entry: Lesson) -> VectorPoint:
        dense = None
        if self.vectors.has_dense and entry.vector is not None:
            dense = [float(value) for value in entry.vector]
        return VectorPoint(
            entry.memory_id,
            sparse_of(entry.text),
            {"kind": entry.kind, "user": entry.user, "asker": entry.asker},
            dense=dense,
        )

    def delete(self, memory_ids: Iterable[str]) -> None:
        self.vectors.delete([m for m in memory_ids if m != META_ID])

    def clear(self) -> None:
        """Remove every point (before a rebuild)."""
        ids = [record.point_id for record in self.vectors.scroll()]
        for start in range(0, len(ids), BATCH):
            self.vectors.delete(ids[start : start + BATCH])

    def optimize(self) -> None:
        """Index the points written since the last call (HNSW and payload indexes)."""
        self._unoptimized = 0
        try:
            self.vectors.optimize()
        except Exception as exc:  # searching still works, by scanning the new points
            log.warning("could not optimize the lesson index: %s", exc)

    # -- reads ------------------------------------------------------------------------------
    def nearest(
        self,
        text: str,
        *,
        vector: np.ndarray | None,
        user: str | None,
        with_dense: bool = True,
    ) -> dict[str, list[float] | None]:
        """The lessons nearest to a message, the asker's own and everyone's: id -> the stored
        embedding (when the dense channel was asked and `with_dense`), which lessons recorded
        without a vector (feedback from the CLI) are then compared by. Fetching and converting
        the stored vectors cost most of a look-up: ask for them only when some are missing."""
        query = HybridQuery(
            dense=None if vector is None else vector.astype(np.float32).tolist(),
            sparse=sparse_of(text),
            channel_limit=CHANNEL_LIMIT,
            with_dense=with_dense,
        )
        hits = self.vectors.search(query, limit=ALL_LIMIT)
        if user:
            hits += self.vectors.search(query, limit=OWN_LIMIT, where={"user": [user]})
        return {hit.point_id: hit.dense for hit in hits if hit.point_id != META_ID}

    def points_of(self, user: str) -> list[str]:
        """Ids of the points taught by `user` or about their messages (forget checks it)."""
        ids = {r.point_id for r in self.vectors.scroll({"user": [user]})}
        ids |= {r.point_id for r in self.vectors.scroll({"asker": [user]})}
        return sorted(ids)

    def close(self) -> None:
        try:
            self.vectors.close()
        except Exception as exc:
            log.warning("closing the lesson index: %s", exc)
