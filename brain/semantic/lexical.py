"""The lexical expert: a class-balanced logistic regression on word 1-2-gram TF-IDF, and how much
the product of experts listens to it (and to the naive Bayes), chosen on a held-out fold.

Why: on long, real service-desk e-mails the categories are carried by words and word pairs
("purchase order", "new starter", "shared mailbox"); a discriminative linear model on them beat
the embedding's logistic regression times naive Bayes by 5 to 6 points. On short
utterances with few examples it adds little, so it is only fitted with at least
LEXICAL_MIN_EXAMPLES example texts, and its weight (0 included) is whatever a held-out 20% of
the training texts says: the fit chooses, never the benchmark.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
import scipy.sparse as sp

from brain.semantic.features import log_softmax

#: Example texts (weight >= 1, in scope) needed before the lexical expert is fitted.
LEXICAL_MIN_EXAMPLES = 3000
#: Inverse regularisation of the lexical logistic regression (TF-IDF rows are L2-normalised).
LEXICAL_C = 20.0
#: Its solver: Newton-CG reached the optimum (held-out accuracy 0.8306 on 6,400 IT-ticket rows
#: carved from train) in 3.2 CPU-s; lbfgs stopped short of it at 18.7 s (0.8313), at tol 1e-7
#: reached it in 34 s (benchmarks/HISTORY.md, fit time).
LEXICAL_SOLVER = "newton-cg"
LEXICAL_TOL = 1e-6
#: Share of the training texts held out to choose the experts' weights.
HOLDOUT_SHARE = 0.2
#: Candidate weights of the lexical expert's log-probabilities, and scales of the naive Bayes'.
LEXICAL_WEIGHTS = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0)
BAYES_SCALES = (1.0, 0.5, 0.25, 0.0)


class Lexical:
    """Multinomial logistic regression over word TF-IDF rows, as plain arrays."""

    def __init__(self, coef: np.ndarray, intercept: np.ndarray, labels: np.ndarray) -> None:
        self.coef = coef
        """Vocabulary x classes-it-saw (so a sparse query row multiplies it directly)."""
        self.intercept = intercept
        self.labels = labels

    @classmethod
    def fitted(cls, words: sp.csr_matrix, y: np.ndarray, w: np.ndarray) -> Lexical:
        from sklearn.linear_model import LogisticRegression

        # balanced: a small desk category should not lose every close call to the big ones
        model = LogisticRegression(
            C=LEXICAL_C,
            class_weight="balanced",
            solver=LEXICAL_SOLVER,
            tol=LEXICAL_TOL,
            max_iter=200,
        )
        model.fit(words, y, sample_weight=w)
        coef = np.asarray(model.coef_, dtype=np.float32)
        intercept = np.asarray(model.intercept_, dtype=np.float32)
        if coef.shape[0] == 1:
            coef = np.vstack([-coef / 2, coef / 2])
            intercept = np.array([-intercept[0] / 2, intercept[0] / 2], dtype=np.float32)
        return cls(np.ascontiguousarray(coef.T), intercept, np.asarray(model.classes_))

    def log_proba(self, words: sp.csr_matrix, classes: int) -> np.ndarray:
        """log P(class | words), -30 for classes it never saw."""
        logits = np.asarray(words @ self.coef) + self.intercept
        out = np.full((words.shape[0], classes), -30.0)
        out[:, self.labels] = log_softmax(logits)
        return out


def wanted(y: np.ndarray, w: np.ndarray, none_label: int | None) -> bool:
    """Enough example texts for the lexical expert to pay."""
    examples = (w >= 1.0) if none_label is None else (w >= 1.0) & (y != none_label)
    return int(examples.sum()) >= LEXICAL_MIN_EXAMPLES


def holdout(y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(fit rows, held-out example rows): a stratified HOLDOUT_SHARE of the example texts."""
    rng = np.random.default_rng(0)
    held = np.zeros(len(y), dtype=bool)
    for label in np.unique(y):
        rows = np.flatnonzero((y == label) & (w >= 1.0))
        count = int(len(rows) * HOLDOUT_SHARE)
        if count and len(rows) - count >= 1:
            held[rng.choice(rows, size=count, replace=False)] = True
    return np.flatnonzero(~held), np.flatnonzero(held)


def choose(
    parts: Callable[[float, float], np.ndarray], y: np.ndarray
) -> tuple[tuple[float, float], tuple[float, float]]:
    """((lexical weight, naive Bayes scale), (held-out accuracy, minus log-loss)): the weights
    with the best held-out accuracy, then log-loss, and how well they did.

    `parts(v, b)`: the held-out rows' log-probabilities with those weights."""
    best: tuple[float, float, float, float] | None = None
    for v, b in itertools.product(LEXICAL_WEIGHTS, BAYES_SCALES):
        if v == 0.0 and b == 0.0:
            continue
        log_p = parts(v, b)
        accuracy = float((log_p.argmax(axis=1) == y).mean())
        loss = float(-log_p[np.arange(len(y)), y].mean())
        if best is None or (accuracy, -loss) > (best[0], -best[1]):
            best = (accuracy, loss, v, b)
    assert best is not None
    return (best[2], best[3]), (best[0], -best[1])
