"""What a fit on held-out decisions chooses for routing: the signals' weights
(`brain.routing.combiner`), the calibration, where asking back starts (on the in-scope
decisions) and the out-of-scope bar (`brain.routing.cost.out_of_scope_bar`), in that order, so
that the calibration and the thresholds are fitted on the decisions as the weighted brain will
make them. `brain eval --train` and `brain controllers import` both call `fit_routing`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from brain.evaluation.metrics import Outcome
from brain.routing.calibration import Calibrator, rival_margin, top_two
from brain.routing.combiner import Combination, fit_weights, reweighed
from brain.routing.cost import (
    FAR_AHEAD_RATIO,
    CrossFitted,
    ask_threshold,
    out_of_scope_bar,
    prevalence_weights,
)
from brain.routing.fitted import FittedRouting
from brain.routing.plan import CLARIFY_CANDIDATES
from brain.signals.registry import available_signals, calibration_features


def top_features(
    rows: Mapping[str, Mapping[str, float]], totals: Mapping[str, float], top: str
) -> dict[str, float]:
    """The calibration features of candidate `top` among `rows` (raw signals by controller)
    with these `totals`: the total, its margin over the best rival, and each registered
    signal's own (`Signal.calibration_features`)."""
    names = list(rows)
    index = names.index(top)
    features = {
        "total": float(totals[top]),
        "margin": rival_margin(float(totals[top]), top_two(list(totals.values()))),
    }
    for signal in available_signals():
        values = np.array([rows[n].get(signal.name, 0.0) for n in names], dtype=np.float64)
        features.update(signal.calibration_features(values, index))
    return features


def calibrator_from(
    outcomes: Sequence[Outcome], source: str, out_of_scope_share: float | None = None
) -> Calibrator:
    """Fit P(best candidate is right) on decided rows (out-of-scope rows are never right);
    with `out_of_scope_share`, the out-of-scope rows weigh that share of them
    (`brain.routing.cost.prevalence_weights`)."""
    usable = [o for o in outcomes if o.features]
    return Calibrator.fit(
        [o.features for o in usable],
        [o.top_right for o in usable],
        source=source,
        features=calibration_features(available_signals()),
        weights=_weights(usable, out_of_scope_share),
    )


def _weights(outcomes: Sequence[Outcome], share: float | None) -> list[float] | None:
    """The decisions' weights with out-of-scope ones at `share` (None: all weigh the same)."""
    if share is None:
        return None
    return list(prevalence_weights([o.row.label is None for o in outcomes], share))


def ask_below_of(
    calibrator: Calibrator, outcomes: Sequence[Outcome], weights: Mapping[str, float]
) -> float:
    """Where asking back starts, by expected cost on the in-scope held-out decisions read
    through `calibrator` (`brain.routing.cost.ask_threshold`): a question helps a message one
    of the controllers should take; the out-of-scope ones have their own bar (`bar_of`).

    A question pays only when its options hold the right controller: whether they would have is
    read from each decision (`offered`, under the signals' `weights`), not assumed. On 8,000 IT
    tickets a fold's decisions at calibrated 0.45 were right 44% of the time when routed, and a
    question naming three of the eight categories missed the right one for 9% of them."""
    usable = [o for o in outcomes if o.features and o.row.label is not None]
    return ask_threshold(
        [calibrator.apply(**o.features) for o in usable],
        [o.top_right for o in usable],
        offered=[offered(o, weights) for o in usable],
    )


def offered(outcome: Outcome, weights: Mapping[str, float]) -> bool:
    """Would a question asked back about this decision have offered its right controller? A
    clarification names at most CLARIFY_CANDIDATES, the strongest first (here: by total under
    `weights`)."""
    totals = reweighed(outcome.signals, weights)
    ranked = sorted(totals, key=lambda name: -totals[name])
    return outcome.row.label in ranked[:CLARIFY_CANDIDATES]


def bar_of(
    calibrator: Calibrator,
    outcomes: Sequence[Outcome],
    ask_below: float,
    share: float | None,
    fast: float,
    scored: CrossFitted | None = None,
) -> float | None:
    """The out-of-scope bar chosen on these held-out decisions and the texts the semantic
    model `scored` out of fold (`out_of_scope_bar`), the out-of-scope ones weighing `share` of
    them; None without out-of-scope decisions."""
    usable = [o for o in outcomes if o.features and o.out_of_scope is not None]
    return out_of_scope_bar(
        [float(o.out_of_scope or 0.0) for o in usable],
        [calibrator.apply(**o.features) for o in usable],
        [o.top_right for o in usable],
        [o.row.label is None for o in usable],
        ask_below=ask_below,
        fast=fast,
        share=share,
        scored=scored,
    )


def combined(
    outcomes: Sequence[Outcome], prior: Mapping[str, float]
) -> tuple[Combination, list[Outcome]]:
    """The weights learned from these held-out decisions (the prior when they do not rank
    better on cross-validation), and the decisions' best candidate and calibration features
    under them (unchanged when the prior stays)."""
    combination = fit_weights([(o.signals, o.row.label) for o in outcomes], prior)
    if not combination.fitted:
        return combination, list(outcomes)
    again = []
    for outcome in outcomes:
        if not outcome.signals:
            again.append(outcome)
            continue
        totals = reweighed(outcome.signals, combination.weights)
        top = max(totals, key=lambda name: totals[name])
        features = top_features(outcome.signals, totals, top)
        again.append(replace(outcome, top=top, features=features))
    return combination, again


def fit_routing(
    outcomes: Sequence[Outcome],
    *,
    source: str,
    share: float,
    prior: Mapping[str, float],
    learn: bool = True,
    fast: float = 0.8,
    scored: CrossFitted | None = None,
) -> tuple[Calibrator, FittedRouting]:
    """The weights (learned when `learn`, else `prior`), the calibration, where asking back
    starts and the out-of-scope bar, fitted on held-out decisions (a brain fitted without
    their rows decided them, with the `prior` weights); `fast`: the fast path's threshold,
    which no out-of-scope verdict overrules; `scored`: the deciding brains' semantic models'
    cross-fitted P(out of scope) of their own training texts, more evidence for the bar."""
    if not learn:
        calibrator = calibrator_from(outcomes, source, share)
        ask_below = ask_below_of(calibrator, outcomes, prior)
        bar = bar_of(calibrator, outcomes, ask_below, share, fast, scored)
        return calibrator, FittedRouting(
            ask_below, FAR_AHEAD_RATIO, source, {}, "configured", out_of_scope_above=bar
        )
    combination, outcomes = combined(outcomes, prior)
    calibrator = calibrator_from(outcomes, source, share)
    ask_below = ask_below_of(
        calibrator, outcomes, combination.weights if combination.fitted else prior
    )
    bar = bar_of(calibrator, outcomes, ask_below, share, fast, scored)
    weights = combination.weights if combination.fitted else {}
    learned = (
        f"weights learned from {combination.decisions} held-out decisions: right controller "
        f"first {combination.top1:.3f} on cross-validation, {combination.prior_top1:.3f} "
        "with the configured weights"
    )
    return calibrator, FittedRouting(
        ask_below,
        FAR_AHEAD_RATIO,
        source,
        weights=weights,
        weights_source=learned if combination.fitted else f"configured ({learned})",
        out_of_scope_above=bar,
    )
