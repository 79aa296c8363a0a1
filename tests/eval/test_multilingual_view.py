"""With `[training] multilingual_view`, the routing model of a partly Chinese controller set
reads the multilingual encoder's vector of Chinese texts beside MiniLM's: a Chinese message
worded unlike the Chinese examples (another word for the same thing) reaches their controller,
and an English-only set is fitted as before (MiniLM alone, under the same cache key)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from brain.semantic.files import fit_key
from brain.semantic.scorer import SemanticScorer
from controllers.declarative import DeclarativeController
from core.config import load_settings
from core.text.embedder import get_dense_embedder
from tests.eval.test_semantic import NEGATIVES as ENGLISH_NEGATIVES

#: Everyday texts no controller should take, in both languages.
NEGATIVES = [
    *ENGLISH_NEGATIVES[:8],
    "帮我订一张去上海的机票",
    "今天晚上吃什么好",
    "讲个笑话吧",
    "推荐一本小说",
]

PAYROLL = [
    "工资什么时候发",
    "工资条上的金额不对",
    "my salary was not paid this month",
    "the payslip shows the wrong amount",
    "when does the bonus get paid",
    "tax deducted from my pay looks too high",
    "I was paid less than my contract says",
]
PRINTER = [
    "the printer on floor 3 jams",
    "toner is empty in the copy room",
    "cannot print to the office printer",
    "the printer prints blank pages",
    "打印机卡纸了",
    "打印出来全是空白页",
]


def _controllers(printer: list[str], payroll: list[str] = PAYROLL) -> list[DeclarativeController]:
    return [
        DeclarativeController(
            name="printer",
            description="printer problems: paper jams, toner, printing fails",
            examples=printer,
        ),
        DeclarativeController(
            name="payroll",
            description="salary, payslips and pay questions",
            examples=payroll,
        ),
    ]


@pytest.fixture(scope="module")
def embedder():  # type: ignore[no-untyped-def]
    found = get_dense_embedder(load_settings())
    if found is None:
        pytest.skip("MiniLM is not installed here")
    return found


@pytest.mark.parametrize("multilingual", [True, False])
def test_a_chinese_message_in_other_words_than_the_examples_reaches_their_controller(
    embedder, multilingual: bool
) -> None:  # type: ignore[no-untyped-def]
    scorer = SemanticScorer.fit(
        _controllers(PRINTER), embedder, negatives=NEGATIVES, multilingual=multilingual
    )
    assert scorer.multilingual is multilingual
    assert scorer.ensemble.coef.shape[1] == (384 + 512 if multilingual else 384)
    assert scorer.reference.shape[1] == 384  # nearest examples: MiniLM's cosines either way
    # The out-of-scope model knows which texts the multilingual encoder read.
    assert scorer.oos_model.coef_.shape[1] == (6 if multilingual else 5)
    # "薪水" / "薪资" (pay) where the payroll examples say "工资"; the printer's share "了".
    text = "这个月的薪水到现在还没到账了"
    best = scorer.names[int(np.argmax(scorer.analyse(text).probabilities))]
    assert (best == "payroll") is multilingual


def test_the_flag_survives_the_models_file(embedder, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    scorer = SemanticScorer.fit(
        _controllers(PRINTER), embedder, negatives=NEGATIVES, multilingual=True
    )
    loaded = SemanticScorer.load(scorer.save(tmp_path / "model.npz"), embedder)
    assert loaded.multilingual
    text = "这个月的薪水到现在还没到账了"
    assert np.allclose(
        loaded.analyse(text).probabilities, scorer.analyse(text).probabilities, atol=1e-5
    )


def test_an_english_only_set_is_fitted_with_minilm_alone_under_its_old_key(embedder) -> None:  # type: ignore[no-untyped-def]
    english = _controllers([t for t in PRINTER if t.isascii()], [t for t in PAYROLL if t.isascii()])
    negatives = [t for t in NEGATIVES if t.isascii()]
    scorer = SemanticScorer.fit(english, embedder, negatives=negatives, multilingual=True)
    assert not scorer.multilingual
    assert scorer.ensemble.coef.shape[1] == 384  # MiniLM's vectors alone
    assert fit_key(english, dense=True, negatives=negatives, multilingual=True) == fit_key(
        english, dense=True, negatives=negatives
    )
    mixed = _controllers(PRINTER)
    assert fit_key(mixed, dense=True, negatives=NEGATIVES, multilingual=True) != fit_key(
        mixed, dense=True, negatives=NEGATIVES
    )
