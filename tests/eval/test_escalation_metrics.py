"""What `brain eval` reports about escalation, classes and misroutes, and how `--val` guards
the home's calibration."""

from __future__ import annotations

import json
from pathlib import Path

from brain.evaluation.metrics import Outcome, summarise
from brain.evaluation.run import _replace_calibration_if_better
from brain.learning.labelled import LabelledRow, read_rows
from brain.routing.calibration import Calibrator
from cli.eval import render
from core.config import Settings


def _outcome(text: str, label: str | None, got: str | None, urgent: bool, paged: bool) -> Outcome:
    return Outcome(
        row=LabelledRow(text, label, urgent),
        controller=got,
        confidence=0.9 if got else 0.1,
        tier="fast" if got else "dynamic",
        outcome="routed" if got else "clarify",
        escalate=paged,
        latency_ms=1.0,
        llm_calls=0,
    )


OUTCOMES = [
    _outcome("leaked key", "incident", "incident", True, True),
    _outcome("phished", "incident", "access", True, True),
    _outcome("company down", "incident", "incident", True, False),
    _outcome("policy?", "consultation", "consultation", False, True),
    _outcome("vpn", "incident", "incident", False, False),
    _outcome("pizza", None, None, False, False),
]


def test_escalation_precision_recall_and_wrong_pages() -> None:
    report = summarise(OUTCOMES)

    assert report["escalation_labelled"] == 6 and report["escalation_urgent"] == 3
    assert report["escalation_recall"] == round(2 / 3, 4)
    assert report["escalation_precision"] == round(2 / 3, 4)
    assert report["wrong_pages"] == 1
    assert report["wrong_pages_per_1000"] == round(1000 / 6, 2)
    assert report["missed_escalations"] == ["company down"]
    assert report["wrong_escalations"] == ["policy?"]


def test_per_class_accuracy_and_the_misroutes() -> None:
    report = summarise(OUTCOMES)

    assert report["per_class"]["incident"] == {"n": 4, "right": 3, "accuracy": 0.75}
    assert report["per_class"]["oos"] == {"n": 1, "right": 1, "accuracy": 1.0}
    assert report["misroutes"] == [{"text": "phished", "wanted": "incident", "got": "access"}]
    text = render({**report, "setup": {}})
    assert "escalation recall" in text and "66.7%" in text
    assert "'phished': wanted incident, got access" in text


def test_rows_without_an_urgent_field_report_no_escalation_figures(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps({"text": "vpn down", "controller": "incident"}) + "\n")
    rows, _ = read_rows(path)

    outcome = _outcome(rows[0].text, "incident", "incident", False, False)
    outcome.row = rows[0]
    report = summarise([outcome])

    assert rows[0].urgent is None
    assert report["escalation_labelled"] == 0 and "escalation_recall" not in report


def _decided(count: int, *, inverted_fit: bool) -> list[Outcome]:
    """Rows whose top candidate is right when its total is high; the rows `--val` fits on
    (all but every 5th) say the opposite when `inverted_fit`."""
    outcomes = []
    for i in range(count):
        total = (i * 37 % 100) / 100
        right = total > 0.5
        if inverted_fit and i % 5 != 4:
            right = not right
        outcome = _outcome(f"row {i}", "a" if right else "b", "a", False, False)
        outcome.top = "a"
        outcome.features = {"total": total, "margin": total / 2}
        outcomes.append(outcome)
    return outcomes


def test_val_keeps_a_calibration_that_scores_better_on_the_held_out_fold(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    good = _decided(200, inverted_fit=False)
    old = Calibrator.fit([o.features for o in good], [o.top_right for o in good], source="old")
    old.save(tmp_path / "calibration.json")
    before = (tmp_path / "calibration.json").read_text()
    setup: dict = {}
    said: list[str] = []

    _replace_calibration_if_better(
        settings, _decided(200, inverted_fit=True), 200, setup, said.append
    )

    assert setup["calibration_replaced"] is False
    assert (tmp_path / "calibration.json").read_text() == before
    assert setup["calibration_check"]["brier_new"] > setup["calibration_check"]["brier_old"]
    assert said and "kept the existing calibration" in said[0]


def test_val_replaces_a_worse_calibration(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    settings.training.shipped = False  # the old one is the identity default
    setup: dict = {}

    _replace_calibration_if_better(settings, _decided(200, inverted_fit=False), 200, setup, None)

    assert setup["calibration_replaced"] is True
    assert Calibrator.load(tmp_path / "calibration.json").fitted
