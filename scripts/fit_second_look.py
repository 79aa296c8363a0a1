"""Fit the second look at agreed corrections (`brain.memory.second_look`) and write
`brain/memory/second_look.json`.

The same simulated agreements as `scripts/fit_agreement_reach.py` (the looked-at correction
stories: TUNE, HELD_OUT, FRESH, STRANGER, FRESH2; never FRESH2_HOLD, which stays a yardstick
nobody fitted or read), read with the second look's five readings: the semantic model's
probability of the story's controller and the MiniLM centroid of its English wordings beside
the multilingual ones. Each looked-at set is held out in turn (fitted and barred on the others)
and its figures printed beside the three-reading model's on the same pairs.

Run: `PYTHONPATH=. .venv/bin/python scripts/fit_second_look.py [--check]` (--check: print only,
write nothing).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "scripts"))

from fit_agreement_reach import SETS, _figures, fit  # noqa: E402

from brain.memory.org_classes import centre_of  # noqa: E402
from brain.memory.second_look import FEATURES, MODEL_FILE, SecondLook, readings  # noqa: E402
from core.text.language import is_chinese  # noqa: E402

#: Shares of negatives the bar lets through (story negatives, shipped examples): stricter than
#: the three-reading model's, as the second look only adds to what the gates reach.
SHARES = (0.004, 0.002)


def _rows(
    multi: dict[str, np.ndarray],
    minilm: dict[str, np.ndarray],
    scores: dict[str, dict[str, float]],
    shipped: tuple[np.ndarray, np.ndarray, list[str]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    vectors, labels, texts = shipped
    found: list[tuple[str, str, int, np.ndarray]] = []
    for name, stories in SETS.items():
        for story in stories:
            centre = centre_of(np.stack([multi[t] for t in story.taught]))
            words = [minilm[t] for t in story.taught if not is_chinese(t)]
            english = np.stack(words) if words else None

            def read(text: str, query: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
                rows = (vectors, labels) if keep is None else (vectors[keep], labels[keep])
                return readings(
                    centre,  # noqa: B023
                    query,
                    rows,
                    story.target,  # noqa: B023
                    english=english,  # noqa: B023
                    vector=None if is_chinese(text) else minilm[text],
                    p_target=scores[text].get(story.target, 0.0),  # noqa: B023
                )

            for text in story.paraphrases:
                found.append((name, "paraphrase", 1, read(text, multi[text])))
            for text in story.must_not:
                found.append((name, "near", 0, read(text, multi[text])))
            for other in stories:
                if other is not story:
                    found += [(name, "other", 0, read(t, multi[t])) for t in other.paraphrases]
            for row in np.flatnonzero(labels != story.target):
                keep = np.ones(len(labels), dtype=bool)
                keep[row] = False
                found.append((name, "shipped", 0, read(texts[row], vectors[row], keep)))
    sets = np.array([r[0] for r in found])
    kinds = np.array([r[1] for r in found])
    y = np.array([r[2] for r in found])
    x = np.stack([r[3] for r in found])
    return sets, kinds, y, x


def _encode() -> tuple[dict, dict, dict, tuple[np.ndarray, np.ndarray, list[str]]]:
    """Multilingual and MiniLM vectors and the shipped model's scores of every story text and
    shipped example (a brain on a throwaway home reads them as a running one does)."""
    from brain.engine import Brain
    from brain.learning.training import load_training
    from core.config import Settings
    from core.text.multilingual import multilingual_vectors

    examples = load_training(Settings()).examples
    shipped_texts = [t for ts in examples.values() for t in ts]
    labels = np.array([name for name, ts in examples.items() for _ in ts], dtype=object)
    stories = sorted(
        {t for s in SETS.values() for y in s for t in y.taught + y.paraphrases + y.must_not}
    )
    texts = list(dict.fromkeys(stories + shipped_texts))
    encoded = multilingual_vectors(texts)
    if encoded is None:
        raise SystemExit("the multilingual encoder cannot run")
    multi = dict(zip(texts, encoded, strict=True))
    with (
        tempfile.TemporaryDirectory(prefix="second-look-") as tmp,
        Brain(Settings(home=Path(tmp) / "home")) as brain,
    ):
        embedder = brain.parts.embedder
        model = brain.parts.semantic_model()
        if embedder is None or model is None:
            raise SystemExit("the embedder or the semantic model is missing")
        minilm = {t: embedder.embed_query(t) for t in texts if not is_chinese(t)}
        scores = {t: dict(model.score(t)) for t in texts}
    shipped = np.stack([multi[t] for t in shipped_texts])
    return multi, minilm, scores, (shipped, labels, shipped_texts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="print the figures, write nothing")
    args = parser.parse_args()
    sets, kinds, y, x = _rows(*_encode())
    for held in SETS:
        train = sets != held
        model = fit(x[train], y[train], kinds[train], SHARES)
        three = fit(x[train][:, :3], y[train], kinds[train], SHARES)
        print(f"{held} (held out, bar {model.bar:.3f})")
        print(_figures("five", np.array([model.reaches(r) for r in x[~train]]), kinds[~train]))
        reached = np.array([three.reaches(r) for r in x[~train][:, :3]])
        print(_figures("three", reached, kinds[~train]))
    found = fit(x, y, kinds, SHARES)
    model = SecondLook(found.coef, found.intercept, found.bar)
    print("all sets:", json.dumps(model.to_dict()))
    print(_figures("five", np.array([model.reaches(row) for row in x]), kinds))
    if not args.check:
        MODEL_FILE.write_text(json.dumps(model.to_dict(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {MODEL_FILE.relative_to(REPO)} ({', '.join(FEATURES)})")


if __name__ == "__main__":
    main()
