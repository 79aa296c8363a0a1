"""The vector store of the knowledge base: one protocol, two Qdrant implementations.

`open_vector_store` opens the one `[knowledge] vector_store` names (`knowledge.vectors.kinds`:
"edge", the embedded Qdrant Edge shard under `BRAIN_HOME/vectors/<collection>`, or "server", a
Qdrant server; unset, "server" when `knowledge.qdrant_url` (`BRAIN_QDRANT_URL`) is set).
Everything else talks to the `VectorStore` protocol. The knowledge base is one collection
(`knowledge.collection`); the memory's lesson index (`brain.memory.index`) is another on the
same store, opened with `collection="memory"`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from knowledge.vectors.base import (
    DENSE,
    SPARSE,
    HybridQuery,
    SparseVector,
    StoreLockedError,
    VectorHit,
    VectorPoint,
    VectorRecord,
    VectorStore,
    Where,
)

if TYPE_CHECKING:
    from core.config import Settings

__all__ = [
    "DENSE",
    "SPARSE",
    "HybridQuery",
    "SparseVector",
    "StoreLockedError",
    "VectorHit",
    "VectorPoint",
    "VectorRecord",
    "VectorStore",
    "Where",
    "open_vector_store",
]


def open_vector_store(
    settings: Settings, *, dense_dim: int | None, collection: str | None = None
) -> VectorStore:
    """The configured store of one collection (default: the knowledge base's); `dense_dim`
    None means sparse only.

    Raises StoreLockedError when another process holds the embedded shard.
    """
    from knowledge.vectors.kinds import chosen_vector_store, vector_store_kind

    kind = vector_store_kind(chosen_vector_store(settings))
    return kind.open(settings, collection or settings.knowledge.collection, dense_dim)
