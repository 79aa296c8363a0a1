"""The calibrator: monotone in the total, saved and loaded, a documented default."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from brain.routing.calibration import Calibrator, reliability_table


def _synthetic(n: int = 600, seed: int = 0) -> tuple[list[dict[str, float]], list[bool]]:
    rng = np.random.default_rng(seed)
    totals = rng.uniform(0.1, 0.95, n)
    right = rng.uniform(size=n) < totals**2  # raw totals overstate how often they are right
    rows = [
        {"total": float(t), "margin": float(t) / 3, "semantic": float(t), "keyword": 0.0}
        for t in totals
    ]
    return rows, [bool(r) for r in right]


def test_default_is_identity_on_the_total() -> None:
    calibrator = Calibrator()
    assert not calibrator.fitted
    assert calibrator.apply(0.63) == pytest.approx(0.63)
    assert calibrator.apply(1.7) == 1.0 and calibrator.apply(-0.2) == 0.0


def test_fit_is_monotone_calibrated_and_round_trips(tmp_path: Path) -> None:
    rows, right = _synthetic()
    calibrator = Calibrator.fit(rows, right, source="synthetic")
    assert calibrator.fitted
    grid = np.linspace(0.0, 1.0, 41)
    values = [calibrator.apply(t, margin=t / 3, semantic=t) for t in grid]
    assert all(b >= a - 1e-12 for a, b in itertools.pairwise(values))
    # The synthetic truth is P(right) = total**2: 0.9 -> ~0.81, 0.5 -> ~0.25.
    assert calibrator.apply(0.9, margin=0.3, semantic=0.9) == pytest.approx(0.81, abs=0.15)
    assert calibrator.apply(0.5, margin=0.5 / 3, semantic=0.5) == pytest.approx(0.25, abs=0.15)

    path = calibrator.save(tmp_path / "nested" / "calibration.json")
    loaded = Calibrator.load(path)
    for t in (0.2, 0.55, 0.85):
        assert loaded.apply(t, margin=t / 3, semantic=t) == pytest.approx(
            calibrator.apply(t, margin=t / 3, semantic=t)
        )
    assert json.loads(path.read_text())["source"] == "synthetic"


def test_one_sided_data_keeps_the_default_and_bad_files_fail_clearly(tmp_path: Path) -> None:
    rows, _ = _synthetic(20)
    for side in (True, False):  # all right, and all wrong: either alone teaches nothing
        one_sided = Calibrator.fit(rows, [side] * 20)
        assert not one_sided.fitted, side
        assert one_sided.source.startswith("default: too little or one-sided data"), side
        assert one_sided.apply(0.63) == pytest.approx(0.63), side
    bad = tmp_path / "calibration.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="cannot read calibration"):
        Calibrator.load(bad)
    bad.write_text(json.dumps({"format": 99}), encoding="utf-8")
    with pytest.raises(ValueError, match="not a calibration file"):
        Calibrator.load(bad)


def test_reliability_table_bins() -> None:
    table = reliability_table([0.05, 0.15, 0.95, 0.99], [False, False, True, False])
    assert [b.count for b in table] == [1, 1, 2]
    assert table[-1].accuracy == 0.5


def test_a_calibration_saved_before_semantic_margin_still_loads(tmp_path: Path) -> None:
    rows, right = _synthetic()
    current = Calibrator.fit(rows, right).to_dict()
    old = dict(current, format=1, features=["total", "margin", "semantic", "keyword", "knowledge"])
    old["coef"] = current["coef"][:5]
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(old), encoding="utf-8")

    loaded = Calibrator.load(path)
    assert loaded.fitted and loaded.coef[-1] == 0.0
    # The new feature weighs nothing in an old file; the old ones apply as before.
    assert loaded.apply(0.7, margin=0.2, semantic=0.7, semantic_margin=0.5) == pytest.approx(
        loaded.apply(0.7, margin=0.2, semantic=0.7)
    )
    old["features"] = ["total", "keyword"]
    path.write_text(json.dumps(old), encoding="utf-8")
    with pytest.raises(ValueError, match="features differ"):
        Calibrator.load(path)


def test_assess_gives_the_confidence_and_a_score_that_orders_ties() -> None:
    rows, right = _synthetic()
    calibrator = Calibrator.fit(rows, right)
    grid = [calibrator.assess(t, margin=t / 3, semantic=t) for t in np.linspace(0.0, 1.0, 201)]
    for t, (confidence, _) in zip(np.linspace(0.0, 1.0, 201), grid, strict=True):
        assert confidence == calibrator.apply(t, margin=t / 3, semantic=t)
    # Isotonic steps give equal confidences; the score still tells those candidates apart.
    tied = [(a, b) for a, b in itertools.pairwise(grid) if a[0] == b[0]]
    assert tied and all(b[1] > a[1] for a, b in tied)
    assert Calibrator().assess(0.7) == (0.7, 0.7)


def test_the_built_in_signals_give_the_shipped_files_features_in_order() -> None:
    from brain.learning.training import SHIPPED_CALIBRATION
    from brain.routing.calibration import FEATURES
    from brain.signals.registry import BUILTIN_SIGNALS, calibration_features

    built_in = calibration_features([kind() for kind in BUILTIN_SIGNALS])
    shipped = json.loads(SHIPPED_CALIBRATION.read_text(encoding="utf-8"))
    assert built_in == FEATURES == tuple(shipped["features"])
    loaded = Calibrator.load(SHIPPED_CALIBRATION)
    assert loaded.fitted and loaded.features == built_in


def test_a_new_signals_feature_is_fitted_and_applied_without_editing_the_calibrator(
    tmp_path: Path,
) -> None:
    from brain.signals.base import Signal
    from brain.signals.registry import BUILTIN_SIGNALS, calibration_features

    class Urgent(Signal):
        name = "urgent"
        word = "urgency"
        calibrated = True

    features = calibration_features([*(kind() for kind in BUILTIN_SIGNALS), Urgent()])
    assert features == (
        *calibration_features([k() for k in BUILTIN_SIGNALS])[:5],
        "urgent",
        "semantic_margin",
    )
    rng = np.random.default_rng(1)
    totals, urgent = rng.uniform(0.1, 0.9, 600), rng.uniform(0.0, 1.0, 600)
    right = [bool(u > 0.5) for u in urgent]  # only the new signal tells right from wrong
    rows = [
        {"total": float(t), "margin": 0.1, "urgent": float(u)}
        for t, u in zip(totals, urgent, strict=True)
    ]
    calibrator = Calibrator.fit(rows, right, features=features)
    loaded = Calibrator.load(calibrator.save(tmp_path / "calibration.json"))
    assert loaded.features == features
    assert (
        loaded.apply(0.5, margin=0.1, urgent=0.9)
        > 0.8
        > 0.2
        > loaded.apply(0.5, margin=0.1, urgent=0.1)
    )
