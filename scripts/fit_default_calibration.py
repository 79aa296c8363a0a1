"""Refit the shipped calibration (brain/data/calibration_default.json).

The semantic signal is fitted on the shipped training examples minus their calibration split;
the brain then decides every row of that held-out split, uncalibrated, and the calibrator learns
P(best candidate is right) from those decisions (`brain eval --val`). In use the scorer is
fitted on all examples, so the shipped calibration is, if anything, slightly conservative.

Run: .venv/bin/python scripts/fit_default_calibration.py
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from brain.learning.training import LABEL_FIELD, SHIPPED_CALIBRATION, split_shipped
from cli import main as brain_main


def fit_default_calibration() -> int:
    """Fit in a scratch home and copy the result next to the shipped training file."""
    _, calibration = split_shipped()
    with tempfile.TemporaryDirectory(prefix="brain-calibrate-") as scratch:
        home = Path(scratch) / "home"
        home.mkdir()
        (home / "brain.toml").write_text("[training]\nholdout = true\n", encoding="utf-8")
        rows = Path(scratch) / "calibration.jsonl"
        with rows.open("w", encoding="utf-8") as handle:
            for row in calibration:
                record = {"text": row.text, LABEL_FIELD: row.label or "oos"}
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        os.environ["BRAIN_HOME"] = str(home)
        os.environ.pop("ANTHROPIC_API_KEY", None)
        args = ["eval", "--test", str(rows), "--val", str(rows), "--label", LABEL_FIELD]
        code = brain_main(args)
        if code != 0:
            return code
        fitted = home / "calibration.json"
        if not fitted.exists():
            # `brain eval --val` kept the old one: it scored better on a held-out fold.
            print(f"kept {SHIPPED_CALIBRATION}: the refitted one scored worse", file=sys.stderr)
            return 0
        shutil.copyfile(fitted, SHIPPED_CALIBRATION)
    print(f"wrote {SHIPPED_CALIBRATION} from {len(calibration)} held-out rows", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(fit_default_calibration())
