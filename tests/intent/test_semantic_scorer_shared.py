"""Every recognizer of a process shares the shipped taxonomy's n-gram scorer (built once, read
only), and it scores as a scorer built for one recognizer alone does; another taxonomy gets a
scorer of its own."""

from __future__ import annotations

from brain.intent.recognizers import NgramJaccardScorer, SemanticRecognizer
from brain.intent.taxonomy import INTENTS

TEXTS = ["my vpn keeps dropping, error 691", "打印机卡纸了", "how do I reset my password?", ""]


def test_recognizers_share_the_shipped_scorer_and_score_as_a_scorer_of_their_own() -> None:
    first, second = SemanticRecognizer(), SemanticRecognizer()
    assert first.scorer is second.scorer
    alone = NgramJaccardScorer({i.name: i.examples for i in INTENTS if i.examples})
    for text in TEXTS:
        assert first.scorer.score(text) == alone.score(text)


def test_another_taxonomy_gets_its_own_scorer() -> None:
    some = tuple(i for i in INTENTS if i.examples)[:3]
    own = SemanticRecognizer(some)
    assert own.scorer is not SemanticRecognizer().scorer
    assert set(own.scorer.labels) == {i.name for i in some}
