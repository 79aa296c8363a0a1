"""The out-of-scope gate: how far a text is from everything the controllers were described with.

With negatives, a small logistic model over the ensemble's out-of-fold confidence, margin,
"none" probability and nearest-example cosines; without, the conformal p-value of the nearest
cosine among the training texts' own leave-one-out cosines (`brain.semantic.scorer`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from brain.semantic.experts import Ensemble
from brain.semantic.features import Views, cosines, oos_features

#: Without negatives, texts whose nearest-example cosine is in the lowest GATE_ALPHA of the
#: training texts' own are scaled down.
GATE_ALPHA = 0.2
#: Negatives needed before the out-of-scope model is trained (fewer: the conformal gate).
MIN_NEGATIVES = 10
#: Folds of the out-of-fold features for the out-of-scope model.
OOS_FOLDS = 3
#: Share of in-scope example texts (scored out of fold) allowed to be declared out of scope.
DECLARE_RATE = 0.002
#: Without negatives: out_of_scope >= 1 - r / GATE_ALPHA <=> conformal p-value <= r.
CONFORMAL_DECLARE_THRESHOLD = 1.0 - DECLARE_RATE / GATE_ALPHA


def fit_oos_model(
    views: Views,
    y: np.ndarray,
    w: np.ndarray,
    mix: np.ndarray,
    classes: int,
    none_label: int,
    retune: Callable[[np.ndarray], np.ndarray] | None = None,
    *,
    chosen: tuple[float, float] = (0.0, 1.0),
) -> tuple[Any, np.ndarray]:
    """Logistic model of P(out of scope) on out-of-fold features of the ensemble, and its
    P(out of scope) of every training text from those out-of-fold features.

    `mix`: each text's logistic weight in the ensemble (`ensemble_weights`). `retune(train)`:
    every text's dense vector through an encoder tuned on the `train` rows only (a tuned
    encoder has seen its own training texts: their vectors are too clean). `chosen`: the full
    ensemble's expert weights (`Ensemble.chosen`), kept in every fold."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold

    features = np.zeros((len(y), 5 if views.multilingual is None else 6))
    smallest = int(np.bincount(y, minlength=classes).min())
    folds = StratifiedKFold(n_splits=max(2, min(OOS_FOLDS, smallest)), shuffle=True, random_state=0)
    for train, held in folds.split(np.zeros(len(y)), y):
        part, rest = views.rows(train), views.rows(held)
        if retune is not None:
            dense = retune(train)
            part.dense, rest.dense = dense[train], dense[held]
        ensemble = Ensemble.fitted(
            classes,
            part.view,
            part.tfidf,
            y[train],
            w[train],
            words=part.words,
            none_label=none_label,
            chosen=chosen,
        )
        probabilities = ensemble.proba(rest.view, rest.tfidf, mix[held], rest.words)
        reference = part.space[y[train] != none_label]
        similar = cosines(rest.space, reference)
        features[held] = oos_features(probabilities, none_label, similar, rest.multilingual)
    model = LogisticRegression(C=1.0, class_weight="balanced", max_iter=1000)
    model.fit(features, y == none_label)
    return model, model.predict_proba(features)[:, 1]
