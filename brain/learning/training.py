"""Labelled routing examples: extra training texts per controller, and texts none should take.

Two sources, both JSON lines of `{"text", "controller"}` (`controller` "oos" or null = none):

- the shipped `brain/data/training.jsonl` for the built-in controllers (when
  `[training] shipped`); every CALIBRATION_EVERY-th row of each label forms its calibration
  split, held out (`[training] holdout`) only when the shipped calibration is refitted
  (`scripts/fit_default_calibration.py`);
- every `$BRAIN_HOME/training/*.jsonl`, for an organisation's own controllers.

Rows naming a controller that is not registered are ignored by the consumer.
"""

from __future__ import annotations

import functools
import logging
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from brain.learning.labelled import LabelledFileError, LabelledRow, read_rows
from core.config import Settings

log = logging.getLogger(__name__)

SHIPPED_TRAINING = Path(__file__).parent.parent / "data" / "training.jsonl"
SHIPPED_CALIBRATION = Path(__file__).parent.parent / "data" / "calibration_default.json"
LABEL_FIELD = "controller"
CALIBRATION_EVERY = 5


@dataclass(slots=True)
class TrainingData:
    """Examples per controller name, and texts no controller should take."""

    examples: dict[str, list[str]] = field(default_factory=dict)
    negatives: list[str] = field(default_factory=list)

    def add(self, rows: list[LabelledRow]) -> None:
        """Add labelled rows (a None label is a negative)."""
        for row in rows:
            if row.label is None:
                self.negatives.append(row.text)
            else:
                self.examples.setdefault(row.label, []).append(row.text)


@functools.cache
def _shipped_rows() -> tuple[LabelledRow, ...]:
    """The shipped file's rows, read once a process: it is part of the installed package and
    never changes under a running process, and every brain opened reads it (about 20 ms of
    JSON a time, which a test run or a host of several brains paid again and again)."""
    rows, _ = read_rows(SHIPPED_TRAINING, LABEL_FIELD)
    return tuple(rows)


def split_shipped() -> tuple[list[LabelledRow], list[LabelledRow]]:
    """The shipped rows as (fit split, calibration split), deterministic by file order."""
    rows = _shipped_rows()
    seen: dict[str | None, int] = defaultdict(int)
    fit: list[LabelledRow] = []
    calibration: list[LabelledRow] = []
    for row in rows:
        seen[row.label] += 1
        (calibration if seen[row.label] % CALIBRATION_EVERY == 0 else fit).append(row)
    return fit, calibration


def load_training(settings: Settings) -> TrainingData:
    """Everything the settings say to train on; unreadable files are skipped with a warning."""
    data = TrainingData()
    if settings.training.shipped and SHIPPED_TRAINING.is_file():
        fit, calibration = split_shipped()
        data.add(fit if settings.training.holdout else fit + calibration)
    folder = settings.path("training")
    if folder.is_dir():
        for path in sorted(folder.glob("*.jsonl")):
            try:
                rows, _ = read_rows(path, LABEL_FIELD, on_bad_row=_skip_row)
            except LabelledFileError as exc:
                log.warning("training file skipped: %s", exc)
                continue
            data.add(rows)
    return data


def _skip_row(problem: str) -> None:
    log.warning("training row skipped: %s", problem)


def shipped_calibration(settings: Settings) -> Path | None:
    """The calibration fitted with the shipped examples, when it applies to these settings."""
    usable = settings.training.shipped and not settings.training.holdout
    return SHIPPED_CALIBRATION if usable and SHIPPED_CALIBRATION.is_file() else None
