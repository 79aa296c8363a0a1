"""Which vector store the configuration opens, and the move from the old local-mode store."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from core.config import load_settings
from knowledge import open_knowledge
from knowledge.vectors import open_vector_store
from knowledge.vectors.edge import EdgeVectorStore
from knowledge.vectors.server import ServerVectorStore


def test_embedded_edge_store_by_default(empty_home: Path) -> None:
    store = open_vector_store(load_settings(), dense_dim=4)
    try:
        assert isinstance(store, EdgeVectorStore)
        assert (empty_home / "vectors" / "knowledge" / "edge_config.json").is_file()
    finally:
        store.close()


def test_a_server_url_selects_the_server_store(
    empty_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, str, int | None, str | None]] = []

    def connect(
        url: str, collection: str, *, dense_dim: int | None, api_key: str | None = None
    ) -> ServerVectorStore:
        calls.append((url, collection, dense_dim, api_key))
        return ServerVectorStore.local(":memory:", collection, dense_dim=dense_dim)

    monkeypatch.setattr(ServerVectorStore, "connect", staticmethod(connect))
    monkeypatch.setenv("BRAIN_QDRANT_URL", "http://qdrant.internal:6333")
    monkeypatch.setenv("BRAIN_QDRANT_API_KEY", "secret-key")
    store = open_vector_store(load_settings(), dense_dim=4)
    store.close()
    assert calls == [("http://qdrant.internal:6333", "knowledge", 4, "secret-key")]
    assert not (empty_home / "vectors").exists()


def test_a_home_of_the_old_local_mode_is_rebuilt_from_its_manifest(
    empty_home: Path,
    small_kb: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setenv("BRAIN_EMBEDDER", "none")
    skill = open_knowledge(load_settings())
    assert skill.ingest([small_kb], progress=False).exit_code == 0
    count = skill.store.count()
    assert skill.manifest is not None
    notes = skill.manifest.get(str(small_kb / "notes.txt"))
    assert notes is not None
    skill.close()
    # a home written by qdrant-client's local mode: its folder, and no embedded shard yet
    old = empty_home / "qdrant"
    old.mkdir()
    (old / "meta.json").write_text('{"collections": {"knowledge": {}}}', encoding="utf-8")
    (small_kb / "notes.txt").unlink()  # gone since it was ingested
    shutil.rmtree(empty_home / "vectors")

    with caplog.at_level(logging.WARNING, logger="knowledge"):
        skill = open_knowledge(load_settings())
    try:
        assert skill.store.count() == count - len(notes.chunk_ids)
        assert Path(skill.search("paper jam in the printer", k=1)[0].source).name == "printer.md"
        assert skill.define("rollover") is not None
        messages = " ".join(record.getMessage() for record in caplog.records)
        assert str(old) in messages and "re-ingesting the 3 that still exist" in messages
    finally:
        skill.close()
