"""The Qdrant server path for several replicas, in qdrant-client's local mode (it speaks the
server's API; no Qdrant server can be installed here): collections created idempotently by
whichever replica starts first, and a full re-ingest swapped in atomically through an alias."""

from __future__ import annotations

import uuid

import pytest
from qdrant_client import QdrantClient

from knowledge.vectors import HybridQuery, SparseVector, VectorPoint
from knowledge.vectors.server import ServerVectorStore


def _point(name: str, index: int) -> VectorPoint:
    return VectorPoint(
        str(uuid.uuid5(uuid.NAMESPACE_URL, name)),
        SparseVector([index, 7], [1.0, 1.0]),
        {"name": name},
        [1.0, 0.0, 0.0, 0.0],
    )


def _names(store: ServerVectorStore) -> list[str]:
    query = HybridQuery(dense=[1.0, 0.0, 0.0, 0.0], sparse=SparseVector([7], [1.0]))
    return sorted(hit.payload["name"] for hit in store.search(query, limit=10))


@pytest.fixture
def client() -> QdrantClient:
    return QdrantClient(location=":memory:")


def test_a_replica_losing_the_race_to_create_the_collection_uses_it(
    client: QdrantClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = ServerVectorStore(client, "knowledge", dense_dim=4, index_payload=False)
    first.upsert([_point("a", 1)])
    answers = iter([False])  # checked before the other replica's create was visible
    real = client.collection_exists
    monkeypatch.setattr(client, "collection_exists", lambda name: next(answers, None) or real(name))

    second = ServerVectorStore(client, "knowledge", dense_dim=4, index_payload=False)
    assert _names(second) == ["a"]


def test_a_rebuild_is_swapped_in_at_once_for_every_reader(client: QdrantClient) -> None:
    writer = ServerVectorStore(client, "knowledge", dense_dim=4, index_payload=False)
    writer.upsert([_point("old-1", 1), _point("old-2", 2)])
    reader = ServerVectorStore(client, "knowledge", dense_dim=4, index_payload=False)

    with writer.rebuilding() as staged:
        staged.upsert([_point("new-1", 3)])
        assert _names(reader) == ["old-1", "old-2"]  # readers never see a half-built index
    assert _names(reader) == ["new-1"]
    first_target = writer.target()
    assert first_target != "knowledge"

    with writer.rebuilding() as staged:  # the second swap moves the alias
        staged.upsert([_point("newer", 4)])
    assert _names(reader) == ["newer"]
    assert writer.target() != first_target
    assert not client.collection_exists(first_target)  # the replaced collection is dropped


def test_a_failed_rebuild_changes_nothing(client: QdrantClient) -> None:
    store = ServerVectorStore(client, "knowledge", dense_dim=4, index_payload=False)
    store.upsert([_point("kept", 1)])
    before = {c.name for c in client.get_collections().collections}

    with pytest.raises(RuntimeError, match="ingest failed"), store.rebuilding() as staged:
        staged.upsert([_point("half", 2)])
        raise RuntimeError("ingest failed")
    assert _names(store) == ["kept"]
    assert {c.name for c in client.get_collections().collections} == before
