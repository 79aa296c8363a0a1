"""Calibration shared by replicas on PostgreSQL: fitted once (`brain eval --val` through one
home), stored with a version, taken up by every other home, including a running one."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from brain.routing.calibration import Calibrator, HomeCalibration, publish
from core.config import Settings
from core.stores import open_stores


def _fitted(seed: int, power: float) -> Calibrator:
    rng = np.random.default_rng(seed)
    totals = rng.uniform(0.1, 0.95, 400)
    right = rng.uniform(size=400) < totals**power
    rows = [{"total": float(t), "margin": float(t) / 3, "semantic": float(t)} for t in totals]
    return Calibrator.fit(rows, [bool(r) for r in right], source=f"synthetic {power}")


def test_a_calibration_published_through_one_home_is_used_by_the_others(
    postgres_settings: Settings, tmp_path: Path
) -> None:
    store = open_stores(postgres_settings).artifacts
    assert store is not None
    running = HomeCalibration(tmp_path / "running", None, shared=store, check_s=0.0)
    assert not running.calibrator.fitted and running.version == 0

    first = _fitted(1, 2.0)
    assert publish(store, first) == 1
    started = HomeCalibration(
        tmp_path / "started", None, shared=open_stores(postgres_settings).artifacts
    )
    assert started.version == 1 and started.calibrator.to_dict() == first.to_dict()
    assert "shared version 1" in started.status

    second = _fitted(2, 3.0)
    assert publish(store, second) == 2
    running.assess(0.7, {"margin": 0.2, "semantic": 0.7})  # its next check takes version 2
    assert running.version == 2 and running.calibrator.to_dict() == second.to_dict()
    assert started.version == 1  # checks again only after SHARED_CHECK_S


def test_without_a_shared_store_the_home_file_is_used(tmp_path: Path) -> None:
    home = tmp_path / "home"
    saved = _fitted(3, 2.0)
    saved.save(home / "calibration.json")
    local = HomeCalibration(home, None)
    assert local.version == 0 and local.calibrator.to_dict() == saved.to_dict()
