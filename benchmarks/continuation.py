"""The continuation model (`brain.continuation.model`) on its train and held-out splits.

Train figures are out of fold (5 folds; the rows made from one phrase pattern stay in one fold,
so each is read by a model fitted without its phrasing); held-out figures come from the shipped
model, fitted on all train rows and never tuned on holdout. For each split: accuracy of continue
vs new at 0.5, the verdicts at the shipped thresholds (continued / asked back / started anew,
and the wrong ones: a follow-up started anew or a new request continued), the expected
calibration error (10 bins) and the accuracy by family.

    PYTHONPATH=. nice -n 10 python benchmarks/continuation.py [--no-embedder] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import numpy as np


def _figures(rows: list[dict[str, object]], p_continue: np.ndarray) -> dict[str, object]:
    from brain.continuation.model import CONTINUE_AT, NEW_BELOW

    truth = np.array([r["label"] != "new" for r in rows])
    n = len(rows)
    cont = p_continue >= CONTINUE_AT
    new = p_continue < NEW_BELOW
    ask = ~cont & ~new
    bins = np.minimum((p_continue * 10).astype(int), 9)
    ece = sum(
        abs(truth[bins == b].mean() - p_continue[bins == b].mean()) * (bins == b).sum() / n
        for b in range(10)
        if (bins == b).any()
    )
    families: dict[str, list[int]] = defaultdict(list)
    for r, p, t in zip(rows, p_continue, truth, strict=True):
        families[str(r["family"])].append(int((p >= 0.5) == t))
    follow = truth.sum()
    return {
        "n": n,
        "accuracy": round(float(((p_continue >= 0.5) == truth).mean()), 3),
        "follow_ups_continued": round(float((cont & truth).sum() / follow), 3),
        "follow_ups_asked": round(float((ask & truth).sum() / follow), 3),
        "follow_ups_started_anew": round(float((new & truth).sum() / follow), 3),
        "new_started_anew": round(float((new & ~truth).sum() / (n - follow)), 3),
        "new_asked": round(float((ask & ~truth).sum() / (n - follow)), 3),
        "new_continued": round(float((cont & ~truth).sum() / (n - follow)), 3),
        "ece": round(float(ece), 3),
        "by_family": {k: round(sum(v) / len(v), 3) for k, v in sorted(families.items())},
    }


def run(with_embedder: bool) -> dict[str, dict[str, object]]:
    import os

    os.environ.setdefault("BRAIN_HOME", tempfile.mkdtemp(prefix="brain-cont-"))
    from brain.continuation import model as cm
    from core.calibrated_linear import softmax
    from core.config import load_settings
    from core.text.embedder import get_dense_embedder

    embedder = get_dense_embedder(load_settings()) if with_embedder else None
    embed = embedder.embed if embedder is not None else None
    train = cm.labelled_rows("train")
    holdout = cm.labelled_rows("holdout")
    model = cm.load_or_fit(Path(os.environ["BRAIN_HOME"]) / "models", embed)
    # Out of fold on train.
    threads = [cm.thread_of(r) for r in train]
    labels = np.array([cm.CLASSES.index(str(r["label"])) for r in train])
    scores = cm.out_of_fold(cm.design(threads, embed), labels, train)
    oof = softmax(scores / model.temperature)
    p_train = 1.0 - oof[:, 0]
    readings = model.read([cm.thread_of(r) for r in holdout], embed)
    p_hold = np.array([r.continues for r in readings])
    return {"train (out of fold)": _figures(train, p_train), "holdout": _figures(holdout, p_hold)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-embedder", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    table = run(not args.no_embedder)
    if args.json:
        print(json.dumps(table, indent=2, ensure_ascii=False))
        return 0
    keys = [k for k in next(iter(table.values())) if k != "by_family"]
    print(f"{'':26}" + "".join(f"{split:>22}" for split in table))
    for key in keys:
        print(f"{key:26}" + "".join(f"{table[s][key]!s:>22}" for s in table))
    families = sorted({f for s in table.values() for f in s["by_family"]})  # type: ignore[union-attr]
    for family in families:
        cells = [str(s["by_family"].get(family, "-")) for s in table.values()]  # type: ignore[union-attr]
        print(f"  {family:24}" + "".join(f"{c:>22}" for c in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
