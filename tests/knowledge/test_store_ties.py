"""Hybrid search through `KnowledgeStore`: equal fused scores go to the closer meaning."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from knowledge.chunk import Chunk
from knowledge.store import KnowledgeStore

QUERY = "printer toner jam"
#: Fixed "embeddings": NEAR is closer in meaning to the query, FAR shares more n-grams with it.
NEAR = "printer paper stuck"
FAR = "printer toner jam again today"
VECTORS = {QUERY: [1.0, 0.0], NEAR: [0.9, 0.43589], FAR: [0.6, 0.8]}


class FixedEmbedder:
    """Two-dimensional vectors looked up by text (the store needs `dim`, `model_id`,
    `embed`, `embed_query`; no model id: no precomputed vectors apply)."""

    dim = 2
    model_id = None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray([VECTORS[text] for text in texts], dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed([text])[0]


@pytest.mark.parametrize(
    "near_id", ["00000000-0000-0000-0000-000000000002", "ffffffff-0000-0000-0000-000000000001"]
)
def test_equal_fused_scores_put_the_closer_meaning_first(tmp_path: Path, near_id: str) -> None:
    # NEAR is dense rank 0 and sparse rank 1, FAR the reverse: at equal weights (an English
    # query) both fuse to 1/2 + 1/3; whatever their ids, the closer meaning comes first
    store = KnowledgeStore.open_local(tmp_path, "ties", FixedEmbedder())  # type: ignore[arg-type]
    try:
        store.upsert(
            [
                Chunk(near_id, NEAR, {"text": NEAR, "kind": "doc"}),
                Chunk("77777777-0000-0000-0000-000000000000", FAR, {"text": FAR, "kind": "doc"}),
            ]
        )
        hits = store.search(QUERY, limit=1)
        assert [hit.payload["text"] for hit in hits] == [NEAR]
        assert hits[0].dense == pytest.approx(0.9)
        both = store.search(QUERY, limit=2)
        assert both[0].fused == pytest.approx(both[1].fused)
        assert [hit.payload["text"] for hit in both] == [NEAR, FAR]
    finally:
        store.close()


#: Three chunks that read alike to both channels: the same words, the same vector.
TWINS = ("printer toner", "printer toner ", "printer toner  ")


class TwinEmbedder(FixedEmbedder):
    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray([[0.8, 0.6] for _ in texts], dtype=np.float32)


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 1, 0), (1, 2, 0)])
def test_chunks_equal_in_both_channels_come_in_id_order(
    tmp_path: Path, order: tuple[int, int, int]
) -> None:
    # a channel returns equal scores in an order of its own (it changed between processes):
    # the order may not depend on it: ties go by id, whatever order they were written in
    ids = [f"{digit}0000000-0000-0000-0000-000000000000" for digit in (3, 1, 2)]
    store = KnowledgeStore.open_local(tmp_path, "twins", TwinEmbedder())  # type: ignore[arg-type]
    try:
        store.upsert([Chunk(ids[i], TWINS[i], {"text": TWINS[i], "kind": "doc"}) for i in order])
        hits = store.search("printer toner", limit=3)
        assert [hit.chunk_id for hit in hits] == sorted(ids)
    finally:
        store.close()
