"""The multilingual measure's thresholds, matched to MiniLM's (`brain.memory.example_pool`).

LINK and FLOOR are MiniLM cosines set on the tuned correction stories. The multilingual
encoder's cosines are on another scale, and the stories hold too few Chinese wordings to tune
on, so its thresholds are matched instead: over the shipped training rows, the share of English
rows that have a row of *another* controller at least FLOOR alike by MiniLM is how often a
correction would be alike enough to a message it should not move; the multilingual threshold is
the cosine that the same share of Chinese rows reach to a row of another controller, with English
rows on the other side (MIXED) or Chinese ones (CHINESE). Nothing here reads the stories.

Run: `PYTHONPATH=. .venv/bin/python benchmarks/multilingual_thresholds.py`
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def _nearest_other(
    similarity: np.ndarray, rows: np.ndarray, columns: np.ndarray, labels: np.ndarray
) -> np.ndarray:
    """For each row, its highest similarity to a column of another label (itself excluded)."""
    found = np.empty(len(rows), dtype=np.float32)
    for at, row in enumerate(rows):
        other = (labels[columns] != labels[row]) & (columns != row)
        found[at] = similarity[at][other].max()
    return found


def main() -> None:
    from brain.learning.training import SHIPPED_TRAINING
    from brain.memory.example_pool import CROSS_FLOOR, CROSS_LINK, FLOOR, LINK
    from brain.memory.reach import Measure
    from core.text.embedder import get_dense_embedder
    from core.text.language import is_chinese
    from core.text.multilingual import multilingual_vectors

    rows = [json.loads(line) for line in SHIPPED_TRAINING.read_text("utf-8").splitlines() if line]
    texts = [str(row["text"]) for row in rows]
    labels = np.array([str(row["controller"]) for row in rows])
    chinese = np.array([is_chinese(text) for text in texts])
    embedder = get_dense_embedder()
    crossed = multilingual_vectors(texts)
    if embedder is None or crossed is None:
        raise SystemExit("needs MiniLM and the multilingual encoder")
    minilm = embedder.embed(texts)
    minilm = minilm / np.linalg.norm(minilm, axis=1, keepdims=True)
    english, zh = np.flatnonzero(~chinese), np.flatnonzero(chinese)
    base = _nearest_other(minilm[english] @ minilm[english].T, english, english, labels)
    pairs = {
        Measure.MIXED: _nearest_other(crossed[zh] @ crossed[english].T, zh, english, labels),
        Measure.CHINESE: _nearest_other(crossed[zh] @ crossed[zh].T, zh, zh, labels),
    }
    print(f"{len(english)} English and {len(zh)} Chinese training rows")
    for name, value, shipped in (("LINK", LINK, CROSS_LINK), ("FLOOR", FLOOR, CROSS_FLOOR)):
        share = float((base >= value).mean())
        print(
            f"{name} {value:.2f}: {share:.1%} of English rows have another controller's that alike"
        )
        for measure, nearest in pairs.items():
            matched = float(np.quantile(nearest, 1.0 - share))
            print(f"  {measure.name:8} matched {matched:.3f}  (in use {shipped[measure]:.3f})")


if __name__ == "__main__":
    main()
