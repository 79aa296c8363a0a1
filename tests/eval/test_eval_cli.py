"""`brain eval` end to end through the CLI on tiny synthetic data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brain.evaluation.metrics import WAYS
from cli import main


def _run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def test_eval_with_train_and_val_reports_sane_metrics(
    eval_files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    isolated_env: Path,
) -> None:
    monkeypatch.setenv("BRAIN_EMBEDDER", "none")
    report = _run_json(
        capsys,
        [
            "eval",
            "--train", str(eval_files["train"]),
            "--val", str(eval_files["val"]),
            "--test", str(eval_files["test"]),
            "--label", "intent",
            "--json",
        ],
    )  # fmt: skip
    for key in ("n", "in_scope_accuracy", "oos_recall", "oos_precision", "tiers", "llm_calls"):
        assert key in report
    assert report["n"] == 22 and report["in_scope"] == 18 and report["out_of_scope"] == 4
    assert sum(report["tiers"].values()) == report["n"]
    assert set(report["tiers"]) <= {"fast", "verify", "dynamic"}
    assert (
        report["latency_ms"]["p50"] > 0
        and report["latency_ms"]["p99"] >= report["latency_ms"]["p50"]
    )
    assert report["llm_calls"] == 0
    # "Declared out of scope" (fallback) is a subset of "not routed" (fallback or clarify).
    declared = report["outcomes"].get("fallback", 0)
    not_routed = declared + report["outcomes"].get("clarify", 0)
    if report["declared_oos_precision"] is not None:
        assert round(report["declared_oos_precision"] * declared) <= report["out_of_scope"]
    assert report["declared_oos_recall"] <= report["oos_recall"]
    assert report["in_scope_asked_back"] <= min(not_routed, report["in_scope"])
    # Where every out-of-scope row went, and why each in-scope one not routed was not: the ways
    # add up to the rows and agree with the outcomes counted above.
    went, held = report["out_of_scope_ways"], report["in_scope_not_routed_ways"]
    assert set(went) <= set(WAYS) and set(held) <= set(WAYS)
    assert sum(went.values()) == report["out_of_scope"]
    assert sum(held.values()) + report["routed"] == report["n"] - sum(
        n for way, n in went.items() if not way.startswith("routed")
    )
    assert held.get("asked back", 0) == report["in_scope_asked_back"]
    oos_declared = went.get("declared out of scope", 0) + went.get("turned away otherwise", 0)
    assert oos_declared == round(report["declared_oos_recall"] * report["out_of_scope"])
    # Three labels: chance is 1/3. Templated messages are easy; the brain must do far better.
    assert report["in_scope_accuracy"] >= 0.8
    assert report["setup"]["controllers"] == 3
    assert report["setup"]["calibration"].startswith("fitted on val")
    # The user's home is untouched by a --train evaluation.
    assert not (isolated_env / "calibration.json").exists()


@pytest.mark.slow
def test_eval_without_val_calibrates_on_train_folds(
    eval_files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BRAIN_EMBEDDER", "none")
    report = _run_json(
        capsys,
        ["eval", "--train", str(eval_files["train"]), "--test", str(eval_files["test"]), "--json"],
    )
    assert report["setup"]["label"] == "intent"
    assert "held-out fold" in report["setup"]["calibration"]
    assert 0.0 <= report["oos_recall"] <= 1.0
    assert report["in_scope_accuracy"] >= 0.8


@pytest.mark.slow
def test_eval_human_output_and_bad_input(
    eval_files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("BRAIN_EMBEDDER", "none")
    assert (
        main(["eval", "--train", str(eval_files["train"]), "--test", str(eval_files["test"])]) == 0
    )
    out = capsys.readouterr().out
    assert "in-scope accuracy" in out and "oos recall" in out and "oos went" in out

    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"text": "hi", "intent": "a"}\n{not json\n', encoding="utf-8")
    assert main(["eval", "--test", str(broken)]) == 2
    assert "line 2" in capsys.readouterr().err

    unlabelled = tmp_path / "unlabelled.jsonl"
    unlabelled.write_text('{"text": "hi"}\n', encoding="utf-8")
    assert main(["eval", "--test", str(unlabelled)]) == 2
    assert "--label" in capsys.readouterr().err

    assert main(["eval", "--test", str(tmp_path / "missing.jsonl")]) == 2
