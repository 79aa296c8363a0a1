"""Qdrant Edge: the embedded vector store, Qdrant's own engine running in this process.

A shard is a folder with Qdrant's segments and write-ahead log, the same storage and search
code as a Qdrant server: sparse vectors scored with the IDF modifier, payload indexes; one
query per channel, fused by `knowledge.vectors.fusion`. Its WAL is locked by the process that
opened it, so one process serves a shard at a time; a second one gets `StoreLockedError` naming
the holder. Several processes share one store through a Qdrant server instead
(`BRAIN_QDRANT_URL`, `knowledge.vectors.server`).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import qdrant_edge as edge

from knowledge.vectors.base import (
    DENSE,
    INDEXED_FIELDS,
    SPARSE,
    SPARSE_FULL_SCAN_THRESHOLD,
    HybridQuery,
    StoreLockedError,
    VectorHit,
    VectorPoint,
    VectorRecord,
    Where,
    dense_of,
)
from knowledge.vectors.fusion import search_channels

log = logging.getLogger(__name__)

#: Points per scroll page.
SCROLL_PAGE = 512
#: The file the shard's lock is taken on, relative to the shard folder.
LOCK_FILE = "wal"
#: How Qdrant Edge reports that another handle holds the WAL lock.
_LOCKED = "WouldBlock"
#: How Qdrant reports a vector name the shard does not have.
_NO_VECTOR = "Not existing vector name"


class EdgeVectorStore:
    """One Qdrant Edge shard in a folder of its own."""

    def __init__(self, shard: edge.EdgeShard, *, has_dense: bool) -> None:
        self._shard = shard
        self._has_dense = has_dense
        self._lock = threading.RLock()

    @classmethod
    def open(cls, path: Path, *, dense_dim: int | None) -> EdgeVectorStore:
        """Open the shard in `path`, creating it with `dense_dim` (None: sparse only).

        An existing shard keeps its schema: one created without the dense vector is searched
        sparse-only, with a warning. Raises StoreLockedError when another process holds it.
        """
        try:
            if (path / "edge_config.json").is_file():
                shard = edge.EdgeShard.load(str(path))
                has_dense = dense_dim is not None and _has_dense(shard, dense_dim, path)
            else:
                path.mkdir(parents=True, exist_ok=True)
                shard = edge.EdgeShard.create(str(path), _config(dense_dim))
                for name in INDEXED_FIELDS:
                    shard.update(
                        edge.UpdateOperation.create_field_index(
                            name, edge.PayloadSchemaType.Keyword
                        )
                    )
                has_dense = dense_dim is not None
        except Exception as exc:  # qdrant_edge raises plain Exception
            if _LOCKED in str(exc):
                raise StoreLockedError(locked_message(path)) from None
            raise
        return cls(shard, has_dense=has_dense)

    @property
    def has_dense(self) -> bool:
        """Whether points carry the dense vector."""
        return self._has_dense

    def upsert(self, points: Sequence[VectorPoint]) -> None:
        """Write points (replacing same ids); the WAL makes them durable."""
        if not points:
            return
        converted = [
            edge.Point(point.point_id, self._vectors(point), dict(point.payload))
            for point in points
        ]
        with self._lock:
            self._shard.update(edge.UpdateOperation.upsert_points(converted))

    def _vectors(self, point: VectorPoint) -> dict[str, Any]:
        vectors: dict[str, Any] = {
            SPARSE: edge.SparseVector(list(point.sparse.indices), list(point.sparse.values))
        }
        if self._has_dense and point.dense is not None:
            vectors[DENSE] = [float(value) for value in point.dense]
        return vectors

    def delete(self, point_ids: Sequence[str]) -> None:
        """Remove points by id (unknown ids are ignored)."""
        if point_ids:
            with self._lock:
                self._shard.update(edge.UpdateOperation.delete_points(list(point_ids)))

    def count(self, where: Where | None = None) -> int:
        """Exact number of points (matching `where`)."""
        with self._lock:
            return self._shard.count(edge.CountRequest(filter=_filter(where), exact=True))

    def scroll(self, where: Where | None = None) -> Iterator[VectorRecord]:
        """Every point (matching `where`) with its payload, a page at a time."""
        offset: Any = None
        while True:
            request = edge.ScrollRequest(
                offset=offset, limit=SCROLL_PAGE, filter=_filter(where), with_payload=True
            )
            with self._lock:
                records, offset = self._shard.scroll(request)
            for record in records:
                yield VectorRecord(str(record.id), dict(record.payload or {}))
            if offset is None:
                return

    def search(
        self, query: HybridQuery, *, limit: int, where: Where | None = None
    ) -> list[VectorHit]:
        """Each queried channel, fused with weighted RRF (`knowledge.vectors.fusion`)."""
        dense = list(query.dense) if self._has_dense and query.dense is not None else None
        sparse = (
            None
            if query.sparse is None
            else edge.SparseVector(list(query.sparse.indices), list(query.sparse.values))
        )
        if limit <= 0:
            return []
        query_filter = _filter(where)
        with_vector: list[str] | bool = [DENSE] if dense is not None and query.with_dense else False
        nearest = partial(self._nearest, query_filter=query_filter, with_vector=with_vector)
        weights = (query.dense_weight, query.sparse_weight)
        return search_channels(
            nearest, dense, sparse, weights, page=query.channel_limit, limit=limit
        )

    def _nearest(
        self,
        vector: Any,
        using: str,
        limit: int,
        *,
        query_filter: edge.Filter | None,
        with_vector: list[str] | bool,
    ) -> list[VectorHit]:
        """One channel's best points, scored by that channel alone."""
        request = edge.QueryRequest(
            limit=limit,
            query=edge.Query.Nearest(vector, using=using),
            filter=query_filter,
            with_payload=True,
            with_vector=with_vector,
        )
        with self._lock:
            points = self._shard.query(request)
        return [_hit(point) for point in points]

    def optimize(self) -> None:
        """Run Qdrant's segment optimizers now (HNSW and payload indexes of new points)."""
        with self._lock:
            self._shard.optimize()

    def close(self) -> None:
        """Flush and close the shard, releasing its lock."""
        with self._lock:
            self._shard.close()


