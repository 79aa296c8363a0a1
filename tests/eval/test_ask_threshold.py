"""`brain eval --train`: where the trained brain starts asking back is chosen on the
calibration decisions by expected cost, and reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brain.routing.cost import CANDIDATES, QUESTION_COST, REROUTE_COST
from cli import main


def test_the_ask_back_threshold_is_chosen_on_validation_and_reported(
    eval_files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BRAIN_EMBEDDER", "none")
    argv = ["eval", "--train", str(eval_files["train"]), "--val", str(eval_files["val"])]
    argv += ["--test", str(eval_files["test"]), "--label", "intent", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    ask_below = report["setup"]["ask_below"]
    assert min(CANDIDATES) <= ask_below <= 0.8
    # A question costs less than a wrong route, so nothing surer than 1 - q/r is asked about
    # unless validation showed such routes wrong more often than the calibration says.
    assert QUESTION_COST < REROUTE_COST
    assert report["routed_accuracy"] >= 0.8
