"""The vector store's contract: typed points, a hybrid query, hits, and the store protocol.

The knowledge base keeps every chunk as one point with two named vectors - `dense` (MiniLM,
unit length, compared by dot product, which is then the cosine) and `sparse` (character
n-grams, weighted by Qdrant's IDF modifier) - and a JSON payload. Two implementations speak
this contract: Qdrant Edge in-process (the embedded default) and a Qdrant server through
qdrant-client. Both create the same schema and fuse the two channels the same way: one
query per channel, then reciprocal rank fusion weighted per channel, RRF_K as in Qdrant,
with ties ranked by score alone (`knowledge.vectors.fusion`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from core.errors import BrainError

#: Name of the dense vector in the collection schema.
DENSE = "dense"
#: Name of the sparse vector in the collection schema.
SPARSE = "sparse"
#: Payload fields that get a keyword index (the fields searches filter on): the knowledge
#: base's, and the lesson index's teacher and asker (`brain.memory.index`).
INDEXED_FIELDS = ("domain", "kind", "source", "user", "asker")
#: Below this many (filtered) points Qdrant scores sparse vectors by scanning them instead of
#: through the inverted index. Qdrant's default (5,000) made the full scan the usual path
#: for a knowledge base of 1k chunks: 2.3 ms of CPU a sparse query, 0.5 ms with the index.
SPARSE_FULL_SCAN_THRESHOLD = 100
#: Qdrant's default RRF constant: a hit at rank r (from 0) scores 1 / ((r + 1) / weight + K - 1)
#: (`knowledge.vectors.fusion.rrf`).
RRF_K = 2

#: A payload filter: each field must take one of the allowed values.
Where = Mapping[str, Sequence[str]]


class StoreLockedError(BrainError, RuntimeError):
    """Another process holds the embedded store (its message says which and what to do)."""


@dataclass(frozen=True, slots=True)
class SparseVector:
    """Sorted-or-not index/value pairs of one sparse vector."""

    indices: Sequence[int]
    values: Sequence[float]


@dataclass(frozen=True, slots=True)
class VectorPoint:
    """One point to write: id (a UUID string), sparse vector, optional dense vector, payload."""

    point_id: str
    sparse: SparseVector
    payload: Mapping[str, Any]
    dense: Sequence[float] | None = None


@dataclass(frozen=True, slots=True)
class HybridQuery:
    """What to search with: either channel or both, each with its weight in the fusion."""

    dense: Sequence[float] | None = None
    sparse: SparseVector | None = None
    dense_weight: float = 1.0
    sparse_weight: float = 1.0
    #: Candidates each channel contributes to the fusion when both are queried.
    channel_limit: int = 40
    #: Return each hit's stored dense vector (when the dense channel is queried); a caller
    #: that has the vectors already skips fetching and converting them.
    with_dense: bool = True


@dataclass(slots=True)
class VectorHit:
    """A found point: its score (fused rank score, or the one channel's raw score), payload,
    and its stored dense vector when the dense channel was queried (for the caller's cosine)."""

    point_id: str
    score: float
    payload: dict[str, Any]
    dense: list[float] | None = None


@dataclass(frozen=True, slots=True)
class VectorRecord:
    """A stored point as scrolled: id and payload."""

    point_id: str
    payload: dict[str, Any] = field(default_factory=dict)


def dense_of(vectors: object) -> list[float] | None:
    """The dense vector in a point's named vectors, as returned by either Qdrant: a list of
    numbers, as floats; None when it is missing or holds anything else."""
    dense = vectors.get(DENSE) if isinstance(vectors, dict) else None
    if not isinstance(dense, list):
        return None
    # One pass in C (checking and converting each of 384 values in Python cost a fast-path
    # decision about a millisecond per hit): numbers give a numeric array, anything else not.
    try:
        array = np.asarray(dense)
    except ValueError:  # ragged
        return None
    if array.ndim == 1 and array.dtype.kind in "biuf":
        values: list[float] = array.astype(np.float64).tolist()
        return values
    if array.dtype.kind == "O" and all(isinstance(value, float | int) for value in dense):
        return [float(value) for value in dense]  # ints beyond int64
    return None


class VectorStore(Protocol):
    """One collection of points with a dense and a sparse channel."""

    @property
    def has_dense(self) -> bool:
        """Whether points carry (and queries may use) the dense vector."""
        ...

    def upsert(self, points: Sequence[VectorPoint]) -> None:
        """Write points, replacing any with the same id; durable when this returns."""
        ...

    def delete(self, point_ids: Sequence[str]) -> None:
        """Remove points by id; unknown ids are ignored."""
        ...

    def count(self, where: Where | None = None) -> int:
        """Exact number of points (matching `where`)."""
        ...

    def scroll(self, where: Where | None = None) -> Iterator[VectorRecord]:
        """Every point (matching `where`), in id order, with its payload."""
        ...

    def search(
        self, query: HybridQuery, *, limit: int, where: Where | None = None
    ) -> list[VectorHit]:
        """The best `limit` points, best first; both channels are fused, one is used as is."""
        ...

    def optimize(self) -> None:
        """Build the search indexes of points written since the last call (a server does
        this by itself; the embedded shard searches new points by scanning them until then)."""
        ...

    def close(self) -> None:
        """Release the store (and, embedded, its lock on the folder)."""
        ...


@runtime_checkable
class Rebuildable(VectorStore, Protocol):
    """A store whose collection can be rebuilt aside and swapped in at once for every reader
    (a Qdrant server's collection alias: `knowledge.vectors.server`)."""

    def rebuilding(self) -> AbstractContextManager[Rebuildable]:
        """A fresh collection of the same schema, swapped in when the block ends."""
        ...

    def copy_into(self, target: Rebuildable) -> int:
        """Copy every point (vectors included) into `target`; how many."""
        ...
