"""Weighted reciprocal rank fusion of the dense and sparse channels, done here, not in Qdrant.

Qdrant fuses by the position of each hit in its channel, and a channel returns points of equal
score in an order of its own that changes between processes (the sparse channel of a Chinese
question gives many English chunks exactly the same score for "691"). The fused order, and so
the knowledge search's later hits, then changed from run to run. Here a channel's ranks depend
on the scores and stable keys alone: equal scores are ranked by the other channel's score (of
two chunks with the same words, the closer meaning first), then by point id, and a page that
came back full drops its last run of equal scores, which may go on past the page. Fused ties
fall back on the point id too, so the same collection and query always give the same hits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from knowledge.vectors.base import DENSE, RRF_K, SPARSE, VectorHit

#: One channel's query: (the query vector, the channel's name, how many) -> its hits.
Nearest = Callable[[Any, str, int], list[VectorHit]]

#: Scores equal to this many decimals are a tie (float32 scores differ past it by noise only).
TIE_DIGITS = 6


def channel_ranks(
    hits: Sequence[VectorHit], *, page: int, closer: Mapping[str, float] | None = None
) -> list[tuple[int, VectorHit]]:
    """One channel's hits with their rank (from 0), best first. Equal scores go by `closer`
    (the other channel's score: of two chunks that share the same words, the one closer in
    meaning first), then by point id. `page` is the number asked for: a full page loses its
    last run of ties."""
    other = closer or {}
    ordered = sorted(
        hits,
        key=lambda hit: (
            -round(hit.score, TIE_DIGITS),
            -other.get(hit.point_id, float("-inf")),
            hit.point_id,
        ),
    )
    if ordered and len(ordered) >= page:
        last = round(ordered[-1].score, TIE_DIGITS)
        ordered = [hit for hit in ordered if round(hit.score, TIE_DIGITS) != last] or ordered
    return list(enumerate(ordered))


def search_channels(
    nearest: Nearest,
    dense: Any | None,
    sparse: Any | None,
    weights: tuple[float, float],
    *,
    page: int,
    limit: int,
) -> list[VectorHit]:
    """A store's search on whichever channels are queried (each vector in the store's own
    type): one channel as it scores, both fused (`fuse_channels`, `page` hits each)."""
    if dense is None or sparse is None:
        if dense is None and sparse is None:
            return []
        return nearest(dense, DENSE, limit) if dense is not None else nearest(sparse, SPARSE, limit)
    page = max(page, limit)
    return fuse_channels(
        (nearest(dense, DENSE, page), weights[0]),
        (nearest(sparse, SPARSE, page), weights[1]),
        page=page,
        limit=limit,
    )


def rrf(rank: int, weight: float) -> float:
    """Qdrant's weighted RRF term of a hit at `rank` (from 0): 1 / ((rank + 1) / weight +
    RRF_K - 1), which is 1 / (rank + RRF_K) at weight 1 (measured on Qdrant's own fusion)."""
    return 1.0 / ((rank + 1) / weight + RRF_K - 1)


def fuse_channels(
    dense: tuple[Sequence[VectorHit], float],
    sparse: tuple[Sequence[VectorHit], float],
    *,
    page: int,
    limit: int,
) -> list[VectorHit]:
    """The two channels' pages (hits and weight each) ranked and fused: ties of the sparse
    channel go to the closer meaning, ties of the dense one to more shared words."""
    dense_scores = {hit.point_id: hit.score for hit in dense[0]}
    sparse_scores = {hit.point_id: hit.score for hit in sparse[0]}
    return fuse(
        [
            (channel_ranks(dense[0], page=page, closer=sparse_scores), dense[1]),
            (channel_ranks(sparse[0], page=page, closer=dense_scores), sparse[1]),
        ],
        limit=limit,
    )


def fuse(
    channels: Sequence[tuple[Sequence[tuple[int, VectorHit]], float]], *, limit: int
) -> list[VectorHit]:
    """The best `limit` points by weighted RRF over ranked channels (hits and weight each):
    `rrf` per channel, as in Qdrant. A hit
    keeps the first stored dense vector any channel returned for it."""
    scores: dict[str, float] = {}
    found: dict[str, VectorHit] = {}
    for ranked, weight in channels:
        for rank, hit in ranked:
            scores[hit.point_id] = scores.get(hit.point_id, 0.0) + rrf(rank, weight)
            seen = found.get(hit.point_id)
            if seen is None or (seen.dense is None and hit.dense is not None):
                found[hit.point_id] = hit
    best = sorted(scores, key=lambda point: (-round(scores[point], TIE_DIGITS), point))
    return [
        VectorHit(point, scores[point], found[point].payload, found[point].dense)
        for point in best[:limit]
    ]
