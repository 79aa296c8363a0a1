"""A fit on labelled history weighs its out-of-scope rows at a stated share of the traffic
(`[routing] out_of_scope_share`), not at their accidental share of the rows: where asking back
starts and the calibration are chosen for messages no controller should take as well."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from brain.routing.calibration import Calibrator
from brain.routing.cost import ask_threshold, prevalence_weights
from cli import main


def _decisions() -> tuple[list[float], list[bool], list[bool]]:
    """1,000 in-scope decisions (900 sure and right; 100 at 0.45, 60 of them right) and 10
    out-of-scope ones at 0.45 (never right): 1% of the rows, as in CLINC150's train."""
    confidences = [0.9] * 900 + [0.45] * 100 + [0.45] * 10
    right = [True] * 900 + [True] * 60 + [False] * 40 + [False] * 10
    outside = [False] * 1000 + [True] * 10
    return confidences, right, outside


def test_out_of_scope_rows_weigh_their_stated_share_in_the_ask_back_threshold() -> None:
    confidences, right, outside = _decisions()
    # As the rows come, 110 questions cost more than 50 wrong routes: nothing is asked back.
    assert ask_threshold(confidences, right) <= 0.45
    # At a tenth of the traffic the out-of-scope messages make routing them the costlier.
    weights = prevalence_weights(outside, 0.1)
    assert weights[outside].sum() / weights.sum() == pytest.approx(0.1)
    assert ask_threshold(confidences, right, weights=weights) == 0.5
    # No out-of-scope row, or a share of 0: nothing is reweighed.
    assert (prevalence_weights([False] * 5, 0.1) == 1).all()
    assert (prevalence_weights(outside, 0.0) == 1).all()


def test_the_calibration_is_fitted_at_the_stated_share() -> None:
    confidences, right, outside = _decisions()
    rows = [{"total": c, "margin": c / 2} for c in confidences]
    plain = Calibrator.fit(rows, right, features=("total", "margin"))
    weighed = Calibrator.fit(
        rows, right, features=("total", "margin"), weights=prevalence_weights(outside, 0.1)
    )
    # Of the 0.45 decisions 60 of 110 are right as they come, 60 of 211 at a tenth of traffic.
    assert plain.apply(0.45, margin=0.225) == pytest.approx(61 / 112, abs=0.02)
    assert weighed.apply(0.45, margin=0.225) == pytest.approx(61 / 213, abs=0.02)
    assert weighed.apply(0.9, margin=0.45) == pytest.approx(plain.apply(0.9, margin=0.45))


@pytest.mark.slow
def test_brain_eval_reports_and_honours_the_share(
    eval_files: dict[str, Path],
    isolated_env: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BRAIN_EMBEDDER", "none")
    argv = ["eval", "--train", str(eval_files["train"]), "--test", str(eval_files["test"])]
    argv += ["--label", "intent", "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["setup"]["out_of_scope_share"] == 0.1
    isolated_env.mkdir(parents=True, exist_ok=True)
    (isolated_env / "brain.toml").write_text("[routing]\nout_of_scope_share = 0.3\n")
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["setup"]["out_of_scope_share"] == 0.3
    assert np.isfinite(report["setup"]["ask_below"])
