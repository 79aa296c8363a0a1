"""Baselines for benchmarks/routing.py: seed 002's own method and semantic-router.

- `JaccardVote`: seed 002 without its LLM: character 2-4-gram Jaccard against each label's
  examples (`brain.intent.recognizers.NgramJaccardScorer`) voted with a keyword recognizer
  (the label's mined keywords), weights 0.2 : 0.1 as in the seed, renormalised; the best label
  wins when its score clears a threshold tuned on a held-out 20% of train.
- `SemanticRouterBaseline`: semantic-router's IndexedRouter over the same MiniLM embedder
  (a DenseEncoder wrapper), routes built from 80% of train, its Platt calibration fitted on
  the other 20% (out-of-scope rows labelled None), threshold tuned there.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from brain.evaluation.controllers import mine_keywords
from brain.evaluation.run import calibration_folds
from brain.learning.labelled import LabelledRow

SEMANTIC_WEIGHT = 0.2
KEYWORD_WEIGHT = 0.1


def _examples(rows: Sequence[LabelledRow]) -> dict[str, list[str]]:
    examples: dict[str, list[str]] = {}
    for row in rows:
        if row.label is not None:
            examples.setdefault(row.label, []).append(row.text)
    return examples


def _best_threshold(
    scores: Sequence[float], labels: Sequence[str | None], picks: Sequence[str]
) -> float:
    """The threshold that maximises accuracy (in scope routed right, out of scope not routed)."""
    best, best_accuracy = 0.0, -1.0
    for threshold in [*sorted(set(scores)), 1.01]:
        right = sum(
            (pick == label) if score >= threshold else (label is None)
            for score, label, pick in zip(scores, labels, picks, strict=True)
        )
        if right > best_accuracy:
            best, best_accuracy = threshold, right
    return best


class JaccardVote:
    """Seed 002's recognizer vote without the LLM (see the module docstring)."""

    def __init__(self, examples: dict[str, list[str]], keywords: dict[str, list[str]]) -> None:
        from brain.intent.recognizers import NgramJaccardScorer
        from brain.signals.keyword_index import KeywordIndex
        from controllers.declarative import DeclarativeController

        self.labels = list(examples)
        self.jaccard = NgramJaccardScorer(examples)
        self.keywords = KeywordIndex(
            [
                DeclarativeController(name=f"l{i}", description=label, keywords=keywords[label])
                for i, label in enumerate(self.labels)
            ]
        )
        self.threshold = 0.0

    def predict(self, text: str) -> tuple[str, float]:
        jaccard = self.jaccard.score(text)
        keyword = self.keywords.match(text).scores
        total = SEMANTIC_WEIGHT + KEYWORD_WEIGHT
        scores = [
            (SEMANTIC_WEIGHT * jaccard[label] + KEYWORD_WEIGHT * float(keyword[i])) / total
            for i, label in enumerate(self.labels)
        ]
        best = int(np.argmax(scores))
        return self.labels[best], scores[best]

    @classmethod
    def fit(cls, train: Sequence[LabelledRow]) -> JaccardVote:
        """Threshold tuned on a held-out 20% of train, then refitted on all of it."""
        fit_rows, held = calibration_folds(train)[0] if len(train) > 50 else (train, train)
        probe = cls._build(fit_rows)
        predictions = [probe.predict(r.text) for r in held]
        threshold = _best_threshold(
            [s for _, s in predictions], [r.label for r in held], [p for p, _ in predictions]
        )
        final = cls._build(train)
        final.threshold = threshold
        return final

    @classmethod
    def _build(cls, rows: Sequence[LabelledRow]) -> JaccardVote:
        examples = _examples(rows)
        return cls(examples, mine_keywords(examples))

    def route(self, text: str) -> str | None:
        label, score = self.predict(text)
        return label if score >= self.threshold else None


def semantic_router_baseline(
    train: Sequence[LabelledRow], embedder: Any
) -> tuple[Any, dict[str, Any]]:
    """An IndexedRouter over `embedder`, Platt-calibrated on held-out train (see above)."""
    from pydantic import PrivateAttr
    from semantic_router import Route
    from semantic_router.encoders import DenseEncoder
    from semantic_router.routers import IndexedRouter

    class MiniLMEncoder(DenseEncoder):
        """semantic-router encoder over the brain's own MiniLM embedder."""

        _embedder: Any = PrivateAttr()

        def __init__(self, embedder: Any) -> None:
            super().__init__(name="all-MiniLM-L6-v2")
            self._embedder = embedder

        def __call__(self, docs: list[Any]) -> list[list[float]]:
            if len(docs) == 1:
                return [self._embedder.embed_query(str(docs[0])).tolist()]
            return self._embedder.embed([str(d) for d in docs]).tolist()

        async def acall(self, docs: list[Any]) -> list[list[float]]:
            return self(docs)

    fit_rows, held = calibration_folds(train)[0]
    started = time.perf_counter()
    routes = [Route(name=label, utterances=texts) for label, texts in _examples(fit_rows).items()]
    router = IndexedRouter(encoder=MiniLMEncoder(embedder), routes=routes)
    report = router.fit([r.text for r in held], [r.label for r in held], method="platt")
    choices = [router(r.text, threshold=0.0) for r in held]
    threshold = _best_threshold(
        [float(getattr(c, "confidence", 0.0) or 0.0) for c in choices],
        [r.label for r in held],
        [str(getattr(c, "name", "")) for c in choices],
    )
    router.confidence_threshold = threshold
    info = {
        "fit_seconds": round(time.perf_counter() - started, 1),
        "threshold": threshold,
        "platt_fit_accuracy": round(report.accuracy, 4),
    }
    return router, info


def score_baseline(route: Any, rows: Sequence[LabelledRow]) -> tuple[list[str | None], list[float]]:
    """(prediction per row, latency ms per row) of a `route(text) -> label | None` callable."""
    predictions: list[str | None] = []
    latencies: list[float] = []
    for row in rows:
        began = time.perf_counter()
        predictions.append(route(row.text))
        latencies.append((time.perf_counter() - began) * 1000)
    return predictions, latencies


def quality(rows: Sequence[LabelledRow], predictions: Sequence[str | None]) -> dict[str, Any]:
    """In-scope accuracy, out-of-scope recall and precision of predictions."""
    inscope = [(r, p) for r, p in zip(rows, predictions, strict=True) if r.label is not None]
    oos = [(r, p) for r, p in zip(rows, predictions, strict=True) if r.label is None]
    rejected = [(r, p) for r, p in zip(rows, predictions, strict=True) if p is None]
    return {
        "in_scope_accuracy": round(sum(p == r.label for r, p in inscope) / len(inscope), 4)
        if inscope
        else None,
        "oos_recall": round(sum(p is None for _, p in oos) / len(oos), 4) if oos else None,
        "oos_precision": round(sum(r.label is None for r, _ in rejected) / len(rejected), 4)
        if rejected
        else None,
    }
