"""The semantic scorer without the dense model (BRAIN_EMBEDDER=none): fit, score, cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from brain.config import load_settings
from brain.semantic import SemanticScorer
from controllers.declarative import DeclarativeController
from knowledge.embedder import get_dense_embedder

#: Everyday texts none of the two controllers should take.
NEGATIVES = [
    "book a table for four tonight",
    "what is the weather in paris",
    "recommend a movie",
    "how tall is mount everest",
    "order a pizza",
    "play some jazz",
    "tell me a joke",
    "what time is it in tokyo",
    "translate hello into french",
    "how do i bake bread",
    "who won the football match",
    "set an alarm for 7am",
]


def _controllers() -> list[DeclarativeController]:
    return [
        DeclarativeController(
            name="printer",
            description="printer problems: paper jams, toner, printing fails",
            keywords=["printer", "toner", "打印机"],
            examples=[
                "the printer on floor 3 jams",
                "toner is empty",
                "打印机卡纸了",
                "cannot print",
            ],
        ),
        DeclarativeController(
            name="payroll",
            description="salary, payslips and payroll questions",
            keywords=["salary", "payslip", "工资"],
            examples=["where is my payslip", "salary was not paid", "工资什么时候发", "tax on pay"],
        ),
    ]


def test_sparse_only_scorer_ranks_and_caches(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("BRAIN_EMBEDDER", "none")
    embedder = get_dense_embedder(load_settings())
    assert embedder is None
    scorer = SemanticScorer.fit(_controllers(), embedder, cache_dir=tmp_path)
    scores = scorer.score("the printer keeps jamming paper")
    assert set(scores) == {"printer", "payroll"}
    assert all(0.0 <= v <= 1.0 for v in scores.values())
    assert scores["printer"] > scores["payroll"]
    assert scorer.score("我的工资条在哪里")["payroll"] > scorer.score("我的工资条在哪里")["printer"]
    cached = list(tmp_path.glob("semantic-*.joblib"))
    assert len(cached) == 1
    again = SemanticScorer.fit(_controllers(), embedder, cache_dir=tmp_path)
    assert again.score("toner") == pytest.approx(scorer.score("toner"))
    # Unrelated text is further from every controller than a close paraphrase.
    assert max(scorer.score("zebra migration documentary").values()) < scores["printer"]


def test_negatives_gate_out_of_scope(tmp_path: Path) -> None:
    scorer = SemanticScorer.fit(_controllers(), None, negatives=NEGATIVES)
    inside = scorer.analyse("the printer is out of toner again")
    outside = scorer.analyse("book a table for two tonight")
    assert inside.out_of_scope < outside.out_of_scope
    assert max(inside.scores) > max(outside.scores)


def test_declared_out_of_scope_bounds_how_often_examples_are_turned_away(tmp_path: Path) -> None:
    controllers = _controllers()
    scorer = SemanticScorer.fit(controllers, None, negatives=NEGATIVES)

    assert 0.0 < scorer.declare_threshold <= 1.0
    examples = [e for c in controllers for e in c.examples]
    assert not any(scorer.analyse(text).declared for text in examples)
    outside = scorer.analyse("book a table for two tonight")
    assert outside.declared == (outside.out_of_scope >= scorer.declare_threshold)
    # Refitted from the cache, the threshold is the same.
    cached = SemanticScorer.fit(controllers, None, negatives=NEGATIVES, cache_dir=tmp_path)
    again = SemanticScorer.fit(controllers, None, negatives=NEGATIVES, cache_dir=tmp_path)
    assert again.declare_threshold == pytest.approx(cached.declare_threshold)


def test_without_negatives_a_few_examples_never_declare_out_of_scope(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BRAIN_EMBEDDER", "none")
    scorer = SemanticScorer.fit(_controllers(), get_dense_embedder(load_settings()), negatives=[])

    # Conformal gate: declared <=> the nearest-example cosine's p-value among the training
    # texts' own is <= 0.2%, which a dozen texts cannot show: even gibberish is only doubted.
    gibberish = scorer.analyse("zzqx vvkw")
    assert not gibberish.declared
    assert gibberish.out_of_scope < scorer.declare_threshold
