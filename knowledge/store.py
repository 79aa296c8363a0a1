"""The Qdrant store of knowledge chunks: named dense + sparse vectors, hybrid search.

Local mode (a folder under `BRAIN_HOME`) by default; a Qdrant server when
`knowledge.qdrant_url` / `BRAIN_QDRANT_URL` is set. Both go through `QdrantClient` and the same
methods. Hybrid search fuses the dense and the sparse channel with reciprocal rank fusion,
weighted by the query's language (`DENSE_WEIGHT`): on a server with one `query_points` call
(two prefetches + an RRF query); in local mode both channels are scored by `LocalIndex` (see
there why) and fused by the very RRF function qdrant-client's local mode uses.

RRF scores are rank-based and say nothing about how relevant a hit is, so every `StoredHit`
also carries its dense cosine (when the store has dense vectors); `knowledge.relevance`
turns that and the text overlap into the 0..1 score callers see.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from qdrant_client import QdrantClient, models
from qdrant_client.hybrid.fusion import reciprocal_rank_fusion

from core.text.language import DENSE_WEIGHT, detect_language
from core.text.sparse import SparseEncoder
from knowledge.chunk import Chunk
from knowledge.local_index import LocalIndex

if TYPE_CHECKING:
    from core.config import Settings
    from core.text.embedder import DenseEmbedder

log = logging.getLogger(__name__)

DENSE = "dense"
SPARSE = "sparse"
#: Candidates each channel contributes to the fusion.
CHANNEL_LIMIT = 40
#: Payload fields the local index can filter on.
FILTER_FIELDS = ("domain", "kind")

Mode = Literal["hybrid", "dense", "sparse"]
#: Internal payload key carrying a dense channel score to `_to_hit` (never stored).
_COSINE = "__cosine__"


class StoreLockedError(RuntimeError):
    """Another process holds the local Qdrant folder."""


@dataclass(slots=True)
class StoredHit:
    """A retrieved chunk with its fused rank score and its raw channel scores."""

    chunk_id: str
    payload: dict[str, Any]
    fused: float
    dense: float | None = None
    extra: dict[str, float] = field(default_factory=dict)


def _lock_holders(lock_file: Path) -> list[int]:
    """Process ids that have `lock_file` open (Linux /proc; empty when not visible)."""
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


def _locked_message(path: Path) -> str:
    lock_file = path / ".lock"
    holders = _lock_holders(lock_file)
    who = f" by process {', '.join(map(str, holders))}" if holders else ""
    return (
        f"the knowledge store {path} is in use{who} (lock file {lock_file}). "
        "Local Qdrant serves one process at a time: stop the other brain process, or run a "
        "Qdrant server and set BRAIN_QDRANT_URL so that several processes can share it."
    )


class KnowledgeStore:
    """Chunks of the knowledge base in one Qdrant collection."""

    def __init__(
        self,
        client: QdrantClient,
        collection: str,
        embedder: DenseEmbedder | None,
        *,
        local: bool,
    ) -> None:
        self._client = client
        self.collection = collection
        self._embedder = embedder
        self._sparse = SparseEncoder()
        self._lock = threading.RLock()
        self.local = local
        self._index: LocalIndex | None = LocalIndex() if local else None
        #: Bumped on every write, so callers can invalidate caches.
        self.generation = 0
        self.has_dense = self._ensure_collection()
        if self._index is not None:
            self._fast_local_commits()
            self._load_index()

    @classmethod
    def open(cls, settings: Settings, embedder: DenseEmbedder | None) -> KnowledgeStore:
        """Open the store configured in `settings` (local folder or server URL)."""
        knowledge = settings.knowledge
        if knowledge.qdrant_url:
            api_key = (
                knowledge.qdrant_api_key.get_secret_value() if knowledge.qdrant_api_key else None
            )
            client = QdrantClient(url=knowledge.qdrant_url, api_key=api_key)
            return cls(client, knowledge.collection, embedder, local=False)
        return cls.open_local(settings.path("qdrant"), knowledge.collection, embedder)

    @classmethod
    def open_local(
        cls, path: Path, collection: str, embedder: DenseEmbedder | None
    ) -> KnowledgeStore:
        """Open (creating) a local-mode store in `path`; StoreLockedError if it is in use."""
        path.mkdir(parents=True, exist_ok=True)
        try:
            client = QdrantClient(path=str(path))
        except RuntimeError as exc:
            if "already accessed by another instance" in str(exc):
                raise StoreLockedError(_locked_message(path)) from None
            raise
        return cls(client, collection, embedder, local=True)

    # -- schema ---------------------------------------------------------------------------

    def _ensure_collection(self) -> bool:
        if not self._client.collection_exists(self.collection):
            vectors: dict[str, models.VectorParams] = {}
            if self._embedder is not None:
                # The embedder returns unit vectors, so the dot product IS the cosine; local
                # Qdrant re-normalises every stored vector on each COSINE query (45 ms at 10k).
                vectors[DENSE] = models.VectorParams(
                    size=self._embedder.dim, distance=models.Distance.DOT
                )
            self._client.create_collection(
                self.collection,
                vectors_config=vectors,
                sparse_vectors_config={
                    SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)
                },
            )
            for name in () if self.local else ("domain", "kind", "source"):
                self._client.create_payload_index(
                    self.collection, name, models.PayloadSchemaType.KEYWORD
                )
        info = self._client.get_collection(self.collection)
        params = info.config.params.vectors
        has_dense_vectors = isinstance(params, dict) and DENSE in params
        if self._embedder is not None and not has_dense_vectors:
            log.warning(
                "collection %r was created without dense vectors; searching it sparse-only "
                "(delete %s to rebuild it with the dense channel)",
                self.collection,
                "the qdrant folder" if self.local else "the collection",
            )
        return self._embedder is not None and has_dense_vectors

    def _fast_local_commits(self) -> None:
        """Switch the local collection's SQLite file to WAL with synchronous=NORMAL.

        qdrant-client's local mode commits every point in its own SQLite transaction; in the
        default rollback-journal mode each costs several fsyncs (measured 52 points/s, 920
        with WAL + NORMAL). WAL stays consistent after a process crash; a power cut may lose
        the last commits, which the next `brain ingest` of a changed file redoes. This reaches
        into qdrant-client internals, so any surprise leaves the defaults in place.
        """
        try:
            local = getattr(self._client, "_client", None)
            collection = getattr(local, "collections", {})[self.collection]
            connection = collection.storage.storage
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")
        except (AttributeError, KeyError, TypeError, sqlite3.Error) as exc:
            log.debug("local Qdrant storage left in its default mode: %s", exc)

    def _load_index(self) -> None:
        assert self._index is not None
        for point in self._scroll(with_vectors=[SPARSE, DENSE] if self.has_dense else [SPARSE]):
            vectors = point.vector if isinstance(point.vector, dict) else {}
            sparse_vector = vectors.get(SPARSE)
            dense_vector = vectors.get(DENSE)
            if isinstance(sparse_vector, models.SparseVector):
                self._index.put(
                    str(point.id),
                    sparse_vector.indices,
                    sparse_vector.values,
                    None if dense_vector is None else np.asarray(dense_vector, dtype=np.float32),
                    self._tags(point.payload),
                )

    @staticmethod
    def _tags(payload: dict[str, Any] | None) -> dict[str, str]:
        payload = payload or {}
        return {name: str(payload.get(name, "")) for name in FILTER_FIELDS}

    # -- writes ---------------------------------------------------------------------------

    def upsert(
        self,
        chunks: Sequence[Chunk],
        *,
        batch_size: int = 256,
        vectors: np.ndarray | None = None,
    ) -> None:
        """Embed and write chunks (replacing points with the same ids).

        `vectors` are precomputed dense embeddings, one row per chunk (used by benchmarks to
        synthesise large stores); by default the store's embedder computes them.
        """
        if vectors is not None and len(vectors) != len(chunks):
            raise ValueError(f"{len(vectors)} vectors for {len(chunks)} chunks")
        for start in range(0, len(chunks), batch_size):
            batch = chunks[start : start + batch_size]
            dense: np.ndarray | None = None
            if self.has_dense and vectors is not None:
                dense = vectors[start : start + batch_size]
            elif self.has_dense and self._embedder is not None:
                dense = self._embedder.embed([chunk.text for chunk in batch])
            encoded = [self._sparse.encode(chunk.text) for chunk in batch]
            points = []
            for row, (chunk, (indices, values)) in enumerate(zip(batch, encoded, strict=True)):
                vector: dict[str, Any] = {
                    SPARSE: models.SparseVector(indices=indices, values=values)
                }
                if dense is not None:
                    vector[DENSE] = dense[row].tolist()
                points.append(
                    models.PointStruct(id=chunk.chunk_id, vector=vector, payload=chunk.payload)
                )
            with self._lock:
                self._client.upsert(self.collection, points, wait=True)
                if self._index is not None:
                    for row, (chunk, (indices, values)) in enumerate(
                        zip(batch, encoded, strict=True)
                    ):
                        self._index.put(
                            chunk.chunk_id,
                            indices,
                            values,
                            None if dense is None else dense[row],
                            self._tags(chunk.payload),
                        )
                self.generation += 1

    def delete(self, chunk_ids: Sequence[str]) -> None:
        """Remove points by id (unknown ids are ignored)."""
        if not chunk_ids:
            return
        with self._lock:
            self._client.delete(
                self.collection, models.PointIdsList(points=list(chunk_ids)), wait=True
            )
            if self._index is not None:
                self._index.remove(chunk_ids)
            self.generation += 1

    # -- reads ----------------------------------------------------------------------------

    def count(self) -> int:
        """Number of stored chunks."""
        with self._lock:
            return self._client.count(self.collection, exact=True).count

    def _scroll(
        self,
        scroll_filter: models.Filter | None = None,
        with_vectors: bool | list[str] = False,
    ) -> Iterator[models.Record]:
        offset: Any = None
        while True:
            with self._lock:
                records, offset = self._client.scroll(
                    self.collection,
                    scroll_filter=scroll_filter,
                    limit=512,
                    offset=offset,
                    with_payload=True,
                    with_vectors=with_vectors,
                )
            yield from records
            if offset is None:
                return

    def payloads(self, kind: str) -> list[dict[str, Any]]:
        """Payloads of every chunk of one kind (e.g. all glossary entries)."""
        return [dict(record.payload or {}) for record in self._scroll(_filter({"kind": [kind]}))]

    def search(
        self,
        text: str,
        *,
        limit: int = 5,
        where: Mapping[str, Sequence[str]] | None = None,
        mode: Mode = "hybrid",
        native: bool = False,
    ) -> list[StoredHit]:
        """The best chunks for `text`; `where` restricts payload fields to allowed values.

        `native=True` makes local mode run the server path too (Qdrant scores the sparse
        channel itself): the benchmark's baseline, slow on large local stores.
        """
        if not text.strip() or limit <= 0:
            return []
        use_dense = self.has_dense and mode != "sparse"
        use_sparse = mode != "dense" or not self.has_dense
        query_dense = (
            self._embedder.embed_query(text) if use_dense and self._embedder is not None else None
        )
        indices, values = self._sparse.encode(text)
        query_sparse = models.SparseVector(indices=indices, values=values)
        query_filter = _filter(where)
        channel_limit = max(CHANNEL_LIMIT, limit)
        weights = (DENSE_WEIGHT.get(detect_language(text), 1.0), 1.0)
        with self._lock:
            if self._index is None or native:
                points = self._search_qdrant(
                    query_dense if use_dense else None,
                    query_sparse if use_sparse else None,
                    query_filter,
                    limit,
                    channel_limit,
                    weights,
                )
            else:
                points = self._search_local(
                    query_dense if use_dense else None,
                    query_sparse if use_sparse else None,
                    where,
                    limit,
                    channel_limit,
                    weights,
                )
        return [self._to_hit(point, query_dense) for point in points]

    def _search_qdrant(
        self,
        dense: np.ndarray | None,
        sparse_query: models.SparseVector | None,
        query_filter: models.Filter | None,
        limit: int,
        channel_limit: int,
        weights: tuple[float, float],
    ) -> list[models.ScoredPoint]:
        """Qdrant scores and fuses (a server; or local mode for the benchmark baseline)."""
        with_vectors: bool | list[str] = [DENSE] if dense is not None else False
        # Weighted RRF needs a recent server; equal weights use the long-standing FusionQuery.
        fusion: models.FusionQuery | models.RrfQuery = (
            models.FusionQuery(fusion=models.Fusion.RRF)
            if weights[0] == weights[1]
            else models.RrfQuery(rrf=models.Rrf(weights=list(weights)))
        )
        if dense is not None and sparse_query is not None:
            response = self._client.query_points(
                self.collection,
                prefetch=[
                    models.Prefetch(
                        query=dense.tolist(), using=DENSE, filter=query_filter, limit=channel_limit
                    ),
                    models.Prefetch(
                        query=sparse_query, using=SPARSE, filter=query_filter, limit=channel_limit
                    ),
                ],
                query=fusion,
                limit=limit,
                with_payload=True,
                with_vectors=with_vectors,
            )
        elif dense is not None:
            response = self._client.query_points(
                self.collection,
                query=dense.tolist(),
                using=DENSE,
                query_filter=query_filter,
                limit=limit,
                with_payload=True,
                with_vectors=with_vectors,
            )
        else:
            response = self._client.query_points(
                self.collection,
                query=sparse_query,
                using=SPARSE,
                query_filter=query_filter,
                limit=limit,
                with_payload=True,
            )
        return list(response.points)

    def _search_local(
        self,
        dense: np.ndarray | None,
        sparse_query: models.SparseVector | None,
        where: Mapping[str, Sequence[str]] | None,
        limit: int,
        channel_limit: int,
        weights: tuple[float, float],
    ) -> list[models.ScoredPoint]:
        """Local mode: both channels scored by the local index, payloads read from Qdrant."""
        assert self._index is not None
        index = self._index
        channels: list[list[models.ScoredPoint]] = []
        if dense is not None:
            wanted = channel_limit if sparse_query is not None else limit
            ranked = index.search_dense(dense, limit=wanted, where=where)
            channels.append(
                [models.ScoredPoint(id=pid, version=0, score=score) for pid, score in ranked]
            )
        if sparse_query is not None:
            ranked = index.search_sparse(
                sparse_query.indices, sparse_query.values, limit=channel_limit, where=where
            )
            channels.append(
                [models.ScoredPoint(id=pid, version=0, score=score) for pid, score in ranked]
            )
        if len(channels) == 1:
            points = channels[0][:limit]
        else:
            points = reciprocal_rank_fusion(channels, limit=limit, weights=list(weights))
        if not points:
            return []
        records = {
            str(record.id): record
            for record in self._client.retrieve(
                self.collection, [str(point.id) for point in points], with_payload=True
            )
        }
        found = []
        for point in points:
            record = records.get(str(point.id))
            if record is None:
                continue
            payload = dict(record.payload or {})
            vector = index.dense_of(str(point.id))
            if dense is not None and vector is not None:
                payload[_COSINE] = float(np.dot(vector, dense))
            point.payload = payload
            found.append(point)
        return found

    @staticmethod
    def _to_hit(point: models.ScoredPoint, query_dense: np.ndarray | None) -> StoredHit:
        payload = dict(point.payload or {})
        cosine = payload.pop(_COSINE, None)
        vector = point.vector.get(DENSE) if isinstance(point.vector, dict) else None
        if cosine is None and query_dense is not None and vector is not None:
            cosine = float(np.dot(np.asarray(vector, dtype=np.float32), query_dense))
        return StoredHit(
            chunk_id=str(point.id),
            payload=payload,
            fused=float(point.score),
            dense=None if cosine is None else float(cosine),
        )

    def close(self) -> None:
        """Release the client (and the local folder lock)."""
        with self._lock:
            self._client.close()


def _filter(where: Mapping[str, Sequence[str]] | None) -> models.Filter | None:
    if not where:
        return None
    return models.Filter(
        must=[
            models.FieldCondition(key=key, match=models.MatchAny(any=list(values)))
            for key, values in where.items()
        ]
    )
