"""The knowledge base: embedders, the Qdrant store, ingestion, and the KB routing skill.

Import what you need from the submodules; `open_knowledge` is the usual way in. Importing this
package is cheap (nothing heavy is loaded until `open_knowledge` runs).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from core.progress import step

if TYPE_CHECKING:
    from core.config import Settings
    from knowledge.manifest import DocManifest
    from knowledge.skill import KnowledgeSkill

__all__ = ["SAMPLE_DIR", "open_knowledge"]

log = logging.getLogger(__name__)

#: The IT-operations knowledge base shipped with the project.
SAMPLE_DIR = Path(__file__).resolve().parent / "sample"


def open_knowledge(settings: Settings | None = None) -> KnowledgeSkill:
    """Open the configured store; when it is empty, rebuild it from the KB manifest (the
    documents ingested before, e.g. into a store of an older format) or else ingest the
    sample KB (if enabled).

    Raises `knowledge.store.StoreLockedError` when another process holds the embedded store.
    """
    from core.config import load_settings
    from core.text.embedder import get_dense_embedder
    from knowledge.manifest import DocManifest
    from knowledge.skill import KnowledgeSkill
    from knowledge.store import KnowledgeStore

    settings = settings or load_settings()
    store = KnowledgeStore.open(settings, get_dense_embedder(settings))
    manifest = DocManifest.open(settings)
    skill = KnowledgeSkill(store, manifest, max_file_chunks=settings.knowledge.max_file_chunks)
    if store.count() == 0 and len(manifest):
        _rebuild(skill, manifest)
    if settings.knowledge.ingest_sample and store.count() == 0 and SAMPLE_DIR.is_dir():
        with step("ingesting the sample knowledge base (first use)"):
            skill.ingest([SAMPLE_DIR], progress=False)
    return skill


def _rebuild(skill: KnowledgeSkill, manifest: DocManifest) -> None:
    """Re-ingest every source the manifest lists into the empty store (missing ones are
    forgotten), so the knowledge base survives a new or wiped store."""
    sources = [Path(source) for source in manifest.sources()]
    manifest.clear()
    present = [source for source in sources if source.is_file()]
    log.warning(
        "the knowledge store is empty but %d documents were ingested before; re-ingesting "
        "the %d that still exist",
        len(sources),
        len(present),
    )
    if present:
        skill.ingest(present, progress=False)