def _config(dense_dim: int | None) -> edge.EdgeConfig:
    """The collection schema: the embedder's unit vectors compared by dot product (the
    cosine without re-normalising), character n-grams weighted by Qdrant's IDF and searched
    through the inverted index."""
    vectors = (
        {DENSE: edge.EdgeVectorParams(size=dense_dim, distance=edge.Distance.Dot)}
        if dense_dim is not None
        else {}
    )
    return edge.EdgeConfig(
        vectors=vectors,
        sparse_vectors={
            SPARSE: edge.EdgeSparseVectorParams(
                modifier=edge.Modifier.Idf, full_scan_threshold=SPARSE_FULL_SCAN_THRESHOLD
            )
        },
    )


def _has_dense(shard: edge.EdgeShard, dense_dim: int, path: Path) -> bool:
    """Whether an existing shard has the dense vector (a probe query asks Qdrant itself)."""
    probe = edge.QueryRequest(limit=1, query=edge.Query.Nearest([0.0] * dense_dim, using=DENSE))
    try:
        shard.query(probe)
    except Exception as exc:  # qdrant_edge raises plain Exception
        if _NO_VECTOR not in str(exc):
            shard.close()
            raise
        log.warning(
            "the vector store %s was created without dense vectors; searching it sparse-only "
            "(delete the folder and run `brain ingest` again to add the dense channel)",
            path,
        )
        return False
    return True


def _filter(where: Where | None) -> edge.Filter | None:
    if not where:
        return None
    return edge.Filter(
        must=[
            edge.FieldCondition(key, match=edge.MatchAny(list(values)))
            for key, values in where.items()
        ]
    )


def _hit(point: edge.ScoredPoint) -> VectorHit:
    return VectorHit(
        point_id=str(point.id),
        score=float(point.score),
        payload=dict(point.payload or {}),
        dense=dense_of(point.vector),
    )


def lock_holders(lock_file: Path) -> list[int]:
    """Process ids, other than this one, that have `lock_file` open (Linux /proc)."""
    holders: list[int] = []
    target = str(lock_file.resolve())
    proc = Path("/proc")
    if not proc.is_dir():
        return holders
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            for fd in (entry / "fd").iterdir():
                if os.readlink(fd) == target:
                    holders.append(int(entry.name))
                    break
        except OSError:
            continue
    return holders


def locked_message(path: Path) -> str:
    """What holds the shard in `path` and what to do about it."""
    lock_file = path / LOCK_FILE
    holders = lock_holders(lock_file)
    who = f" by process {', '.join(map(str, holders))}" if holders else ""
    return (
        f"the vector store {path} is in use{who} (its write-ahead log {lock_file} is "
        "locked). The embedded Qdrant store serves one process at a time: stop the other "
        "brain process, or run a Qdrant server and set BRAIN_QDRANT_URL so that several "
        "processes can share it."
    )
