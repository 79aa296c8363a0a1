"""The knowledge base's chunks in the vector store: embedding, encoding and hybrid search.

A `KnowledgeStore` turns chunks into points (a MiniLM vector and a character n-gram sparse
vector each) and queries into a `HybridQuery` whose channels are weighted by the query's
language (`DENSE_WEIGHT`: MiniLM is English-only, so Chinese queries lean on the n-grams).
Which Qdrant stores the points - the embedded Qdrant Edge shard or a server - is the
`knowledge.vectors` factory's choice; both fuse the channels with weighted RRF themselves.

RRF scores are rank-based and say nothing about how relevant a hit is, so every `StoredHit`
also carries its dense cosine (when the store has dense vectors); `knowledge.relevance`
turns that and the text overlap into the 0..1 score callers see.

Equal RRF scores are common: at equal channel weights (English queries) rank r of one
channel ties rank r of the other. Qdrant orders such ties by point id, which says nothing
about relevance; here the hit closer in meaning (higher cosine) goes first, so a few more
hits than asked for are fetched to settle ties at the cut. (On the labelled queries with
1k chunks, id order lost 3 top-1 hits of 83 that this keeps.)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

import numpy as np

from core.text.language import DENSE_WEIGHT, detect_language
from core.text.sparse import SparseEncoder
from knowledge.chunk import Chunk
from knowledge.vector_cache import VectorCache
from knowledge.vectors import (
    HybridQuery,
    SparseVector,
    StoreLockedError,
    VectorHit,
    VectorPoint,
    VectorStore,
    open_vector_store,
)

if TYPE_CHECKING:
    from core.config import Settings
    from core.text.embedder import DenseEmbedder

__all__ = ["CHANNEL_LIMIT", "KnowledgeStore", "Mode", "StoreLockedError", "StoredHit"]


#: What a reader derives from the chunks (`KnowledgeStore.derived`).
_T = TypeVar("_T")

#: Candidates each channel contributes to the fusion.
CHANNEL_LIMIT = 40
#: Extra fused hits fetched so that ties at the cut are settled by the cosine.
TIE_SLACK = 5

Mode = Literal["hybrid", "dense", "sparse"]
_UNSET = object()


@dataclass(slots=True)
class StoredHit:
    """A retrieved chunk with its fused rank score and its raw channel scores."""

    chunk_id: str
    payload: dict[str, Any]
    fused: float
    dense: float | None = None
    extra: dict[str, float] = field(default_factory=dict)


class KnowledgeStore:
    """Chunks of the knowledge base in one vector store collection."""

    def __init__(self, vectors: VectorStore, embedder: DenseEmbedder | None) -> None:
        self.vectors = vectors
        self.has_dense = vectors.has_dense and embedder is not None
        self._embedder = embedder if self.has_dense else None
        self._sparse = SparseEncoder()
        self._precomputed: VectorCache | object | None = _UNSET
        #: Bumped on every write, so callers can invalidate caches.
        self.generation = 0
        #: What readers derived from the chunks (`derived`): name -> (generation, value).
        self._derived: dict[str, tuple[int, Any]] = {}
        self._derived_lock = threading.Lock()

    @classmethod
    def open(cls, settings: Settings, embedder: DenseEmbedder | None) -> KnowledgeStore:
        """Open the store configured in `settings` (embedded shard or server URL)."""
        dense_dim = embedder.dim if embedder is not None else None
        return cls(open_vector_store(settings, dense_dim=dense_dim), embedder)

    def over(self, vectors: VectorStore) -> KnowledgeStore:
        """The same embedding over another collection (an ingest built aside)."""
        return KnowledgeStore(vectors, self._embedder)

    @classmethod
    def open_local(
        cls, path: Path, collection: str, embedder: DenseEmbedder | None
    ) -> KnowledgeStore:
        """An embedded store in `path/collection` (benchmarks and tools); StoreLockedError
        if another process holds it."""
        from knowledge.vectors.edge import EdgeVectorStore

        dense_dim = embedder.dim if embedder is not None else None
        return cls(EdgeVectorStore.open(path / collection, dense_dim=dense_dim), embedder)

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
            elif self._embedder is not None:
                dense = self._embed([chunk.text for chunk in batch])
            points = []
            for row, chunk in enumerate(batch):
                indices, values = self._sparse.encode(chunk.text)
                points.append(
                    VectorPoint(
                        chunk.chunk_id,
                        SparseVector(indices, values),
                        chunk.payload,
                        None if dense is None else dense[row].tolist(),
                    )
                )
            self.vectors.upsert(points)
            self.generation += 1

    def _embed(self, texts: list[str]) -> np.ndarray:
        """Dense vectors of `texts`: the ones this very model computed ahead of time
        (`knowledge.vector_cache`, the shipped sample KB's), the rest embedded now."""
        assert self._embedder is not None
        if self._precomputed is _UNSET:
            self._precomputed = VectorCache.load(self._embedder.model_id)
        cache = self._precomputed
        if not isinstance(cache, VectorCache):
            return self._embedder.embed(texts)
        vectors, missing = cache.lookup(texts, self._embedder.dim)
        if missing:
            vectors[missing] = self._embedder.embed([texts[i] for i in missing])
        return vectors

    def delete(self, chunk_ids: Sequence[str]) -> None:
        """Remove points by id (unknown ids are ignored)."""
        if chunk_ids:
            self.vectors.delete(chunk_ids)
            self.generation += 1

    # -- reads ----------------------------------------------------------------------------

    def derived(self, name: str, build: Callable[[KnowledgeStore], _T]) -> _T:
        """What `build` reads from the chunks (the words the knowledge base writes, the
        glossary's names), kept under `name` until the next write (`generation`): every
        reader of the store keeps its reading one way."""
        with self._derived_lock:
            kept = self._derived.get(name)
            if kept is not None and kept[0] == self.generation:
                return cast("_T", kept[1])
        generation = self.generation
        value = build(self)
        with self._derived_lock:
            self._derived[name] = (generation, value)
        return value

    def count(self) -> int:
        """Number of stored chunks."""
        return self.vectors.count()

    def payloads(self, kind: str) -> list[dict[str, Any]]:
        """Payloads of every chunk of one kind (e.g. all glossary entries)."""
        return [record.payload for record in self.vectors.scroll({"kind": [kind]})]

    def records(self, where: Mapping[str, Sequence[str]]) -> list[tuple[str, dict[str, Any]]]:
        """(Chunk id, payload) of every chunk whose payload matches `where`, in id order."""
        return [(record.point_id, record.payload) for record in self.vectors.scroll(where)]

    def search(
        self,
        text: str,
        *,
        limit: int = 5,
        where: Mapping[str, Sequence[str]] | None = None,
        mode: Mode = "hybrid",
    ) -> list[StoredHit]:
        """The best chunks for `text`; `where` restricts payload fields to allowed values."""
        if not text.strip() or limit <= 0:
            return []
        use_dense = self._embedder is not None and mode != "sparse"
        use_sparse = mode != "dense" or not use_dense
        query_dense = self._embedder.embed_query(text) if self._embedder and use_dense else None
        query = HybridQuery(
            dense=None if query_dense is None else query_dense.tolist(),
            sparse=SparseVector(*self._sparse.encode(text)) if use_sparse else None,
            dense_weight=DENSE_WEIGHT.get(detect_language(text), 1.0),
            channel_limit=CHANNEL_LIMIT,
        )
        fused = query.dense is not None and query.sparse is not None
        hits = self.vectors.search(query, limit=limit + TIE_SLACK if fused else limit, where=where)
        stored = [_stored(hit, query_dense) for hit in hits]
        if fused:
            stored.sort(key=lambda hit: (-round(hit.fused, 6), -(hit.dense or 0.0)))
        return stored[:limit]

    def close(self) -> None:
        """Release the store (and the embedded shard's lock)."""
        self.vectors.close()


def _stored(hit: VectorHit, query_dense: np.ndarray | None) -> StoredHit:
    cosine = None
    if query_dense is not None and hit.dense is not None:
        cosine = float(np.dot(np.asarray(hit.dense, dtype=np.float32), query_dense))
    return StoredHit(chunk_id=hit.point_id, payload=hit.payload, fused=hit.score, dense=cosine)
