"""The vector store of the knowledge base: one protocol, two Qdrant implementations.

`open_vector_store` chooses by configuration: a Qdrant server when `knowledge.qdrant_url`
(`BRAIN_QDRANT_URL`) is set, otherwise the embedded Qdrant Edge shard under
`BRAIN_HOME/vectors/<collection>`. Everything else talks to the `VectorStore` protocol. The
knowledge base is one collection (`knowledge.collection`); the memory's lesson index
(`brain.memory.index`) is another on the same store, opened with `collection="memory"`.
"""

from __future__ import annotations

import logging
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

log = logging.getLogger(__name__)

#: The folder, under BRAIN_HOME, of the embedded shards (one per collection).
EMBEDDED_DIR = "vectors"
#: Where qdrant-client's local mode kept the store before Qdrant Edge replaced it.
LEGACY_LOCAL_DIR = "qdrant"


def open_vector_store(
    settings: Settings, *, dense_dim: int | None, collection: str | None = None
) -> VectorStore:
    """The configured store of one collection (default: the knowledge base's); `dense_dim`
    None means sparse only.

    Raises StoreLockedError when another process holds the embedded shard.
    """
    knowledge = settings.knowledge
    name = collection or knowledge.collection
    if knowledge.qdrant_url:
        from knowledge.vectors.server import ServerVectorStore

        api_key = knowledge.qdrant_api_key.get_secret_value() if knowledge.qdrant_api_key else None
        return ServerVectorStore.connect(
            knowledge.qdrant_url, name, dense_dim=dense_dim, api_key=api_key
        )
    from knowledge.vectors.edge import EdgeVectorStore

    legacy = settings.path(LEGACY_LOCAL_DIR)
    if name == knowledge.collection and (legacy / "meta.json").is_file():
        log.warning(
            "%s holds a knowledge store of the old local mode, which is no longer read: the "
            "knowledge base lives in %s and is rebuilt there from its manifest when empty. "
            "Delete %s to silence this.",
            legacy,
            settings.path(EMBEDDED_DIR),
            legacy,
        )
    return EdgeVectorStore.open(settings.path(EMBEDDED_DIR) / name, dense_dim=dense_dim)
