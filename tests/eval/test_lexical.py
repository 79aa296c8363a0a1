"""The lexical expert: fitted only with many examples, its weight chosen on a held-out fold,
saved and read back exactly, and absent (the model unchanged) with few examples."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from brain.semantic.lexical import LEXICAL_MIN_EXAMPLES, LEXICAL_WEIGHTS
from brain.semantic.scorer import SemanticScorer
from controllers.declarative import DeclarativeController

WORDS = {
    "purchase": ["purchase order", "quote", "invoice", "supplier", "buy", "licence"],
    "starter": ["new starter", "onboarding", "first day", "contract", "badge", "welcome"],
    "mailbox": ["shared mailbox", "outlook", "calendar", "distribution list", "inbox", "mail"],
}
FILLER = [
    "hello",
    "team",
    "please",
    "could",
    "you",
    "help",
    "with",
    "the",
    "request",
    "sent",
    "monday",
    "thanks",
    "regards",
]


def _controllers(per_class: int) -> list[DeclarativeController]:
    rng = random.Random(0)
    controllers = []
    for name, words in WORDS.items():
        examples = [
            " ".join(rng.sample(FILLER, 6) + rng.sample(words, 2) + rng.sample(FILLER, 3))
            for _ in range(per_class)
        ]
        controllers.append(
            DeclarativeController(name=name, description=f"{name} desk", examples=examples)
        )
    return controllers


def test_many_examples_bring_the_lexical_expert_and_it_reads_back_exactly(
    tmp_path: Path,
) -> None:
    controllers = _controllers(LEXICAL_MIN_EXAMPLES // 3 + 50)
    fitted = SemanticScorer.fit(controllers, None, negatives=[], cache_dir=tmp_path)
    ensemble = fitted.ensemble
    assert ensemble.lexical is not None and ensemble.lexical_weight in LEXICAL_WEIGHTS
    loaded = SemanticScorer.fit(controllers, None, negatives=[], cache_dir=tmp_path)
    assert loaded is not fitted and loaded.ensemble.chosen == ensemble.chosen
    for text in ["please raise a purchase order with the supplier", "new starter badge"]:
        assert np.array_equal(fitted.analyse(text).scores, loaded.analyse(text).scores)
    assert loaded.names[int(np.argmax(loaded.analyse("shared mailbox in outlook").scores))] == (
        "mailbox"
    )


def test_few_examples_leave_the_model_without_it(tmp_path: Path) -> None:
    fitted = SemanticScorer.fit(_controllers(40), None, negatives=[], cache_dir=tmp_path)
    assert fitted.ensemble.lexical is None and fitted.ensemble.chosen == (0.0, 1.0)
