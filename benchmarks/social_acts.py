"""The social-act model (greeting / thanks / closing / none): how many social messages it
takes and how many requests it wrongly takes, split by split, at bars around `SOCIAL_AT`.

`train` is read out of fold (folds keep a phrase's forms together; the documented rule for
`SOCIAL_AT` is read from it), `holdout` by the shipped fit and is never tuned on. For each
bar: social messages taken (recall), requests taken (of all `none` rows, and of the requests
wrapped in a social phrase apart), and the right social act among those taken.

    PYTHONPATH=. nice -n 10 python benchmarks/social_acts.py
"""

from __future__ import annotations

import json

import numpy as np

BARS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)


def _probabilities(rows: list[dict[str, str]], split: str) -> np.ndarray:
    from brain.chain import social
    from core.calibrated_linear import softmax

    if split == "train":
        return softmax(social.out_of_fold(rows) / social.shipped_model().temperature)
    readings = social.shipped_model().read([r["text"] for r in rows])
    return np.array([[r.probabilities[a] for a in social.ACTS] for r in readings])


def main() -> None:
    from brain.chain import social

    for split in ("train", "holdout"):
        rows = social.labelled_rows(split)
        probs = _probabilities(rows, split)
        labels = np.array([social.ACTS.index(r["label"]) for r in rows])
        words = np.array([len(social.speech_act.words(r["text"])) for r in rows])
        mixed = np.array(["-mixed-" in str(r.get("template")) for r in rows])
        is_social = labels > 0
        act = probs[:, 1:].argmax(axis=1) + 1
        print(f"{split}: {int(is_social.sum())} social, {int((~is_social).sum())} requests "
              f"({int(mixed.sum())} wrapped in a social phrase)")  # fmt: skip
        for bar in BARS:
            taken = (1.0 - probs[:, 0] >= bar) & (words <= social.MAX_WORDS)
            figures = {
                "bar": bar,
                "social_taken": round(float(taken[is_social].mean()), 3),
                "requests_taken": round(float(taken[~is_social].mean()), 4),
                "wrapped_taken": int(taken[mixed].sum()),
                "act_right": round(float((act == labels)[taken & is_social].mean()), 3),
            }
            shown = " <- SOCIAL_AT" if bar == social.SOCIAL_AT else ""
            print("  " + json.dumps(figures) + shown)


if __name__ == "__main__":
    main()
