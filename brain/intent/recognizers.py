"""The three independent intent recognizers of the design: LLM, semantic (n-gram Jaccard), keyword.

Each returns a `Vote`: the intent it picks, its confidence in 0..1 and whether it failed.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import sparse

from brain.intent.taxonomy import INTENT_NAMES, INTENTS, OTHER, IntentSpec
from core.cues import cues
from core.llm import LLMClient
from core.prompts import intent_system_prompt, intent_user_prompt
from core.text.sparse import char_ngrams

__all__ = [
    "KeywordRecognizer",
    "LLMRecognizer",
    "NgramJaccardScorer",
    "SemanticRecognizer",
    "Vote",
]


@dataclass(frozen=True, slots=True)
class Vote:
    """One recognizer's answer. ``failed`` only applies to the LLM recognizer."""

    intent: str
    confidence: float
    reasoning: str = ""
    failed: bool = False
    status: str = "ok"


NO_VOTE = Vote(OTHER, 0.0)
#: The intent reply is one small JSON object; a short budget keeps the call fast.
INTENT_MAX_TOKENS = 200


class NgramJaccardScorer:
    """Seed 002's semantic similarity: max character n-gram Jaccard against each label's examples.

    The example n-gram sets are built once into a sparse binary matrix, so one query costs a
    sparse dot product however many examples there are (usable as a benchmark baseline on
    CLINC150-sized training sets).
    """

    def __init__(
        self, examples_by_label: Mapping[str, Sequence[str]], n_min: int = 2, n_max: int = 4
    ) -> None:
        self.n_min, self.n_max = n_min, n_max
        self._vocab: dict[str, int] = {}
        labels: list[str] = []
        rows: list[int] = []
        cols: list[int] = []
        sizes: list[int] = []
        for label, examples in examples_by_label.items():
            for example in examples:
                grams = self._grams(example)
                if not grams:
                    continue
                row = len(labels)
                labels.append(label)
                sizes.append(len(grams))
                for gram in grams:
                    rows.append(row)
                    cols.append(self._vocab.setdefault(gram, len(self._vocab)))
        self.labels: tuple[str, ...] = tuple(dict.fromkeys(examples_by_label))
        label_index = {label: i for i, label in enumerate(self.labels)}
        self._row_label = np.array([label_index[label] for label in labels], dtype=np.int64)
        self._sizes = np.array(sizes, dtype=np.float64)
        self._matrix = sparse.csr_matrix(
            (np.ones(len(rows), dtype=np.float64), (rows, cols)),
            shape=(len(labels), max(len(self._vocab), 1)),
        )

    def _grams(self, text: str) -> set[str]:
        return set(char_ngrams(text, self.n_min, self.n_max))

    def score(self, text: str) -> dict[str, float]:
        """Best Jaccard similarity per label (0.0 for labels nothing overlaps with)."""
        scores = dict.fromkeys(self.labels, 0.0)
        grams = self._grams(text)
        known = [self._vocab[g] for g in grams if g in self._vocab]
        if not known or not len(self._sizes):
            return scores
        query = np.zeros(self._matrix.shape[1], dtype=np.float64)
        query[known] = 1.0
        overlap = self._matrix @ query
        jaccard = overlap / (self._sizes + len(grams) - overlap)
        best = np.zeros(len(self.labels), dtype=np.float64)
        np.maximum.at(best, self._row_label, jaccard)
        return {label: float(value) for label, value in zip(self.labels, best, strict=True)}

    def best(self, text: str) -> tuple[str | None, float]:
        """The most similar label and its similarity (None when nothing overlaps)."""
        scores = self.score(text)
        if not scores:
            return None, 0.0
        label = max(scores, key=lambda name: scores[name])
        return (label, scores[label]) if scores[label] > 0 else (None, 0.0)


class SemanticRecognizer:
    """Picks the intent whose example sentences are most similar (no vector store).

    Below ``min_similarity`` the message shares too little with any example and the vote is
    OTHER, so the fallback chain can move on to the keyword recognizer (the design gives no
    floor, so semantic would always win the fallback). Choosing it: over the taxonomy's own
    examples (leave-one-out) higher floors looked better (0.15: 56% right, 0.35: 80%), but those
    examples are near-duplicates of the keywords; on realistic messages (the dev set,
    benchmarks/bench_intent.py) the intent group matched the right controller for 69% with no
    floor, 72% at 0.15 and 67% at 0.35. 0.15 it is.
    """

    def __init__(self, intents: Sequence[IntentSpec] = INTENTS, min_similarity: float = 0.15):
        self.scorer = _shipped_scorer() if intents is INTENTS else _scorer_of(intents)
        self.min_similarity = min_similarity

    def recognize(self, text: str) -> Vote:
        """The closest intent by n-gram Jaccard, or OTHER when nothing is close enough."""
        label, similarity = self.scorer.best(text)
        if label is None or similarity < self.min_similarity:
            return Vote(OTHER, 0.0)
        return Vote(label, round(similarity, 4))


