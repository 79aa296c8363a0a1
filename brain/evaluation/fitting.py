"""What a fit on held-out decisions chooses for routing: the signals' weights
(`brain.routing.combiner`), the calibration and where asking back starts, in that order, so
that the calibration and the threshold are fitted on the decisions as the weighted brain will
make them. `brain eval --train` and `brain controllers import` both call `fit_routing`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from brain.evaluation.metrics import Outcome
from brain.routing.calibration import Calibrator, rival_margin, top_two
from brain.routing.combiner import Combination, fit_weights, reweighed
from brain.routing.cost import FAR_AHEAD_RATIO, ask_threshold, prevalence_weights
from brain.routing.fitted import FittedRouting
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
    calibrator: Calibrator, outcomes: Sequence[Outcome], out_of_scope_share: float | None = None
) -> float:
    """Where asking back starts, by expected cost on these held-out decisions read through
    `calibrator` (`brain.routing.cost.ask_threshold`), out-of-scope ones weighing
    `out_of_scope_share` of them."""
    usable = [o for o in outcomes if o.features]
    return ask_threshold(
        [calibrator.apply(**o.features) for o in usable],
        [o.top_right for o in usable],
        weights=_weights(usable, out_of_scope_share),
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
) -> tuple[Calibrator, FittedRouting]:
    """The weights (learned when `learn`, else `prior`), the calibration and where asking back
    starts, fitted on held-out decisions (a brain fitted without their rows decided them,
    with the `prior` weights)."""
    if not learn:
        calibrator = calibrator_from(outcomes, source, share)
        ask_below = ask_below_of(calibrator, outcomes, share)
        return calibrator, FittedRouting(ask_below, FAR_AHEAD_RATIO, source, {}, "configured")
    combination, outcomes = combined(outcomes, prior)
    calibrator = calibrator_from(outcomes, source, share)
    ask_below = ask_below_of(calibrator, outcomes, share)
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
    )
