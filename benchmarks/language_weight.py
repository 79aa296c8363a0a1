"""How much the semantic scorer should trust MiniLM against the n-grams, by language.

`brain.semantic.scorer` multiplies a logistic regression on the MiniLM embedding with a naive Bayes
on
character and word n-grams, the first weighted `ENSEMBLE_WEIGHT[language]` in log space.
MiniLM is an English model, so on Chinese text the n-grams may deserve more. This runs 5-fold
cross-validation on the shipped training rows (brain/data/training.jsonl; the built-in
controllers' catalog texts are always in the fit, out-of-scope rows are negatives) and prints,
for each weight tried on Chinese and mixed text, the share of held-out rows per language that
the scorer gets right (top controller, or "out of scope" when P(out of scope) >= 0.5). English
text keeps its weight throughout, so its column is the baseline.

Run: `.venv/bin/python benchmarks/language_weight.py [--weights 0.85,0.7,0.6,0.5]` (about
15 s per fold and weight on 2 cores).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

FOLDS = 5
LANGUAGES = ("en", "mixed", "zh")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", default="0.85,0.7,0.6,0.5", help="for zh and mixed text")
    args = parser.parse_args()
    weights = [float(w) for w in args.weights.split(",") if w.strip()]

    import brain.semantic.features as semantic
    from brain.learning.labelled import read_rows
    from brain.learning.training import LABEL_FIELD, SHIPPED_TRAINING, TrainingData
    from brain.semantic.scorer import SemanticScorer
    from controllers.registry import ControllerRegistry
    from core.config import load_settings
    from core.text.embedder import open_embedder
    from core.text.language import detect_language

    english = semantic.ENSEMBLE_WEIGHT["en"]
    with tempfile.TemporaryDirectory(prefix="language-weight-") as home:
        settings = load_settings({**os.environ, "BRAIN_HOME": home})
        controllers = ControllerRegistry.load(settings).all()
    rows, _ = read_rows(SHIPPED_TRAINING, LABEL_FIELD)
    fold_of = np.random.default_rng(0).integers(0, FOLDS, len(rows))
    embedder = open_embedder("onnx", settings)
    right: dict[tuple[float, str], Counter[str]] = defaultdict(Counter)
    for weight in weights:
        semantic.ENSEMBLE_WEIGHT = {"en": english, "mixed": weight, "zh": weight}
        for fold in range(FOLDS):
            fit = TrainingData()
            fit.add([row for row, row_fold in zip(rows, fold_of, strict=True) if row_fold != fold])
            scorer = SemanticScorer.fit(
                controllers, embedder, negatives=fit.negatives, extra_examples=fit.examples
            )
            held = [row for row, row_fold in zip(rows, fold_of, strict=True) if row_fold == fold]
            for row, detail in zip(held, scorer.analyse_many([r.text for r in held]), strict=True):
                best = scorer.names[int(np.argmax(detail.probabilities))]
                said = None if detail.out_of_scope >= 0.5 else best
                counts = right[(weight, detect_language(row.text))]
                counts["rows"] += 1
                counts["right"] += said == row.label
        print(f"weight {weight}: done", file=sys.stderr, flush=True)

    print(
        f"\nHeld-out rows right ({FOLDS}-fold CV on {len(rows)} shipped rows; en weight {english})"
    )
    print(f"{'zh/mixed weight':>15} " + " ".join(f"{lang:>16}" for lang in LANGUAGES))
    for weight in weights:
        cells = []
        for lang in LANGUAGES:
            counts = right[(weight, lang)]
            share = counts["right"] / counts["rows"] if counts["rows"] else 0.0
            cells.append(f"{share:6.1%} ({counts['right']}/{counts['rows']})")
        print(f"{weight:>15} " + " ".join(f"{c:>16}" for c in cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
