"""The vector store contract, run on both implementations: Qdrant Edge (embedded) and
qdrant-client, here in its local mode, which speaks a Qdrant server's API."""

from __future__ import annotations

import logging
import math
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from knowledge.vectors import (
    HybridQuery,
    SparseVector,
    StoreLockedError,
    VectorPoint,
    VectorStore,
)
from knowledge.vectors.edge import EdgeVectorStore
from knowledge.vectors.server import ServerVectorStore

Opener = Callable[[int | None], VectorStore]


def _id(name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, name))


def _point(
    name: str, dense: list[float] | None, sparse: dict[int, float], **payload: str
) -> VectorPoint:
    return VectorPoint(
        _id(name),
        SparseVector(sorted(sparse), [sparse[i] for i in sorted(sparse)]),
        {"name": name, **payload},
        dense,
    )


#: Four points: unit dense vectors, sparse n-gram-like vectors; index 7 is in every point.
POINTS = [
    _point("a", [1.0, 0.0, 0.0, 0.0], {1: 1.0, 7: 1.0}, kind="doc", domain="incident"),
    _point("b", [0.8, 0.6, 0.0, 0.0], {2: 1.0, 7: 1.0}, kind="doc", domain="access"),
    _point("c", [0.0, 1.0, 0.0, 0.0], {3: 1.0, 7: 1.0}, kind="glossary", domain="access"),
    _point("d", [0.0, 0.0, 0.6, 0.8], {4: 2.0, 7: 1.0}, kind="doc", domain="change"),
]