def _scorer_of(intents: Sequence[IntentSpec]) -> NgramJaccardScorer:
    return NgramJaccardScorer({i.name: i.examples for i in intents if i.examples})


@functools.cache
def _shipped_scorer() -> NgramJaccardScorer:
    """The shipped taxonomy's scorer, built once per process (5 ms, at every brain a process
    opens before); it is read-only once built, so every recognizer shares it."""
    return _scorer_of(INTENTS)


def _keyword_pattern(words: Sequence[str]) -> re.Pattern[str] | None:
    """One regex for a keyword list; ASCII words match on word boundaries, CJK as substrings."""
    parts = []
    for word in sorted(words, key=len, reverse=True):
        escaped = re.escape(word.lower())
        parts.append(rf"(?<![a-z0-9]){escaped}(?![a-z0-9])" if word.isascii() else escaped)
    return re.compile("|".join(parts)) if parts else None


class KeywordRecognizer:
    """Keyword rules: fine-grained intents first, then broad ones.

    Confidence grows with the number of distinct keywords hit: a fine-grained hit starts at 0.7
    (enough for the design's refinement rule, which needs >= 0.5); one broad word ("stuck",
    "error") is weak evidence and starts below the 0.5 floor, at 0.45.
    """

    FINE_BASE, FINE_STEP, FINE_CAP = 0.7, 0.1, 0.95
    BROAD_BASE, BROAD_STEP, BROAD_CAP = 0.45, 0.1, 0.75

    def __init__(self, intents: Sequence[IntentSpec] = INTENTS) -> None:
        self._fine = [(i.name, _keyword_pattern(i.keywords)) for i in intents if i.parent]
        self._broad = [(i.name, _keyword_pattern(i.keywords)) for i in intents if not i.parent]

    @staticmethod
    def _best(
        rules: Sequence[tuple[str, re.Pattern[str] | None]], text: str
    ) -> tuple[str, int] | None:
        best: tuple[str, int] | None = None
        for name, pattern in rules:
            if pattern is None:
                continue
            hits = len(set(pattern.findall(text)))
            if hits and (best is None or hits > best[1]):
                best = (name, hits)
        return best

    def recognize(self, text: str) -> Vote:
        """The fine-grained intent with most keyword hits, else the broad one, else OTHER."""
        lowered = text.lower()
        fine = self._best(self._fine, lowered)
        if fine:
            name, hits = fine
            confidence = min(self.FINE_CAP, self.FINE_BASE + self.FINE_STEP * (hits - 1))
            return Vote(name, round(confidence, 4))
        broad = self._best(self._broad, lowered)
        if broad:
            name, hits = broad
            confidence = min(self.BROAD_CAP, self.BROAD_BASE + self.BROAD_STEP * (hits - 1))
            return Vote(name, round(confidence, 4))
        return NO_VOTE


_SENTENCE_END = re.compile(f"(?<=[{cues(__name__).regex('sentence_end_marks')}])\\s")


def _first_sentence(text: str, limit: int = 240) -> str:
    sentence = _SENTENCE_END.split(text.strip(), maxsplit=1)[0]
    return sentence[:limit]


def validate_intent_reply(data: Any) -> dict[str, Any] | None:
    """Accept {"intent": <known name>, "confidence": <number 0..1>, "reasoning": str}."""
    if not isinstance(data, dict):
        return None
    intent = data.get("intent")
    confidence = data.get("confidence")
    if not isinstance(intent, str) or intent.strip().lower() not in INTENT_NAMES:
        return None
    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        return None
    if not 0.0 <= float(confidence) <= 1.0:
        return None
    reasoning = data.get("reasoning", "")
    return {
        "intent": intent.strip().lower(),
        "confidence": float(confidence),
        "reasoning": _first_sentence(reasoning) if isinstance(reasoning, str) else "",
    }


class LLMRecognizer:
    """Asks the LLM for a validated {intent, confidence, reasoning}; any fault is a failed vote."""

    def __init__(self, llm: LLMClient | None, intents: Sequence[IntentSpec] = INTENTS) -> None:
        self.llm = llm
        fine_first = sorted(intents, key=lambda i: (i.parent is None, i.name == OTHER))
        self.system = intent_system_prompt(
            [(i.name, i.parent or "", i.description) for i in fine_first]
        )

    def recognize(self, text: str, history: Sequence[str] = ()) -> Vote:
        """The LLM's vote, or a failed vote whose ``status`` says why."""
        if self.llm is None:
            return Vote(OTHER, 0.0, failed=True, status="disabled")
        reply = self.llm.complete_json(
            system=self.system,
            user=intent_user_prompt(text, history),
            validate=validate_intent_reply,
            purpose="intent",
            max_tokens=INTENT_MAX_TOKENS,
        )
        if not reply.ok:
            return Vote(OTHER, 0.0, failed=True, status=reply.status)
        data = reply.data
        return Vote(data["intent"], data["confidence"], data["reasoning"], status="ok")
