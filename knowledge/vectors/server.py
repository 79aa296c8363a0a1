"""A Qdrant server through qdrant-client: the vector store several processes can share.

Set `BRAIN_QDRANT_URL` (and `BRAIN_QDRANT_API_KEY`) to use it. Schema and search are those of
the embedded store (`knowledge.vectors.edge`): the same named vectors, one query per channel
and the same weighted RRF (`knowledge.vectors.fusion`). qdrant-client's local mode
(`QdrantClient(path=...)` or `":memory:"`) speaks the same API in-process, which is how the
contract tests and the benchmark baseline run it; it is meant for small data and is not the
embedded default.
"""

from __future__ import annotations

import contextlib
import threading
import uuid
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from qdrant_client import QdrantClient, models

from knowledge.vectors.base import (
    DENSE,
    INDEXED_FIELDS,
    SPARSE,
    SPARSE_FULL_SCAN_THRESHOLD,
    HybridQuery,
    StoreLockedError,
    VectorHit,
    VectorPoint,
    VectorRecord,
    Where,
    dense_of,
)
from knowledge.vectors.fusion import search_channels

#: Points per scroll page.
SCROLL_PAGE = 512


class ServerVectorStore:
    """One collection on a Qdrant server (or in qdrant-client's local mode)."""

    def __init__(
        self,
        client: QdrantClient,
        collection: str,
        *,
        dense_dim: int | None,
        index_payload: bool = True,
    ) -> None:
        self._client = client
        self.collection = collection
        self._dense_dim = dense_dim
        self._index_payload = index_payload
        self._lock = threading.RLock()
        _ensure(client, collection, dense_dim, index_payload=index_payload)
        params = client.get_collection(collection).config.params.vectors
        self._has_dense = dense_dim is not None and isinstance(params, dict) and DENSE in params

    @classmethod
    def connect(
        cls, url: str, collection: str, *, dense_dim: int | None, api_key: str | None = None
    ) -> ServerVectorStore:
        """The collection on the Qdrant server at `url`."""
        return cls(QdrantClient(url=url, api_key=api_key), collection, dense_dim=dense_dim)

    @classmethod
    def local(
        cls, location: Path | str, collection: str, *, dense_dim: int | None
    ) -> ServerVectorStore:
        """qdrant-client's local mode in a folder, or in memory with `":memory:"`."""
        try:
            if location == ":memory:":
                client = QdrantClient(location=":memory:")
            else:
                Path(location).mkdir(parents=True, exist_ok=True)
                client = QdrantClient(path=str(location))
        except RuntimeError as exc:
            if "already accessed by another instance" in str(exc):
                raise StoreLockedError(f"the Qdrant folder {location} is in use") from None
            raise
        # local mode ignores payload indexes (and warns about them)
        return cls(client, collection, dense_dim=dense_dim, index_payload=False)

    def target(self) -> str:
        """The collection the name stands for: the one its alias points at, else itself."""
        with self._lock:
            for alias in self._client.get_aliases().aliases:
                if alias.alias_name == self.collection:
                    return str(alias.collection_name)
        return self.collection

    @contextlib.contextmanager
    def rebuilding(self) -> Iterator[ServerVectorStore]:
        """A fresh collection of the same schema for a full re-ingest, swapped in atomically.

        The caller fills the yielded store while every replica keeps querying the current
        one; when the block ends, the name (an alias from then on) is moved to the new
        collection in one alias operation, so no replica ever sees a half-built index, and
        the old collection is dropped. An exception drops the new one and changes nothing.
        (The first swap of a name that is still a plain collection deletes it just before
        the alias takes its name: Qdrant refuses an alias named like a collection.)
        """
        fresh = f"{self.collection}--{uuid.uuid4().hex[:12]}"
        staged = ServerVectorStore(
            self._client, fresh, dense_dim=self._dense_dim, index_payload=self._index_payload
        )
        try:
            yield staged
        except BaseException:
            with self._lock:
                self._client.delete_collection(fresh)
            raise
        self._swap_to(fresh)

    def _swap_to(self, fresh: str) -> None:
        with self._lock:
            old = self.target()
            operations: list[models.CreateAliasOperation | models.DeleteAliasOperation] = []
            if old == self.collection:
                self._client.delete_collection(self.collection)
            else:
                operations.append(
                    models.DeleteAliasOperation(
                        delete_alias=models.DeleteAlias(alias_name=self.collection)
                    )
                )
            operations.append(
                models.CreateAliasOperation(
                    create_alias=models.CreateAlias(
                        collection_name=fresh, alias_name=self.collection
                    )
                )
            )
            self._client.update_collection_aliases(change_aliases_operations=operations)
            if old != self.collection:
                self._client.delete_collection(old)

    def copy_into(self, target: ServerVectorStore) -> int:
        """Copy every point, vectors and payload, into `target` (a rebuild's staged
        collection starts as the live one: unchanged files are not embedded again); how many."""
        offset: Any = None
        copied = 0
        while True:
            with self._lock:
                records, offset = self._client.scroll(
                    self.collection, limit=SCROLL_PAGE, offset=offset, with_payload=True,
                    with_vectors=True,
                )  # fmt: skip
            structs = [
                models.PointStruct(id=r.id, vector=r.vector or {}, payload=r.payload or {})
                for r in records
            ]
            if structs:
                with target._lock:
                    target._client.upsert(target.collection, structs, wait=True)
            copied += len(structs)
            if offset is None:
                return copied

    @property
    def has_dense(self) -> bool:
        """Whether points carry the dense vector."""
        return self._has_dense

    def upsert(self, points: Sequence[VectorPoint]) -> None:
        """Write points (replacing same ids) and wait until they are applied."""
        if not points:
            return
        structs = [
            models.PointStruct(
                id=point.point_id, vector=self._vectors(point), payload=dict(point.payload)
            )
            for point in points
        ]
        with self._lock:
            self._client.upsert(self.collection, structs, wait=True)

    def _vectors(self, point: VectorPoint) -> dict[str, Any]:
        vectors: dict[str, Any] = {
            SPARSE: models.SparseVector(
                indices=list(point.sparse.indices), values=list(point.sparse.values)
            )
        }
        if self._has_dense and point.dense is not None:
            vectors[DENSE] = [float(value) for value in point.dense]
        return vectors

    def delete(self, point_ids: Sequence[str]) -> None:
        """Remove points by id (unknown ids are ignored)."""
        if point_ids:
            with self._lock:
                self._client.delete(
                    self.collection, models.PointIdsList(points=list(point_ids)), wait=True
                )

    def count(self, where: Where | None = None) -> int:
        """Exact number of points (matching `where`)."""
        with self._lock:
            return self._client.count(
                self.collection, count_filter=_filter(where), exact=True
            ).count

    def scroll(self, where: Where | None = None) -> Iterator[VectorRecord]:
        """Every point (matching `where`) with its payload, a page at a time."""
        offset: Any = None
        while True:
            with self._lock:
                records, offset = self._client.scroll(
                    self.collection,
                    scroll_filter=_filter(where),
                    limit=SCROLL_PAGE,
                    offset=offset,
                    with_payload=True,
                )
            for record in records:
                yield VectorRecord(str(record.id), dict(record.payload or {}))
            if offset is None:
                return

    def optimize(self) -> None:
        """Nothing to do: the server optimizes its segments by itself."""

    def search(
        self, query: HybridQuery, *, limit: int, where: Where | None = None
    ) -> list[VectorHit]:
        """Each queried channel, fused with weighted RRF (`knowledge.vectors.fusion`)."""
        dense = list(query.dense) if self._has_dense and query.dense is not None else None
        sparse = (
            None
            if query.sparse is None
            else models.SparseVector(
                indices=list(query.sparse.indices), values=list(query.sparse.values)
            )
        )
        if limit <= 0:
            return []
        query_filter = _filter(where)
        with_vectors: list[str] | bool = (
            [DENSE] if dense is not None and query.with_dense else False
        )
        nearest = partial(self._nearest, query_filter=query_filter, with_vectors=with_vectors)
        weights = (query.dense_weight, query.sparse_weight)
        return search_channels(
            nearest, dense, sparse, weights, page=query.channel_limit, limit=limit
        )

    def _nearest(
        self,
        vector: Any,
        using: str,
        limit: int,
        *,
        query_filter: models.Filter | None,
        with_vectors: list[str] | bool,
    ) -> list[VectorHit]:
        """One channel's best points, scored by that channel alone."""
        with self._lock:
            response = self._client.query_points(
                self.collection,
                query=vector,
                using=using,
                query_filter=query_filter,
                limit=limit,
                with_payload=True,
                with_vectors=with_vectors,
            )
        return [_hit(point) for point in response.points]

    def close(self) -> None:
        """Close the client (in local mode: release the folder)."""
        with self._lock:
            self._client.close()