@pytest.fixture(params=["edge", "qdrant-client"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens (or reopens) one store in this test's folder with the implementation under test."""
    opened: list[VectorStore] = []

    def open_store(dense_dim: int | None = 4) -> VectorStore:
        if request.param == "edge":
            store: VectorStore = EdgeVectorStore.open(tmp_path / "edge", dense_dim=dense_dim)
        else:
            store = ServerVectorStore.local(tmp_path / "local", "test", dense_dim=dense_dim)
        opened.append(store)
        return store

    yield open_store
    for store in opened:
        store.close()  # closing twice is harmless


@pytest.fixture
def store(opener: Opener) -> VectorStore:
    """A store holding POINTS."""
    opened = opener(4)
    opened.upsert(POINTS)
    return opened


def _names(hits: list) -> list[str]:  # type: ignore[type-arg]
    return [hit.payload["name"] for hit in hits]


def test_empty_store_finds_nothing(opener: Opener) -> None:
    store = opener(4)
    assert store.has_dense
    assert store.count() == 0
    assert list(store.scroll()) == []
    query = HybridQuery(dense=[1.0, 0.0, 0.0, 0.0], sparse=SparseVector([1], [1.0]))
    assert store.search(query, limit=5) == []


def test_points_round_trip_with_their_payload(store: VectorStore) -> None:
    assert store.count() == 4
    assert store.count({"kind": ["doc"]}) == 3
    records = {record.point_id: record.payload for record in store.scroll()}
    assert records[_id("c")] == {"name": "c", "kind": "glossary", "domain": "access"}
    glossary = list(store.scroll({"kind": ["glossary"]}))
    assert [record.point_id for record in glossary] == [_id("c")]


def test_upsert_replaces_and_delete_ignores_unknown_ids(store: VectorStore) -> None:
    store.upsert([_point("a", [1.0, 0.0, 0.0, 0.0], {1: 1.0}, kind="glossary")])
    assert store.count() == 4
    assert store.count({"kind": ["glossary"]}) == 2
    store.delete([_id("a"), _id("never-stored")])
    assert store.count() == 3
    assert _id("a") not in {record.point_id for record in store.scroll()}
    store.delete([])
    assert store.count() == 3


def test_dense_search_ranks_by_dot_product_and_returns_the_vector(store: VectorStore) -> None:
    hits = store.search(HybridQuery(dense=[1.0, 0.0, 0.0, 0.1]), limit=3)
    assert _names(hits) == ["a", "b", "d"]
    assert [hit.score for hit in hits] == pytest.approx([1.0, 0.8, 0.08], rel=1e-4)
    assert hits[1].dense == pytest.approx([0.8, 0.6, 0.0, 0.0])


def test_sparse_search_weights_indices_by_idf(store: VectorStore) -> None:
    # index 7 is in all four points, index 2 in one: the rare one decides
    hits = store.search(HybridQuery(sparse=SparseVector([2, 7], [1.0, 1.0])), limit=4)
    assert _names(hits)[0] == "b"
    assert len(hits) == 4  # every point shares index 7
    idf_rare = math.log((4 - 1 + 0.5) / (1 + 0.5) + 1)
    idf_common = math.log((4 - 4 + 0.5) / (4 + 0.5) + 1)
    assert hits[0].score == pytest.approx(idf_rare + idf_common, rel=1e-4)
    assert hits[0].dense is None  # the dense channel was not queried
    # points sharing no index are not found
    assert store.search(HybridQuery(sparse=SparseVector([99], [1.0])), limit=4) == []


def test_hybrid_fuses_with_weighted_rrf(store: VectorStore) -> None:
    dense = [1.0, 0.0, 0.0, 0.1]  # ranks a, b, d, c
    sparse = SparseVector([3], [1.0])  # finds c only
    # RRF with k=2: a hit at rank r (from 0) of a channel with weight w scores
    # 1 / ((r + 1) / w + 1), summed over the channels that found it
    even = store.search(HybridQuery(dense=dense, sparse=sparse), limit=4)
    assert _names(even) == ["c", "a", "b", "d"]
    assert [hit.score for hit in even[:2]] == pytest.approx([1 / 2 + 1 / 5, 1 / 2], rel=1e-4)
    assert even[0].dense == pytest.approx([0.0, 1.0, 0.0, 0.0])
    leaning = store.search(
        HybridQuery(dense=dense, sparse=sparse, dense_weight=1.0, sparse_weight=0.2), limit=4
    )
    assert _names(leaning)[:2] == ["a", "c"]
    assert leaning[1].score == pytest.approx(1 / 6 + 1 / 5, rel=1e-4)


def test_filters_apply_to_every_channel(store: VectorStore) -> None:
    where = {"domain": ["access", "change"], "kind": ["doc"]}
    dense = [1.0, 0.0, 0.0, 0.0]
    sparse = SparseVector([1, 7], [1.0, 1.0])
    for query in (
        HybridQuery(dense=dense),
        HybridQuery(sparse=sparse),
        HybridQuery(dense=dense, sparse=sparse),
    ):
        assert set(_names(store.search(query, limit=4, where=where))) == {"b", "d"}
    assert store.search(HybridQuery(dense=dense), limit=4, where={"kind": ["nothing"]}) == []


def test_a_sparse_only_store_ignores_dense_queries(opener: Opener) -> None:
    store = opener(None)
    assert not store.has_dense
    store.upsert(POINTS)  # their dense vectors are not stored
    hits = store.search(
        HybridQuery(dense=[1.0, 0.0, 0.0, 0.0], sparse=SparseVector([3], [1.0])), limit=2
    )
    assert _names(hits) == ["c"] and hits[0].dense is None


def test_points_survive_a_reopen(store: VectorStore, opener: Opener) -> None:
    store.delete([_id("d")])
    store.close()
    reopened = opener(4)
    assert reopened.has_dense and reopened.count() == 3
    assert _names(reopened.search(HybridQuery(dense=[0.0, 1.0, 0.0, 0.0]), limit=1)) == ["c"]


def test_a_store_created_without_dense_stays_sparse_only(
    opener: Opener, caplog: pytest.LogCaptureFixture
) -> None:
    opener(None).close()
    with caplog.at_level(logging.WARNING):
        assert not opener(4).has_dense


def test_a_second_open_is_refused(store: VectorStore, opener: Opener) -> None:
    with pytest.raises(StoreLockedError, match="in use"):
        opener(4)
