"""`brain ingest` on a Qdrant server (qdrant-client's local mode, which speaks its API): the
ingest is built in a new collection and swapped in through the collection alias, so every
replica sees the old knowledge base or the new one, never a half-built one; a failed ingest
changes neither the collection nor the manifest."""

from __future__ import annotations

from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from core.config import Settings
from knowledge import ingest as ingest_module
from knowledge.manifest import DocManifest
from knowledge.skill import KnowledgeSkill
from knowledge.store import KnowledgeStore
from knowledge.vectors.server import ServerVectorStore


def _doc(folder: Path, name: str, body: str) -> None:
    (folder / name).write_text(f"# {name}\n\n{body}\n", encoding="utf-8")


def _sources(store: ServerVectorStore) -> set[str]:
    return {Path(str(r.payload.get("source", ""))).name for r in store.scroll()}


@pytest.fixture
def client() -> QdrantClient:
    return QdrantClient(location=":memory:")


def _skill(client: QdrantClient, home: Path) -> tuple[KnowledgeSkill, DocManifest]:
    vectors = ServerVectorStore(client, "knowledge", dense_dim=None, index_payload=False)
    manifest = DocManifest.open(Settings(home=home))
    return KnowledgeSkill(KnowledgeStore(vectors, None), manifest), manifest


def test_an_ingest_is_swapped_in_through_the_alias(client: QdrantClient, tmp_path: Path) -> None:
    docs = tmp_path / "kb"
    docs.mkdir()
    _doc(docs, "vpn.md", "Reconnect the VPN client when error 691 shows.")
    _doc(docs, "printer.md", "Clear the paper tray of the floor 3 printer.")
    skill, manifest = _skill(client, tmp_path / "home")
    reader = ServerVectorStore(client, "knowledge", dense_dim=None, index_payload=False)

    first = skill.ingest([docs], progress=False)
    assert sorted(Path(s).name for s in first.added) == ["printer.md", "vpn.md"]
    live = reader.target()
    assert live != "knowledge"  # the name is an alias of a built collection now
    assert _sources(reader) == {"printer.md", "vpn.md"}

    seen_during: list[set[str]] = []
    real_flush = ingest_module.Ingestor._flush

    def watched(self: ingest_module.Ingestor, *args: object, **kwargs: object) -> None:
        real_flush(self, *args, **kwargs)  # type: ignore[arg-type]
        seen_during.append(_sources(reader))

    _doc(docs, "vpn.md", "Reinstall the VPN client when error 691 persists.")
    (docs / "printer.md").unlink()
    _doc(docs, "laptop.md", "Laptops that will not boot go to the service desk.")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ingest_module.Ingestor, "_flush", watched)
        second = skill.ingest([docs], progress=False)
    assert [Path(s).name for s in second.updated] == ["vpn.md"]
    assert [Path(s).name for s in second.removed] == ["printer.md"]
    assert [Path(s).name for s in second.added] == ["laptop.md"]
    assert seen_during and all(s == {"printer.md", "vpn.md"} for s in seen_during)
    assert _sources(reader) == {"laptop.md", "vpn.md"}
    assert reader.target() != live and not client.collection_exists(live)
    assert {Path(s).name for s in manifest.sources()} == {"laptop.md", "vpn.md"}

    again = skill.ingest([docs], progress=False)  # nothing changed: nothing rewritten
    assert not again.added and not again.updated and len(again.unchanged) == 2


def test_a_failed_ingest_changes_neither_collection_nor_manifest(
    client: QdrantClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = tmp_path / "kb"
    docs.mkdir()
    _doc(docs, "vpn.md", "Reconnect the VPN client when error 691 shows.")
    skill, manifest = _skill(client, tmp_path / "home")
    skill.ingest([docs], progress=False)
    reader = ServerVectorStore(client, "knowledge", dense_dim=None, index_payload=False)
    live, recorded = reader.target(), manifest.get(str(docs / "vpn.md"))
    collections = {c.name for c in client.get_collections().collections}

    _doc(docs, "vpn.md", "Reinstall the VPN client.")
    _doc(docs, "laptop.md", "Laptops that will not boot go to the service desk.")

    def broken(self: ingest_module.Ingestor, *args: object, **kwargs: object) -> None:
        raise RuntimeError("embedding failed")

    monkeypatch.setattr(ingest_module.Ingestor, "_flush", broken)
    with pytest.raises(RuntimeError, match="embedding failed"):
        skill.ingest([docs], progress=False)
    assert reader.target() == live and _sources(reader) == {"vpn.md"}
    assert {c.name for c in client.get_collections().collections} == collections
    assert manifest.get(str(docs / "vpn.md")) == recorded
    assert manifest.get(str(docs / "laptop.md")) is None