def _ensure(
    client: QdrantClient, collection: str, dense_dim: int | None, *, index_payload: bool
) -> None:
    """Create the collection unless it (or an alias of that name) exists. Replicas starting
    together race to create it: the loser finds it created and uses it."""
    if client.collection_exists(collection):
        return
    try:
        _create(client, collection, dense_dim, index_payload=index_payload)
    except Exception:
        if not client.collection_exists(collection):
            raise


def _create(
    client: QdrantClient, collection: str, dense_dim: int | None, *, index_payload: bool
) -> None:
    """The schema of `knowledge.vectors.edge`: dense by dot product, sparse with IDF."""
    vectors = (
        {DENSE: models.VectorParams(size=dense_dim, distance=models.Distance.DOT)}
        if dense_dim is not None
        else {}
    )
    client.create_collection(
        collection,
        vectors_config=vectors,
        sparse_vectors_config={
            SPARSE: models.SparseVectorParams(
                modifier=models.Modifier.IDF,
                index=models.SparseIndexParams(full_scan_threshold=SPARSE_FULL_SCAN_THRESHOLD),
            )
        },
    )
    for name in INDEXED_FIELDS if index_payload else ():
        client.create_payload_index(collection, name, models.PayloadSchemaType.KEYWORD)


def _filter(where: Where | None) -> models.Filter | None:
    if not where:
        return None
    return models.Filter(
        must=[
            models.FieldCondition(key=key, match=models.MatchAny(any=list(values)))
            for key, values in where.items()
        ]
    )


def _hit(point: models.ScoredPoint) -> VectorHit:
    return VectorHit(
        point_id=str(point.id),
        score=float(point.score),
        payload=dict(point.payload or {}),
        dense=dense_of(point.vector),
    )
