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


def test_keywords_the_rows_contradict_are_left_out_of_a_large_fit(tmp_path: Path) -> None:
    """A desk's keyword column that disagrees with its labelled rows (starter's keywords name
    "procurement", which purchase's rows use): with thousands of rows a held-out fold of them
    decides whether the keywords stay training texts, and here they go, so the rows' word
    routes where the rows say (the fit that kept them routed "procurement" to starter)."""
    rng = random.Random(0)
    rows = {
        name: [
            " ".join([*rng.sample(FILLER, 2), rng.choice(words)])
            for _ in range(LEXICAL_MIN_EXAMPLES // 3 + 50)
        ]
        for name, words in WORDS.items()
    }
    rows["purchase"][:40] = [" ".join([*rng.sample(FILLER, 2), "procurement"])] * 40
    stale = [f"procurement {a} {b}" for a in FILLER for b in FILLER if a != b][:100]
    controllers = [
        DeclarativeController(
            name=name,
            description=f"{name} desk",
            examples=examples,
            keywords=[*stale, "procurement"] if name == "starter" else [],
        )
        for name, examples in rows.items()
    ]
    fitted = SemanticScorer.fit(controllers, None, negatives=[], cache_dir=tmp_path)
    scores = fitted.analyse("procurement").scores
    assert fitted.names[int(np.argmax(scores))] == "purchase"
    assert fitted.names[int(np.argmax(fitted.analyse("the new starter badge").scores))] == (
        "starter"
    )
