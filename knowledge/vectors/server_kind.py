"""The registration of a Qdrant server through qdrant-client ("server")."""

from __future__ import annotations

from core.config import Settings
from core.errors import ConfigError
from knowledge.vectors.base import VectorStore
from knowledge.vectors.kinds import VectorCapabilities, VectorStoreKind


def _open(settings: Settings, name: str, dense_dim: int | None) -> VectorStore:
    from knowledge.vectors.server import ServerVectorStore

    knowledge = settings.knowledge
    if not knowledge.qdrant_url:
        raise ConfigError("vector store 'server' needs qdrant_url (BRAIN_QDRANT_URL)")
    api_key = knowledge.qdrant_api_key.get_secret_value() if knowledge.qdrant_api_key else None
    return ServerVectorStore.connect(
        knowledge.qdrant_url, name, dense_dim=dense_dim, api_key=api_key
    )


KIND = VectorStoreKind("server", VectorCapabilities(shared=True), _open)
