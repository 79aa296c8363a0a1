"""The semantic scorer without the dense model (BRAIN_EMBEDDER=none): fit, score, cache.

Its file (`brain.semantic.npz`) holds numpy arrays only, reads back to the very same scores,
and a file that is not one (an older version's pickle) is refitted, never run."""

from __future__ import annotations

import logging
import pickle
from pathlib import Path

import numpy as np
import pytest

from brain.semantic.features import ensemble_weights
from brain.semantic.files import model_path
from brain.semantic.scorer import SemanticScorer
from controllers.declarative import DeclarativeController
from core.config import load_settings
from core.text.embedder import get_dense_embedder
from tests.extras import needs_torch

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
    cached = list(tmp_path.glob("semantic-*.npz"))
    assert len(cached) == 1
    again = SemanticScorer.fit(_controllers(), embedder, cache_dir=tmp_path)
    assert again.score("toner") == pytest.approx(scorer.score("toner"))
    # Unrelated text is further from every controller than a close paraphrase.
    assert max(scorer.score("zebra migration documentary").values()) < scores["printer"]


def test_chinese_text_leans_on_the_ngrams_only_when_minilm_is_the_other_expert() -> None:
    texts = ["the printer keeps jamming", "打印机卡纸了", "打印机 toner 没了，printer 不能用"]
    english, chinese, mixed = ensemble_weights(texts, dense=True)
    assert chinese < english and mixed < english  # MiniLM is an English model
    # Without the dense model both experts read n-grams: every language weighs the same.
    assert len(set(ensemble_weights(texts, dense=False).tolist())) == 1
    assert ensemble_weights(texts, dense=False)[0] == english


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


def test_the_negatives_out_of_fold_scores_are_kept_with_the_model(tmp_path: Path) -> None:
    """What each negative scored when unseen is evidence for the out-of-scope bar of a fit
    (`brain.routing.cost.out_of_scope_bar`); it survives the model's file."""
    fitted = SemanticScorer.fit(_controllers(), None, negatives=NEGATIVES, cache_dir=tmp_path)
    assert len(fitted.negatives_out_of_scope) == len(NEGATIVES)
    # every example and description (keywords and labels weigh less and are left out)
    assert len(fitted.examples_out_of_scope) == sum(len(c.examples) + 1 for c in _controllers())
    assert float(np.min(fitted.negatives_out_of_scope)) >= 0.0
    assert float(np.max(fitted.negatives_out_of_scope)) <= 1.0
    loaded = SemanticScorer.fit(_controllers(), None, negatives=NEGATIVES, cache_dir=tmp_path)
    assert loaded is not fitted
    assert np.array_equal(loaded.negatives_out_of_scope, fitted.negatives_out_of_scope)
    assert np.array_equal(loaded.examples_out_of_scope, fitted.examples_out_of_scope)
    assert len(SemanticScorer.fit(_controllers(), None, negatives=[]).negatives_out_of_scope) == 0


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


def test_a_few_examples_are_not_enough_to_tune_the_encoder() -> None:
    embedder = get_dense_embedder(load_settings())
    assert embedder is not None
    scorer = SemanticScorer.fit(_controllers(), embedder, negatives=NEGATIVES)
    assert scorer.tail is None  # 8 examples: a tuned encoder would only memorise them
    assert scorer.score("the printer keeps jamming")["printer"] > 0.5


def _many_examples() -> list[DeclarativeController]:
    """Three controllers with 80 templated examples each: enough to tune the encoder on."""
    things = {
        "printer": ["printer", "toner", "paper tray", "print queue", "scanner"],
        "payroll": ["payslip", "salary", "bonus", "overtime pay", "tax deduction"],
        "travel": ["flight", "hotel booking", "train ticket", "visa letter", "expense claim"],
    }
    frames = [
        "my {} is wrong",
        "problem with the {}",
        "can you check the {} for me",
        "the {} did not work today",
        "who handles the {}",
        "question about my {}",
        "the {} needs fixing",
        "help with the {} please",
        "is the {} ready",
        "what happened to the {}",
        "update on the {}",
        "the {} is late again",
        "I need the {} sorted",
        "any news on the {}",
        "there is an issue with the {}",
        "please look at the {}",
    ]
    return [
        DeclarativeController(
            name=name,
            description=f"everything about {', '.join(words)}",
            keywords=words,
            examples=[frame.format(word) for word in words for frame in frames],
        )
        for name, words in things.items()
    ]


