"""The knowledge base: embedders, the Qdrant store, ingestion, and the KB routing skill.

Import what you need from the submodules; `open_knowledge` is the usual way in. Importing this
package is cheap (nothing heavy is loaded until `open_knowledge` runs).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.config import Settings
    from knowledge.skill import KnowledgeSkill

__all__ = ["SAMPLE_DIR", "open_knowledge"]

#: The IT-operations knowledge base shipped with the project.
SAMPLE_DIR = Path(__file__).resolve().parent / "sample"


def open_knowledge(settings: Settings | None = None) -> KnowledgeSkill:
    """Open the configured store and, when it is empty, ingest the sample KB (if enabled).

    Raises `knowledge.store.StoreLockedError` when another process holds the local store.
    """
    from core.config import load_settings
    from core.text.embedder import get_dense_embedder
    from knowledge.manifest import DocManifest
    from knowledge.skill import KnowledgeSkill
    from knowledge.store import KnowledgeStore

    settings = settings or load_settings()
    store = KnowledgeStore.open(settings, get_dense_embedder(settings))
    skill = KnowledgeSkill(store, DocManifest.open(settings))
    if settings.knowledge.ingest_sample and store.count() == 0 and SAMPLE_DIR.is_dir():
        skill.ingest([SAMPLE_DIR], progress=False)
    return skill
