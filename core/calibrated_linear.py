"""A calibrated multinomial linear model: weights over a model's own design matrix, one
temperature fitted on out-of-fold scores, and whether the design holds an embedding block.

The thread-continuation model and the speech-act model are this record with their own design
and classes; it reads probabilities, saves and loads the shipped `.npz` (float32 weights,
float64 intercepts, `meta` = [temperature, with_embedding]; loaded with `allow_pickle=False`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

import numpy as np
from scipy import sparse

__all__ = ["CalibratedLinear", "fit_temperature", "grouped_out_of_fold", "softmax"]


def softmax(z: np.ndarray) -> np.ndarray:
    """Row-wise softmax, stable for large scores."""
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return np.asarray(e / e.sum(axis=1, keepdims=True))


def fit_temperature(scores: np.ndarray, labels: np.ndarray) -> float:
    """The temperature minimising the negative log-likelihood of `labels` under the softmax of
    `scores / T` (golden section on log T in [0.05, 20]): calibration that keeps the ranking."""

    def nll(log_t: float) -> float:
        p = softmax(scores / math.exp(log_t))
        return float(-np.mean(np.log(p[np.arange(len(labels)), labels] + 1e-12)))

    lo, hi = math.log(0.05), math.log(20.0)
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if nll(a) < nll(b):
            hi = b
        else:
            lo = a
    return math.exp((lo + hi) / 2)


@dataclass(frozen=True, slots=True)
class CalibratedLinear:
    """Weights over a design matrix, one temperature, and whether the embedding block is used."""

    coef: np.ndarray  # (classes, features)
    intercept: np.ndarray  # (classes,)
    temperature: float
    with_embedding: bool
    #: What the weights were fitted on (rows, layout, settings).
    key: str

    def probabilities(self, x: sparse.csr_matrix | np.ndarray) -> np.ndarray:
        """Calibrated class probabilities of the design rows `x`."""
        return softmax((x @ self.coef.T + self.intercept) / self.temperature)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(
            tmp,
            coef=self.coef.astype(np.float32),
            intercept=self.intercept.astype(np.float64),
            meta=np.array([self.temperature, float(self.with_embedding)]),
        )
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path, key: str) -> Self:
        with np.load(path, allow_pickle=False) as data:
            meta = data["meta"]
            return cls(
                coef=data["coef"].astype(np.float64),
                intercept=data["intercept"].astype(np.float64),
                temperature=float(meta[0]),
                with_embedding=bool(meta[1]),
                key=key,
            )


def grouped_out_of_fold(
    x: sparse.csr_matrix,
    labels: np.ndarray,
    groups: list[str],
    n_classes: int,
    make: Callable[[], Any],
    folds: int = 5,
) -> np.ndarray:
    """Each row's scores from a model (`make()`, scikit-learn style) fitted without its group:
    the folds keep one phrase pattern's rows together, so a temperature fitted on these scores
    is that of wordings the model was not fitted on, as at run time (fixed folds: the same
    rows give the same scores)."""
    from sklearn.model_selection import StratifiedGroupKFold

    scores = np.zeros((len(labels), n_classes))
    split = StratifiedGroupKFold(n_splits=folds, shuffle=True, random_state=0)
    for train, test in split.split(x, labels, groups):
        scores[test] = make().fit(x[train], labels[train]).decision_function(x[test])
    return scores
