"""Fit the agreement reach model (`brain.memory.reach_model`) and write
`brain/data/agreement_reach.json`.

Simulated agreements from the looked-at correction stories (`benchmarks/org_agreement_stories.py`:
TUNE, HELD_OUT, FRESH, STRANGER, FRESH2; never FRESH2_HOLD, which stays a yardstick nobody fitted
or read): each story's three taught wordings are a group of its target; its twelve paraphrases
are messages of the kind (1); the same set's other stories' paraphrases, the story's look-alikes
(`must_not`) and every shipped example of another controller (compared without itself) are not
(0). Shipped negatives weigh SHIPPED_WEIGHT each: there are a thousand of them a story.

The bar is the lowest probability at which at most STORY_SHARE of the story negatives and
SHIPPED_SHARE of the shipped ones reach. Before writing, each looked-at set is held out in turn
(fitted and barred on the others) and its figures printed beside the hand-set gates' (the
centroid bar 0.387 with the nearest-shipped rule): paraphrases reached, other stories'
paraphrases and look-alikes reached, shipped examples reached per thousand.

Run: `PYTHONPATH=. .venv/bin/python scripts/fit_agreement_reach.py [--check]` (--check: print
only, write nothing).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from org_agreement_stories import FRESH, FRESH2, HELD_OUT, STRANGER, TUNE, Story  # noqa: E402

from brain.memory.reach_model import FEATURES, MODEL_FILE, ReachModel, readings  # noqa: E402
from brain.memory.shipped_view import DEFAULT_BAR, MARGIN  # noqa: E402

SETS: dict[str, tuple[Story, ...]] = {
    "tune": TUNE,
    "held-out": HELD_OUT,
    "fresh": FRESH,
    "stranger": STRANGER,
    "fresh2": FRESH2,
}
#: Weight of one shipped negative (a story has about a thousand of them, and twelve paraphrases).
SHIPPED_WEIGHT = 0.05
#: Shares of negatives the bar lets through (story negatives, shipped examples).
STORY_SHARE = 0.02
SHIPPED_SHARE = 0.01
#: Inverse regularisation of the logistic fit.
C = 1.0


def _rows(vectors: dict[str, np.ndarray], shipped: np.ndarray, labels: np.ndarray) -> tuple:
    found: list[tuple[str, str, int, np.ndarray]] = []
    for name, stories in SETS.items():
        for story in stories:
            centre = np.stack([vectors[t] for t in story.taught]).sum(axis=0)
            centre /= np.linalg.norm(centre)

            def read(query: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
                rows, kinds = (shipped, labels) if keep is None else (shipped[keep], labels[keep])
                return readings(centre, query, rows, kinds, story.target)  # noqa: B023

            for text in story.paraphrases:
                found.append((name, "paraphrase", 1, read(vectors[text])))
            for text in story.must_not:
                found.append((name, "near", 0, read(vectors[text])))
            for other in stories:
                if other is not story:
                    found += [(name, "other", 0, read(vectors[t])) for t in other.paraphrases]
            for row in np.flatnonzero(labels != story.target):
                keep = np.ones(len(labels), dtype=bool)
                keep[row] = False
                found.append((name, "shipped", 0, read(shipped[row], keep)))
    sets = np.array([r[0] for r in found])
    kinds = np.array([r[1] for r in found])
    y = np.array([r[2] for r in found])
    x = np.stack([r[3] for r in found])
    return sets, kinds, y, x


def fit(x: np.ndarray, y: np.ndarray, kinds: np.ndarray) -> ReachModel:
    from sklearn.linear_model import LogisticRegression

    weights = np.where(kinds == "shipped", SHIPPED_WEIGHT, 1.0)
    model = LogisticRegression(C=C, max_iter=2000).fit(x, y, sample_weight=weights)
    coef, intercept = model.coef_[0], float(model.intercept_[0])
    fitted = ReachModel(tuple(float(c) for c in coef), intercept, 1.0)
    p = np.array([fitted.probability(row) for row in x])
    story = p[(kinds == "other") | (kinds == "near")]
    shipped = p[kinds == "shipped"]
    bar = max(
        float(np.quantile(story, 1 - STORY_SHARE)), float(np.quantile(shipped, 1 - SHIPPED_SHARE))
    )
    return ReachModel(fitted.coef, intercept, round(bar, 4))


def _gates(x: np.ndarray) -> np.ndarray:
    """The hand-set gates on the same readings: the centroid bar, and the nearest shipped
    example of another controller no more than MARGIN nearer, or overruled."""
    centre, gap, over = x[:, 0], x[:, 1], x[:, 2]
    return (centre >= DEFAULT_BAR) & ((gap >= -MARGIN) | (over >= DEFAULT_BAR))


def _figures(label: str, reached: np.ndarray, kinds: np.ndarray) -> str:
    def of(kind: str) -> str:
        return f"{int(reached[kinds == kind].sum())}/{int((kinds == kind).sum())}"

    shipped = 1000 * float(reached[kinds == "shipped"].mean())
    return (
        f"  {label:6} paraphrases {of('paraphrase'):7} other {of('other'):7} "
        f"near {of('near'):5} shipped {shipped:.1f}/1000"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="print the figures, write nothing")
    args = parser.parse_args()
    from brain.learning.training import load_training
    from core.config import Settings
    from core.text.multilingual import multilingual_vectors

    examples = load_training(Settings()).examples
    labels = np.array([name for name, texts in examples.items() for _ in texts], dtype=object)
    texts = sorted(
        {t for s in SETS.values() for y in s for t in y.taught + y.paraphrases + y.must_not}
    )
    encoded = multilingual_vectors(texts + [t for ts in examples.values() for t in ts])
    if encoded is None:
        raise SystemExit("the multilingual encoder cannot run")
    vectors = dict(zip(texts, encoded[: len(texts)], strict=True))
    sets, kinds, y, x = _rows(vectors, encoded[len(texts) :], labels)
    for held in SETS:
        train = sets != held
        model = fit(x[train], y[train], kinds[train])
        reached = np.array([model.reaches(row) for row in x[~train]])
        print(f"{held} (held out, bar {model.bar:.3f})")
        print(_figures("model", reached, kinds[~train]))
        print(_figures("gates", _gates(x[~train]), kinds[~train]))
    model = fit(x, y, kinds)
    print("all sets:", json.dumps(model.to_dict()))
    print(_figures("model", np.array([model.reaches(row) for row in x]), kinds))
    if not args.check:
        MODEL_FILE.write_text(json.dumps(model.to_dict(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {MODEL_FILE.relative_to(REPO)} ({', '.join(FEATURES)})")


if __name__ == "__main__":
    main()
