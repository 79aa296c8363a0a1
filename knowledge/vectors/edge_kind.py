"""The registration of the embedded Qdrant Edge store ("edge", the default)."""

from __future__ import annotations

import logging

from core.config import Settings
from knowledge.vectors.base import VectorStore
from knowledge.vectors.kinds import VectorCapabilities, VectorStoreKind

log = logging.getLogger(__name__)

#: The folder, under BRAIN_HOME, of the embedded shards (one per collection).
EMBEDDED_DIR = "vectors"
#: Where qdrant-client's local mode kept the store before Qdrant Edge replaced it.
LEGACY_LOCAL_DIR = "qdrant"


def _open(settings: Settings, name: str, dense_dim: int | None) -> VectorStore:
    """The shard of collection `name` under the home (StoreLockedError when another process
    holds it). The knowledge base's is shared by the process's brains on the same bytes; the
    memory's lesson index, written at most asks that teach, is opened as it is."""
    from knowledge.vectors.edge import EdgeVectorStore
    from knowledge.vectors.edge_shared import open_shared

    legacy = settings.path(LEGACY_LOCAL_DIR)
    if name == settings.knowledge.collection and (legacy / "meta.json").is_file():
        log.warning(
            "%s holds a knowledge store of the old local mode, which is no longer read: the "
            "knowledge base lives in %s and is rebuilt there from its manifest when empty. "
            "Delete %s to silence this.",
            legacy,
            settings.path(EMBEDDED_DIR),
            legacy,
        )
    path = settings.path(EMBEDDED_DIR) / name
    if name == settings.knowledge.collection:
        # Read through the process's one loaded copy of these bytes until the first write
        # (`knowledge.vectors.edge_shared`): a process opens many brains on one knowledge base.
        return open_shared(path, dense_dim=dense_dim)
    return EdgeVectorStore.open(path, dense_dim=dense_dim)


KIND = VectorStoreKind("edge", VectorCapabilities(in_home=True), _open)
