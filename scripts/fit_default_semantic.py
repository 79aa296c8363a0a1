"""Fit the built-in controllers' routing model at build time (brain/data/semantic-<key>.npz).

A fresh home would otherwise spend its first decision fitting the semantic model on the
shipped training rows (seconds to tens of seconds on 2 cores). The fit is made here, in a
scratch home through exactly the brain's own path (`BrainParts.semantic_model`), and copied
next to the training data under its cache key; `SemanticScorer.fit` loads it when a home's key
is the same (built-in controllers, shipped training rows and negatives, no tuned encoder),
and fits as before otherwise. Re-run it whenever the controllers' texts, the training data,
the negatives or the scorer change (the key changes, and the old file is then never loaded):
`tests/eval/test_shipped_fit.py` fails until it is.

Run: .venv/bin/python scripts/fit_default_semantic.py
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

from brain.engine import Brain
from brain.semantic.files import LEGACY_SUFFIX, MODEL_SUFFIX, SHIPPED_DIR
from core.config import load_settings


def fit_default_semantic() -> int:
    """Fit in a scratch home and copy the cached model next to the shipped training data."""
    old = sorted(SHIPPED_DIR.glob(f"semantic-*{MODEL_SUFFIX}"))
    old += SHIPPED_DIR.glob(f"semantic-*{LEGACY_SUFFIX}")  # the format before .npz
    for path in old:  # so the scratch brain fits rather than loads the previous one
        path.unlink()
    with tempfile.TemporaryDirectory(prefix="brain-semantic-") as scratch:
        home = Path(scratch) / "home"
        env = {k: v for k, v in os.environ.items() if not k.startswith("BRAIN_")}
        env.pop("ANTHROPIC_API_KEY", None)
        env["BRAIN_HOME"] = str(home)
        if "BRAIN_ENCODER_CACHE" in os.environ:
            env["BRAIN_ENCODER_CACHE"] = os.environ["BRAIN_ENCODER_CACHE"]
        settings = load_settings(env)
        with Brain.open(settings) as brain:
            if brain.semantic_model is None:
                print("no semantic model could be fitted", file=sys.stderr)
                return 1
        fitted = sorted((home / "models").glob(f"semantic-*{MODEL_SUFFIX}"))
        if len(fitted) != 1:
            print(f"expected one fitted model, found {fitted}", file=sys.stderr)
            return 1
        target = SHIPPED_DIR / fitted[0].name
        shutil.copyfile(fitted[0], target)
    digest = hashlib.sha256(target.read_bytes()).hexdigest()[:16]
    size = target.stat().st_size / 2**20
    print(f"wrote {target.name} ({size:.1f} MiB, sha256 {digest})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(fit_default_semantic())
