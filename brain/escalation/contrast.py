"""Contrast models: what one thing the escalation model's topic reading cannot tell apart.

A linear model over sentence vectors reads what a message is about far more than whether it
is still happening: "last weekend I got a bunch of sign-in prompts, I denied them and IT
already checked my account" lands beside the live push flood. A contrast model is fitted on
twins only (`scripts/escalation_families_pairs.py`: the same event told live and told as
handled, past or simulated), so the topic, shared by both twins, carries no weight and what it
learns is the difference: "live" (happening, not over). The escalation model reads each
contrast's output as one more input (`with_contrasts`), and learns how much it is worth from
its own rows, not the twins: handled past events, post-mortems and drills beside live ones,
wordings the contrast was never fitted on.

The text blocks only (`features.LIVE_WIDTH`: embeddings and character n-grams, no rule
features), so a contrast reads wordings the rules never name.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import sparse

from brain.escalation.features import LIVE_WIDTH

__all__ = [
    "CONTRASTS",
    "SCALE",
    "contrast_columns",
    "fit_contrasts",
    "out_of_fold",
    "with_contrasts",
]

#: The contrasts, in the order of their columns: "live" (happening, not over or handled) and
#: "asked_now" (a question asked while its event happens to the asker, not asked in general).
CONTRASTS = ("live", "asked_now")
#: A contrast's column is SCALE x (2p - 1): in [-SCALE, SCALE], like the doubled rule block.
SCALE = 2.0
#: Regularisation (inverse strength) of each contrast's logistic regression.
C = 1.0


def _lr():  # type: ignore[no-untyped-def]
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=C, solver="liblinear", max_iter=2000)


def _column(scores: np.ndarray) -> np.ndarray:
    return SCALE * (2.0 / (1.0 + np.exp(-scores)) - 1.0)


def contrast_columns(x: sparse.csr_matrix, coef: np.ndarray, intercept: np.ndarray) -> np.ndarray:
    """Each contrast's column for the rows of design `x` (coef: one row per contrast)."""
    scores = np.asarray(x[:, :LIVE_WIDTH] @ coef.T) + intercept[None, :]
    return _column(scores)


def with_contrasts(x: sparse.csr_matrix, columns: np.ndarray) -> sparse.csr_matrix:
    """Design `x` with the contrast columns appended."""
    return sparse.hstack([x, sparse.csr_matrix(columns)], format="csr")


def fit_contrasts(
    x: sparse.csr_matrix, rows: Sequence[dict[str, object]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fit each contrast on its twins (rows with its "contrast"; label: the row pages) and
    return (coef, intercept, columns), the columns for every row of `x`. A contrast without
    twins has zero weights (its column is 0)."""
    coef = np.zeros((len(CONTRASTS), LIVE_WIDTH))
    intercept = np.zeros(len(CONTRASTS))
    text = x[:, :LIVE_WIDTH].tocsr()
    for k, name in enumerate(CONTRASTS):
        index = np.flatnonzero([r.get("contrast") == name for r in rows])
        if index.size == 0:
            continue
        labels = np.array([bool(rows[int(i)]["escalate"]) for i in index], dtype=np.int64)
        model = _lr().fit(text[index], labels)
        coef[k], intercept[k] = model.coef_[0], float(model.intercept_[0])
    return coef, intercept, contrast_columns(x, coef, intercept)


def out_of_fold(
    x: sparse.csr_matrix, rows: Sequence[dict[str, object]], name: str, folds: int = 5
) -> tuple[np.ndarray, np.ndarray]:
    """(probabilities, labels) of contrast `name` on its own twins, each read by the contrast
    fitted on the other folds' pairs (a twin and its pair share a fold): its reading of
    wordings it was not fitted on, which a bar on it is calibrated against."""
    index = np.flatnonzero([r.get("contrast") == name for r in rows])
    labels = np.array([bool(rows[int(i)]["escalate"]) for i in index], dtype=np.int64)
    fold = np.array([int(str(rows[int(i)].get("pair", 0))) % folds for i in index])
    text = x[index][:, :LIVE_WIDTH].tocsr()
    scores = np.zeros(index.size)
    for k in range(folds):
        held = fold == k
        if held.any() and not held.all() and len(set(labels[~held])) == 2:
            model = _lr().fit(text[~held], labels[~held])
            scores[held] = model.decision_function(text[held])
    return 1.0 / (1.0 + np.exp(-scores)), labels
