"""What a fit on labelled history chose for routing is kept in the home: `brain controllers
import` saves where asking back starts (chosen as `brain eval --train` chooses it), the next
brain routes with it unless the configuration says otherwise, and the two paths route a
carved split alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brain.engine import Brain
from brain.routing.cost import CANDIDATES, FAR_AHEAD_RATIO
from brain.routing.fitted import FILE
from cli import main
from core.config import load_settings
from tests.eval.test_controllers_import import _csv, _rows


def _jsonl(path: Path, rows: list[tuple[str, str]]) -> Path:
    with path.open("w", encoding="utf-8") as handle:
        for text, label in rows:
            handle.write(json.dumps({"text": text, "queue": label}) + "\n")
    return path


@pytest.mark.slow
def test_the_import_keeps_its_ask_back_threshold_and_eval_routes_alike(
    tmp_path: Path,
    isolated_env: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BRAIN_EMBEDDER", "none")
    train, carved = _rows(240, 10), _rows(60, 11)
    source = _csv(tmp_path / "desk.csv", train)
    argv = ["controllers", "import", str(source), "--text", "body", "--label", "queue", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)

    fitted = json.loads((isolated_env / FILE).read_text())
    assert fitted["ask_below"] in CANDIDATES and fitted["ask_below"] == report["ask_below"]
    assert fitted["far_ahead_ratio"] == FAR_AHEAD_RATIO
    with Brain.open(load_settings()) as brain:
        assert brain.settings.routing.verify_threshold == min(fitted["ask_below"], 0.8)
        assert brain.settings.routing.far_ahead_ratio == FAR_AHEAD_RATIO

    # The home the import left and a brain trained by `brain eval --train` on the same rows
    # decide a carved split alike (the home's controllers by name, eval's by label).
    names = {"Payroll": "payroll", "Printer Support": "printer_support", "Purchase": "purchase"}
    by_name = _jsonl(tmp_path / "carved-names.jsonl", [(t, names[q]) for t, q in carved])
    assert main(["eval", "--test", str(by_name), "--label", "queue", "--json"]) == 0
    imported = json.loads(capsys.readouterr().out)
    train_file = _jsonl(tmp_path / "train.jsonl", train)
    test_file = _jsonl(tmp_path / "carved.jsonl", carved)
    argv = ["eval", "--train", str(train_file), "--test", str(test_file), "--label", "queue"]
    assert main([*argv, "--json"]) == 0
    trained = json.loads(capsys.readouterr().out)
    assert trained["setup"]["ask_below"] in CANDIDATES
    assert trained["in_scope_accuracy"] >= 0.9
    assert abs(imported["in_scope_accuracy"] - trained["in_scope_accuracy"]) <= 0.05

    # What the configuration sets explicitly wins over the fit.
    (isolated_env / "brain.toml").write_text("[routing]\nverify_threshold = 0.55\n")
    with Brain.open(load_settings()) as brain:
        assert brain.settings.routing.verify_threshold == 0.55
        assert brain.settings.routing.far_ahead_ratio == FAR_AHEAD_RATIO