@needs_torch
def test_with_many_examples_the_encoder_is_tuned_and_cached(tmp_path: Path) -> None:
    embedder = get_dense_embedder(load_settings())
    assert embedder is not None
    controllers = _many_examples()

    tuned = SemanticScorer.fit(
        controllers, embedder, negatives=NEGATIVES, tune=True, cache_dir=tmp_path
    )
    plain = SemanticScorer.fit(controllers, embedder, negatives=NEGATIVES)

    assert tuned.tail is not None and plain.tail is None  # tuning is asked for, never implied
    for text, expected in [
        ("the toner cartridge is leaking", "printer"),
        ("my overtime was not paid", "payroll"),
        ("I missed my flight to Berlin", "travel"),
    ]:
        scores = tuned.score(text)
        assert max(scores, key=scores.__getitem__) == expected, (text, scores)
    # The cached model carries its tuned layers: the same scores after a reload.
    again = SemanticScorer.fit(
        controllers, embedder, negatives=NEGATIVES, tune=True, cache_dir=tmp_path
    )
    assert again.tail is not None and again.tail.key == tuned.tail.key
    assert again.score("who approves my visa letter") == pytest.approx(
        tuned.score("who approves my visa letter"), abs=1e-5
    )


def test_word_grams_are_sklearns_word_analyzer_for_the_scorers_settings() -> None:
    """The saved model tokenises without scikit-learn; it must give the very same grams."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    from brain.semantic.features import WORD_TOKEN_PATTERN, word_grams

    sklearn_grams = TfidfVectorizer(
        analyzer="word", ngram_range=(1, 2), token_pattern=WORD_TOKEN_PATTERN
    ).build_analyzer()
    texts = [
        "VPN error 691 since THIS morning!!",
        "what is 滚仓 and 钱没到 (fund_settlement)?",
        "a",
        "",
        "  reset   my\tpassword, please -- jdoe@example.com ",
        "Café déjà-vu: ÉCOLE naïve",
        "ticket INC0013550 / LT-10877 / db-prod-02.internal",
    ]
    for text in texts:
        assert sorted(word_grams(text)) == sorted(sklearn_grams(text)), text


TEXTS = [
    "the printer keeps jamming paper",
    "我的工资条在哪里",
    "book a table for two tonight",
    "toner",
    "zzqx vvkw",
]


@pytest.mark.parametrize("negatives", [NEGATIVES, []], ids=["oos-model", "conformal-gate"])
def test_a_saved_model_scores_exactly_like_the_fitted_one(
    tmp_path: Path, negatives: list[str]
) -> None:
    fitted = SemanticScorer.fit(_controllers(), None, negatives=negatives, cache_dir=tmp_path)
    (saved,) = tmp_path.glob("semantic-*.npz")
    loaded = SemanticScorer.fit(_controllers(), None, negatives=negatives, cache_dir=tmp_path)
    assert loaded is not fitted
    for text in TEXTS:
        before, after = fitted.analyse(text), loaded.analyse(text)
        assert np.array_equal(before.scores, after.scores), text
        assert np.array_equal(before.probabilities, after.probabilities), text
        assert (before.out_of_scope, before.nearest, before.declared) == (
            after.out_of_scope,
            after.nearest,
            after.declared,
        )
    assert loaded.declare_threshold == fitted.declare_threshold
    # Data only: every member reads without unpickling, none is an object array.
    with np.load(saved, allow_pickle=False) as stored:
        assert all(stored[name].dtype.kind != "O" for name in stored.files)
    # The same model writes the same bytes.
    again = tmp_path / "again" / saved.name
    loaded.save(again)
    assert again.read_bytes() == saved.read_bytes()


class _Planted:
    """A pickle that leaves a mark when it is loaded."""

    def __init__(self, mark: Path) -> None:
        self.mark = mark

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (str(self.mark), "w"))


def test_a_pickle_where_the_model_should_be_is_refitted_not_run(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fitted = SemanticScorer.fit(_controllers(), None, negatives=NEGATIVES, cache_dir=tmp_path)
    (path,) = tmp_path.glob("semantic-*.npz")
    mark = tmp_path / "unpickled"
    path.write_bytes(pickle.dumps({"format": 5, "scorer": _Planted(mark)}))
    caplog.set_level(logging.WARNING, logger="brain.semantic.scorer")

    refitted = SemanticScorer.fit(_controllers(), None, negatives=NEGATIVES, cache_dir=tmp_path)

    assert not mark.exists()
    assert "unusable" in caplog.text
    assert refitted.score("toner") == fitted.score("toner")
    key = path.stem.removeprefix("semantic-")
    assert SemanticScorer.load(model_path(tmp_path, key), None).names == fitted.names
