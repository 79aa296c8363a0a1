"""The speech-act model (question / problem report / request for work) against the form
patterns it replaced, split by split.

`train` is read out of fold (folds keep one phrase pattern's rows together), `holdout` and
`fresh` by the shipped fits; the patterns (`request_type_by_form`, no intent vote) read every
split as they are. For each: accuracy of the model with the MiniLM block and without it, of
the patterns, and of what `request_type` does (the model where it is sure, the patterns
elsewhere), with the share the model is sure of and its expected calibration error.

    PYTHONPATH=. nice -n 10 python benchmarks/speech_acts.py [--splits train,holdout,fresh]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

import numpy as np


def _ece(probs: np.ndarray, right: np.ndarray, bins: int = 10) -> float:
    """Expected calibration error of the top probability (equal-width bins)."""
    top = probs.max(axis=1)
    error = 0.0
    for low in np.linspace(0.0, 1.0, bins, endpoint=False):
        inside = (top >= low) & (top < low + 1.0 / bins)
        if inside.any():
            error += inside.mean() * abs(top[inside].mean() - right[inside].mean())
    return float(error)


def _scores(rows: Sequence[dict[str, str]], split: str, embed) -> dict[str, float]:  # type: ignore[no-untyped-def]
    from brain.chain import speech_act as sa
    from brain.chain.request_type import request_type_by_form
    from core.calibrated_linear import softmax
    from core.records import IntentResult

    texts = [r["text"] for r in rows]
    labels = np.array([sa.ACTS.index(r["label"]) for r in rows])
    result: dict[str, float] = {"n": len(rows)}
    for name, e in (("model", embed), ("model_no_embedding", None)):
        if split == "train":
            probs = softmax(sa.out_of_fold(rows, e) / sa.shipped_model(e is not None).temperature)  # type: ignore[union-attr]
        else:
            model = sa.shipped_model(e is not None)
            assert model is not None
            readings = model.read(texts, e(texts) if e is not None else None)
            probs = np.array([[r.probabilities[a] for a in sa.ACTS] for r in readings])
        right = probs.argmax(axis=1) == labels
        result[name] = float(right.mean())
        if name == "model":
            sure = probs.max(axis=1) >= sa.SURE_AT
            result["sure_share"] = float(sure.mean())
            result["ece"] = _ece(probs, right)
            model_right = right
    none = IntentResult(intent="", confidence=0.0, description="", urgency="low", entities={})
    form = np.array(
        [request_type_by_form(t, none) == r["label"] for t, r in zip(texts, rows, strict=True)]
    )
    result["patterns"] = float(form.mean())
    result["request_type"] = float(np.where(sure, model_right, form).mean())
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--splits", default="train,holdout,fresh")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from brain.chain.speech_act import labelled_rows
    from core.config import load_settings
    from core.text.embedder import get_dense_embedder

    embedder = get_dense_embedder(load_settings())
    embed = embedder.embed if embedder is not None else None
    table = {s: _scores(labelled_rows(s), s, embed) for s in args.splits.split(",")}
    if args.json:
        print(json.dumps(table, indent=2))
        return
    columns = ["n", "model", "model_no_embedding", "patterns", "request_type", "sure_share", "ece"]
    print("split    " + " ".join(f"{c:>18}" for c in columns))
    for split, row in table.items():
        cells = [f"{row[c]:>18.0f}" if c == "n" else f"{row[c]:>18.3f}" for c in columns]
        print(f"{split:<8} " + " ".join(cells))


if __name__ == "__main__":
    main()
