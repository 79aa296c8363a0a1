"""Two causes of asking back too often, each on its own API: the semantic model
without negatives scaled its scores by a p-value (so the least typical in-scope tickets looked
weak), and "never ask back when one option is far ahead" read only calibrated runner-up
confidences, which never fell far enough; the semantic model's own odds are what count now.
And one cause of routing too often: that calibrated ratio routed weak leaders over runner-ups
the calibration extrapolated to almost nothing, out-of-scope messages among them."""

from __future__ import annotations

import numpy as np
import pytest

from brain.routing.cost import SemanticOdds
from brain.routing.plan import Candidate
from brain.routing.router import Router
from brain.semantic.scorer import SemanticScorer
from core.config import RoutingConfig
from core.records import DryRunRecord
from tests.toy_controllers import printer_and_payroll


def _passes(name: str) -> DryRunRecord:
    return DryRunRecord(name, True, "ok")


def test_without_negatives_an_untypical_text_keeps_its_scores_and_is_only_doubted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BRAIN_EMBEDDER", "none")
    scorer = SemanticScorer.fit(printer_and_payroll(), None, negatives=[])

    detail = scorer.analyse("zzqx vvkw")

    assert detail.out_of_scope > 0.0  # the conformal gate doubts it...
    assert not detail.declared
    # ...but a p-value is no evidence against a controller: the scores are the probabilities.
    assert float(detail.scores.sum()) == pytest.approx(1.0, abs=1e-5)
    assert np.allclose(detail.scores, detail.probabilities)


TRAINED = RoutingConfig(verify_threshold=0.35, far_ahead_ratio=3.0)
#: Calibrated confidences close together: the calibrated reading alone would ask back.
CLOSE = [Candidate("hardware", "Hardware", 0.32), Candidate("access", "Access", 0.18)]


@pytest.mark.parametrize(
    ("odds", "outcome"),
    [
        (SemanticOdds("hardware", 0.9, 0.05), "routed"),  # the model's clear first choice
        (None, "clarify"),  # no semantic model: as before
        (SemanticOdds("access", 0.9, 0.05), "clarify"),  # the model prefers another
        (SemanticOdds("hardware", 0.45, 0.1), "clarify"),  # less than half its mass
        (SemanticOdds("hardware", 0.6, 0.3), "clarify"),  # only twice the next one
    ],
)
def test_the_semantic_models_own_lead_is_far_ahead(odds: SemanticOdds | None, outcome: str) -> None:
    plan = Router(TRAINED).route(CLOSE, dry_run=_passes, chinese=False, registered=8, odds=odds)

    assert plan.outcome == outcome
    if outcome == "routed":
        assert plan.controller == "hardware"
        assert any("far ahead" in s and "semantic model" in s for s in plan.tier_path)


#: A weak leader over a runner-up the calibration puts at almost nothing (its extrapolation).
WEAK_OVER_NOTHING = [Candidate("hardware", "Hardware", 0.33), Candidate("access", "Access", 0.01)]


@pytest.mark.parametrize(
    "odds", [None, SemanticOdds("hardware", 0.3, 0.05), SemanticOdds("access", 0.6, 0.1)]
)
def test_a_calibrated_ratio_alone_is_no_lead(odds: SemanticOdds | None) -> None:
    # At 0.33 a wrong route costs more than the question (2 x 0.67 > 1): asked back, whatever
    # the ratio, unless the semantic model itself puts it far ahead.
    plan = Router(TRAINED).route(
        WEAK_OVER_NOTHING, dry_run=_passes, chinese=False, registered=8, odds=odds
    )

    assert plan.outcome == "clarify"
    assert not any("far ahead" in step for step in plan.tier_path)


def test_the_far_ahead_rule_stays_off_where_it_is_off() -> None:
    plan = Router(RoutingConfig()).route(
        CLOSE,
        dry_run=_passes,
        chinese=False,
        registered=8,
        odds=SemanticOdds("hardware", 0.9, 0.05),
    )

    assert plan.outcome == "clarify"


def test_a_message_declared_out_of_scope_is_not_routed_for_its_odds() -> None:
    plan = Router(TRAINED).route(
        CLOSE,
        dry_run=_passes,
        chinese=False,
        registered=8,
        out_of_scope=0.99,
        odds=SemanticOdds("hardware", 0.9, 0.05),
    )

    assert plan.outcome == "fallback"


def test_odds_read_the_semantic_scores_in_the_tables_order() -> None:
    odds = SemanticOdds.of(["a", "b", "c"], np.array([0.1, 0.7, 0.2]))

    assert odds == SemanticOdds("b", 0.7, 0.2)
    assert SemanticOdds.of(["a"], np.array([1.0])) is None


def test_a_large_set_is_calibrated_on_a_capped_stratified_fold() -> None:
    from brain.evaluation.run import MAX_CALIBRATION_ROWS, calibration_folds
    from brain.learning.labelled import LabelledRow

    rows = [LabelledRow(f"ticket {i}", f"category {i % 8}") for i in range(30_000)]

    ((fit, held),) = calibration_folds(rows)

    assert MAX_CALIBRATION_ROWS <= len(held) <= MAX_CALIBRATION_ROWS + 8
    assert len(fit) + len(held) == len(rows)
    assert {row.label for row in held} == {row.label for row in rows}
    # A set whose fifth is under the cap keeps its whole fifth.
    smaller = rows[:15_000]
    ((_, fifth),) = calibration_folds(smaller)
    assert len(fifth) == 3_000
