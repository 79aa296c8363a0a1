"""A 0..1 relevance for a retrieved chunk, independent of its rank among the others.

Fused RRF scores only order hits. Callers (the `score` of a hit, `confirm`) need a number that
means the same for every query, so it is computed from two absolute signals:

- lexical: the share of the query's character n-grams that occur in the chunk, longer n-grams
  weighing more (a 4-gram match says more than a 2-gram one); works for Chinese and English;
- semantic: the dense cosine, mapped linearly from `COSINE_FLOOR` (unrelated text) to
  `COSINE_CEIL` (a paraphrase) onto 0..1.

The relevance is the larger of the two, softened by the smaller one, so either channel alone
can vouch for a hit (MiniLM is English-only; n-grams miss paraphrases).
"""

from __future__ import annotations

from knowledge.sparse import char_ngrams

COSINE_FLOOR = 0.20
COSINE_CEIL = 0.70
#: Weight of the weaker signal in the blend.
SECOND_WEIGHT = 0.25


def lexical_overlap(query: str, text: str) -> float:
    """Weighted share (0..1) of the query's distinct 2-4-grams found in `text`."""
    query_grams = set(char_ngrams(query))
    if not query_grams:
        return 0.0
    text_grams = set(char_ngrams(text))
    total = sum(len(gram) - 1 for gram in query_grams)
    found = sum(len(gram) - 1 for gram in query_grams if gram in text_grams)
    return found / total


def dense_relevance(cosine: float | None) -> float:
    """The dense cosine mapped onto 0..1 (0 when there is none)."""
    if cosine is None:
        return 0.0
    return min(1.0, max(0.0, (cosine - COSINE_FLOOR) / (COSINE_CEIL - COSINE_FLOOR)))


def relevance(query: str, text: str, cosine: float | None) -> float:
    """How relevant `text` is to `query`, 0..1 (see the module docstring)."""
    lexical = lexical_overlap(query, text)
    if cosine is None:
        return round(lexical, 4)
    semantic = dense_relevance(cosine)
    high, low = max(lexical, semantic), min(lexical, semantic)
    return round(high * (1 - SECOND_WEIGHT) + low * SECOND_WEIGHT, 4)
