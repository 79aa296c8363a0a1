"""What a Chinese (or mixed) question and a passage mean alike, across scripts and wordings.

MiniLM, the knowledge base's dense encoder, reads English only, and character bigrams see no
paraphrase: "邮件附件最大能发多大？" shares two bigrams with "附件超过 25 MB 会被拦截", "半夜出了P1
故障找谁？" none with "非工作时间只处理 P1 故障……请拨打 7x24 值班热线". The multilingual sentence
encoder (`core.text.multilingual`) was trained so that paraphrases and translations land close:
its cosine of a question and a passage is the meaning channel for questions MiniLM cannot read.
Passage vectors are kept per chunk (a knowledge base answers the same few hundred chunks
again and again) until the store changes.

The encoder is also a retrieval channel of its own for questions (`fused_order`): the words
and MiniLM find a passage that shares the question's words, the multilingual cosine one that
says the same thing in other words or the other script ("晚上十一点系统全挂了，该打哪个电话？"
shares no bigram with the support-hours section's "拨打 7x24 值班热线"). The two ranked lists
are fused by reciprocal rank, as the store fuses its own channels.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from core.text.multilingual import multilingual_vectors
from knowledge.vectors.fusion import TIE_DIGITS, rrf

#: A payload filter (field -> allowed values) and the chunks (id, payload) it selects.
Where = Mapping[str, Sequence[str]]
Chunks = list[tuple[str, dict[str, Any]]]

#: Chunk vectors remembered (a sample knowledge base has about two hundred chunks).
CACHE = 4096
#: A knowledge base of at most this many answer chunks is searched on meaning whole (its
#: vectors stay in `CACHE`; the sample's 216 are encoded in about a second, once); a larger
#: one has its lexically found chunks reordered on meaning only.
MEANING_CHUNKS = CACHE // 2
#: The cosine mapped linearly onto a 0..1 relevance: at the floor unrelated text, at the
#: ceiling a paraphrase (questions and their own passages in the sample KB: 0.34-0.49;
#: other passages of the same language: mostly under 0.30).
MEANING_FLOOR = 0.20
MEANING_CEIL = 0.60
#: Hits each ranked list (words and MiniLM; meaning) brings to the fusion.
FUSION_DEPTH = 40
#: Chunks the fused ranking adds after the words' own first k (a question's search gives k +
#: this many). They keep their word score: given their meaning's as well, a same-subject page
#: found on meaning alone outranked the section the words found, and an answer the
#: conversation benchmark's stranger3 split had was lost (69% -> 77% back with this).
MEANING_EXTRA = 2
#: The meaning list's weight in the fusion beside the words-and-MiniLM one (weight 1):
#: chosen on brain/data/answer_pairs.jsonl's train split (a right section among the first
#: five, `benchmarks/answer_recall.py`, Chinese questions: 83.5% without the channel, 92.7%
#: at weight 0.5, 93.6% at 1, 2 and 3), the lowest of the best: at 2 the tune split of
#: benchmarks/data/answerability.jsonl lost an answer ("自己的笔记本能连公司VPN吗？": three
#: VPN-error sections outranked the BYOD policy), at 1 it lost none.
MEANING_WEIGHT = 1.0


class MeaningIndex:
    """Multilingual cosines of a query and chunks, the chunks' vectors cached by chunk id."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._chunks: dict[str, list[tuple[str, dict[str, Any]]]] = {}

    def clear(self) -> None:
        """Forget the chunks' vectors and lists (the store changed)."""
        with self._lock:
            self._vectors.clear()
            self._chunks.clear()

    def chunks(self, where: Where, read: Callable[[Where], Chunks]) -> Chunks:
        """Every chunk (id, payload) matching `where`, read by `read` once per filter until
        `clear`: the meaning channel compares a question with all of them."""
        key = repr(sorted((name, tuple(values)) for name, values in where.items()))
        with self._lock:
            cached = self._chunks.get(key)
        if cached is None:
            cached = read(where)
            with self._lock:
                self._chunks[key] = cached
        return cached

    def cosines(self, query: str, chunks: Sequence[tuple[str, str]]) -> list[float] | None:
        """The cosine of `query` and each (chunk id, text); None when the encoder cannot run."""
        with self._lock:
            found = {cid: self._vectors[cid] for cid, _ in chunks if cid in self._vectors}
        missing = [(cid, text) for cid, text in chunks if cid not in found]
        vectors = multilingual_vectors([query, *(text for _, text in missing)])
        if vectors is None:
            return None
        encoded = dict(zip((cid for cid, _ in missing), vectors[1:], strict=True))
        found.update(encoded)
        with self._lock:
            self._vectors.update(encoded)
            while len(self._vectors) > CACHE:
                self._vectors.popitem(last=False)
        return [float(np.dot(vectors[0], found[cid])) for cid, _ in chunks]


def passage(payload: Mapping[str, Any]) -> str:
    """What the encoder reads of a chunk: its title, section heading and text."""
    return f"{payload.get('title', '')} {payload.get('section', '')} {payload.get('text', '')}"


def meaning_relevance(cosine: float) -> float:
    """The multilingual cosine mapped onto 0..1 (see `MEANING_FLOOR`, `MEANING_CEIL`)."""
    return min(1.0, max(0.0, (cosine - MEANING_FLOOR) / (MEANING_CEIL - MEANING_FLOOR)))


def fused_order(
    lexical: Sequence[str], meaning: Sequence[tuple[str, float]], weight: float = MEANING_WEIGHT
) -> list[str]:
    """Chunk ids by weighted reciprocal rank over two lists: `lexical` (ids, best first: the
    store's own fused words-and-MiniLM ranking) at weight 1 and `meaning` ((id, multilingual
    cosine) in any order, ranked here closest first, equal cosines by id) at `weight`. Each
    list counts its first `FUSION_DEPTH`; equal fused scores keep the lexical order, then id."""
    ranked = sorted(meaning, key=lambda item: (-round(item[1], TIE_DIGITS), item[0]))
    scores: dict[str, float] = {}
    for rank, cid in enumerate(lexical[:FUSION_DEPTH]):
        scores[cid] = scores.get(cid, 0.0) + rrf(rank, 1.0)
    if weight > 0:
        for rank, (cid, _) in enumerate(ranked[:FUSION_DEPTH]):
            scores[cid] = scores.get(cid, 0.0) + rrf(rank, weight)
    first = {cid: rank for rank, cid in enumerate(lexical)}
    return sorted(
        scores,
        key=lambda cid: (-round(scores[cid], TIE_DIGITS), first.get(cid, len(first)), cid),
    )
