"""The signals' weights learned from a home's labelled history.

Seed 002 weighs the five signals 30/30/20/10/10: a prior for a hand-written controller set,
where keywords are chosen by a person. For controllers imported from a desk's tickets the
keywords are mined from the same rows the semantic model learns from, and on real tickets they
outvoted a clear semantic winner. So a fit on labelled history (`brain controllers import`,
`brain eval --train`) learns the weights from its held-out decisions, which a brain fitted
without those rows decided: a conditional logit over each decision's candidates (the right
controller against the others, scored by the weighted total), the seed's weights as its prior
(a penalty on the distance of the learned shares from the seed's) and its default.

Only signals that tell candidates apart in the held-out decisions are learned (on imported rows
the session and memory signals are silent: no conversation, no correction); the others keep the
seed's weight, and the learned ones share what is left, so the weights still sum to 1. The
fitted weights are kept only when they rank the right controller first more often than the
seed's on cross-validation folds of the decisions; else the seed's stay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

#: Cross-validation folds comparing the fitted weights with the prior.
FOLDS = 5
#: Strength of the pull toward the seed's shares (per decision's log-loss).
PRIOR_STRENGTH = 0.1
#: Fewer held-out decisions with the right controller among the candidates: the seed's weights.
MIN_DECISIONS = 30

#: One held-out decision: every candidate's raw signals, and the right controller (or None).
Decided = tuple[Mapping[str, Mapping[str, float]], str | None]


@dataclass(frozen=True, slots=True)
class Combination:
    """The weights a fit chose, and how they compared with the seed's on held-out folds."""

    weights: dict[str, float]
    fitted: bool
    #: Share of cross-validation decisions whose right controller the weights rank first.
    top1: float
    prior_top1: float
    decisions: int


def _matrix(
    decided: Sequence[Decided], names: Sequence[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(values [rows, candidates, signals], mask of real candidates, index of the right one)
    for the decisions whose right controller is a candidate."""
    usable = [(rows, right) for rows, right in decided if right is not None and right in rows]
    width = max((len(rows) for rows, _ in usable), default=1)
    values = np.zeros((len(usable), width, len(names)))
    mask = np.zeros((len(usable), width), dtype=bool)
    target = np.zeros(len(usable), dtype=int)
    for i, (rows, right) in enumerate(usable):
        for j, (controller, row) in enumerate(rows.items()):
            values[i, j] = [float(row.get(name, 0.0)) for name in names]
            mask[i, j] = True
            if controller == right:
                target[i] = j
    return values, mask, target


def _top1(values: np.ndarray, mask: np.ndarray, target: np.ndarray, w: np.ndarray) -> float:
    totals = np.where(mask, values @ w, -np.inf)
    return float(np.mean(np.argmax(totals, axis=1) == target)) if len(target) else 0.0


def _fit(
    values: np.ndarray, mask: np.ndarray, target: np.ndarray, prior: np.ndarray, mass: float
) -> np.ndarray:
    """The learned signals' weights (summing to `mass`) of least penalised log-loss."""
    from scipy.optimize import minimize
    from scipy.special import logsumexp, softmax

    rows = np.arange(len(target))
    shares0 = prior / prior.sum()

    def loss(params: np.ndarray) -> float:
        shares = softmax(params[:-1])
        scores = np.where(mask, np.exp(params[-1]) * (values @ shares), -np.inf)
        nll = float(np.mean(logsumexp(scores, axis=1) - scores[rows, target]))
        return nll + PRIOR_STRENGTH * float(np.sum((shares - shares0) ** 2))

    start = np.append(np.log(shares0 + 1e-9), np.log(10.0))
    best = minimize(loss, start, method="L-BFGS-B")
    return mass * np.asarray(softmax(best.x[:-1]))


def fit_weights(decided: Sequence[Decided], prior: Mapping[str, float]) -> Combination:
    """Learn the weights from held-out decisions (see the module docstring); `prior`: the
    seed's (configured) weights, by signal name."""
    names = list(prior)
    values, mask, target = _matrix(decided, names)
    base = np.array([prior[n] for n in names], dtype=float)
    prior_top1 = _top1(values, mask, target, base)
    spread = (values.max(axis=1) - np.where(mask[..., None], values, np.inf).min(axis=1)).max(0)
    learned = [i for i in range(len(names)) if len(target) and spread[i] > 0 and base[i] > 0]
    unchanged = Combination(dict(prior), False, prior_top1, prior_top1, len(target))
    if len(target) < MIN_DECISIONS or len(learned) < 2:
        return unchanged
    mass = float(base[learned].sum())

    def weights_of(rows: np.ndarray) -> np.ndarray:
        w = base.copy()
        w[learned] = _fit(values[rows][..., learned], mask[rows], target[rows], base[learned], mass)
        return w

    order = np.random.default_rng(0).permutation(len(target))
    hits = prior_hits = 0.0
    for fold in range(FOLDS):
        held = order[fold::FOLDS]
        fit = np.setdiff1d(order, held)
        w = weights_of(fit)
        hits += _top1(values[held], mask[held], target[held], w) * len(held)
        prior_hits += _top1(values[held], mask[held], target[held], base) * len(held)
    top1, cv_prior = hits / len(target), prior_hits / len(target)
    if top1 <= cv_prior:
        return Combination(dict(prior), False, top1, cv_prior, len(target))
    w = weights_of(np.arange(len(target)))
    weights = {n: float(v) for n, v in zip(names, w, strict=True)}
    return Combination(weights, True, top1, cv_prior, len(target))


def reweighed(
    rows: Mapping[str, Mapping[str, float]], weights: Mapping[str, float]
) -> dict[str, float]:
    """Every candidate's total under `weights` (the registry's sum of weight x signal)."""
    return {
        name: float(sum(weights.get(s, 0.0) * float(v) for s, v in row.items()))
        for name, row in rows.items()
    }
