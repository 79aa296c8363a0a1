"""In-process scoring of both channels for Qdrant's local mode.

qdrant-client's local mode is meant for small data: it scores sparse vectors with a pure-Python
merge loop over every point (measured 240 ms a query at 1k chunks, seconds at 10k), evaluates
payload filters point by point in Python, and turns a numpy query into a float64 list, so the
dense scan upcasts the whole float32 matrix on every query (40 ms at 10k). This index mirrors
what the store writes - dense rows, sparse rows and the filterable tags - and scores with numpy
and scipy, with the formulas Qdrant uses: dot product for the dense channel (unit vectors, so
the cosine), and for the sparse channel with `Modifier.IDF` the sum over shared indices of
q * idf * d, idf = ln((N - df + 0.5) / (df + 0.5) + 1) over live points. Qdrant stays the store
of record; a Qdrant server (`BRAIN_QDRANT_URL`) scores both channels itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import sparse as sp

from core.text.sparse import INDEX_SPACE


@dataclass(slots=True)
class _Row:
    indices: list[int]
    values: list[float]
    dense: np.ndarray | None
    tags: dict[str, str]


class LocalIndex:
    """Dense and sparse vectors of live points, with filterable tags (domain, kind)."""

    def __init__(self) -> None:
        self._rows: dict[str, _Row] = {}
        self._built = False
        self._ids: list[str] = []
        self._sparse: sp.csc_matrix | None = None
        self._df: np.ndarray = np.zeros(0)
        self._dense: np.ndarray | None = None
        self._has_dense: np.ndarray = np.zeros(0, dtype=bool)
        self._tags: dict[str, np.ndarray] = {}
        #: Filter masks by `where`, valid until the next rebuild (callers reuse a few filters).
        self._masks: dict[tuple[tuple[str, tuple[str, ...]], ...], np.ndarray] = {}

    def __len__(self) -> int:
        return len(self._rows)

    def put(
        self,
        point_id: str,
        indices: Sequence[int],
        values: Sequence[float],
        dense: np.ndarray | None,
        tags: dict[str, str],
    ) -> None:
        """Add or replace one point."""
        vector = None if dense is None else np.asarray(dense, dtype=np.float32)
        self._rows[point_id] = _Row(list(indices), list(values), vector, dict(tags))
        self._built = False

    def remove(self, point_ids: Sequence[str]) -> None:
        """Forget points (unknown ids are ignored)."""
        for point_id in point_ids:
            self._rows.pop(point_id, None)
        self._built = False

    def dense_of(self, point_id: str) -> np.ndarray | None:
        """The dense vector of a point, if it has one."""
        row = self._rows.get(point_id)
        return None if row is None else row.dense

    def _build(self) -> None:
        if self._built:
            return
        self._ids = list(self._rows)
        rows = [self._rows[point_id] for point_id in self._ids]
        lengths = [len(row.indices) for row in rows]
        indptr = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum(lengths, out=indptr[1:])
        columns = np.fromiter(
            (index for row in rows for index in row.indices), dtype=np.int64, count=int(indptr[-1])
        )
        data = np.fromiter(
            (value for row in rows for value in row.values), dtype=np.float32, count=int(indptr[-1])
        )
        csr = sp.csr_matrix((data, columns, indptr), shape=(len(rows), INDEX_SPACE))
        self._sparse = csr.tocsc()
        self._df = np.diff(self._sparse.indptr)
        dims = {row.dense.shape[0] for row in rows if row.dense is not None}
        self._dense = None
        self._has_dense = np.array([row.dense is not None for row in rows], dtype=bool)
        if len(dims) == 1:
            dim = dims.pop()
            self._dense = np.zeros((len(rows), dim), dtype=np.float32)
            for position, row in enumerate(rows):
                if row.dense is not None:
                    self._dense[position] = row.dense
        names = {name for row in rows for name in row.tags}
        self._tags = {
            name: np.array([row.tags.get(name, "") for row in rows], dtype=object) for name in names
        }
        self._masks.clear()
        self._built = True

    def _mask(self, where: Mapping[str, Sequence[str]] | None) -> np.ndarray:
        key = tuple(
            sorted((name, tuple(sorted(allowed))) for name, allowed in (where or {}).items())
        )
        cached = self._masks.get(key)
        if cached is not None:
            return cached
        mask = np.ones(len(self._ids), dtype=bool)
        for name, allowed in key:
            column = self._tags.get(name)
            if column is None:
                mask[:] = False
                break
            mask &= np.isin(column, list(allowed))
        if len(self._masks) < 64:
            self._masks[key] = mask
        return mask

    def _top(self, scores: np.ndarray, mask: np.ndarray, limit: int) -> list[tuple[str, float]]:
        candidates = np.nonzero(mask)[0]
        if candidates.size == 0:
            return []
        if candidates.size > limit:
            part = np.argpartition(-scores[candidates], limit - 1)[:limit]
            candidates = candidates[part]
        chosen = candidates[np.argsort(-scores[candidates], kind="stable")]
        return [(self._ids[i], float(scores[i])) for i in chosen]

    def search_sparse(
        self,
        indices: Sequence[int],
        values: Sequence[float],
        *,
        limit: int,
        where: Mapping[str, Sequence[str]] | None = None,
    ) -> list[tuple[str, float]]:
        """Best (point id, score) pairs, highest first; only points sharing an index score."""
        self._build()
        if not self._ids or not indices or self._sparse is None:
            return []
        columns = np.asarray(indices, dtype=np.int64)
        n = len(self._ids)
        df = self._df[columns]
        idf = np.log((n - df + 0.5) / (df + 0.5) + 1.0)
        weights = np.asarray(values, dtype=np.float32) * idf.astype(np.float32)
        scores = np.asarray(self._sparse[:, columns] @ weights).ravel()
        # tf and idf weights are positive, so a point shares an index iff its score is > 0
        return self._top(scores, (scores > 0) & self._mask(where), limit)

    def search_dense(
        self,
        query: np.ndarray,
        *,
        limit: int,
        where: Mapping[str, Sequence[str]] | None = None,
    ) -> list[tuple[str, float]]:
        """Best (point id, dot product) pairs among points with a dense vector."""
        self._build()
        if self._dense is None or not self._ids:
            return []
        scores = self._dense @ np.asarray(query, dtype=np.float32)
        return self._top(scores, self._has_dense & self._mask(where), limit)
