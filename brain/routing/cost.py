"""Where asking back starts, by expected cost: a wrong route costs a reroute, a
question costs one turn, and a reroute more when its options miss the right controller, so the
brain should route whenever its calibrated confidence says the expected cost of a wrong route,
(1 - p) x REROUTE_COST, is below what the question would cost; where exactly, and how often a
question would miss, is read off validation decisions, not assumed, because the calibration is
only as good as its data.

Messages no controller should take are stopped by their own bar, not by asking back: a
question naming controllers helps a message one of them should take, never one none should
(`out_of_scope_bar`: the semantic model's P(out of scope) at or above which it is declared out
of scope, chosen on the same held-out decisions). Asking back is chosen on the in-scope
decisions alone; when the out-of-scope ones chose it too, a fold's 19 out-of-scope rows of
CLINC150 moved it from 0.05 to 0.5, and 3% of in-scope messages were asked back to stop them.
The out-of-scope decisions are weighed at a stated share of the traffic (`[routing]
out_of_scope_share`, `prevalence_weights`), not at their accidental share of the labelled rows:
CLINC150's training rows are 0.66% out of scope and its test 18%.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from brain.routing.plan import Candidate
    from core.config import RoutingConfig

#: The ratio `brain eval --train` routes at without asking (`[routing] far_ahead_ratio`).
FAR_AHEAD_RATIO = 3.0

#: A question asked back: one extra turn for the asker.
QUESTION_COST = 1.0
#: A wrong route: the wrong answer, the correction and the new route (about two turns).
REROUTE_COST = 2.0
#: Thresholds tried (the top confidence below which the brain asks back).
CANDIDATES = tuple(np.round(np.arange(0.05, 0.81, 0.05), 2))
#: An in-scope message declared out of scope: the asker is turned away and must find the right
#: place alone, at least what a wrong route costs.
TURNED_AWAY_COST = REROUTE_COST
#: The out-of-scope bar is never under the P(out of scope) this share of the in-scope texts
#: reach (it turns away at most a tenth of them).
BAR_REACH = 0.1


@dataclass(frozen=True, slots=True)
class CrossFitted:
    """P(out of scope) of labelled texts scored by models fitted without them and not decided
    (`SemanticScorer.cross_fitted`): in-scope examples and out-of-scope ones (negatives)."""

    inside: Sequence[float] = ()
    outside: Sequence[float] = ()


def prevalence_weights(out_of_scope: Sequence[bool], share: float) -> np.ndarray:
    """Each decision's weight when the out-of-scope ones are to make up `share` of the total
    weight (in-scope ones weigh 1). All ones when the rows hold only one kind: with no
    out-of-scope example there is nothing to weigh (what such messages look like is unknown),
    and with no in-scope one nothing to weigh them against."""
    flags = np.asarray(out_of_scope, dtype=bool)
    weights = np.ones(len(flags))
    outside = int(flags.sum())
    if 0 < outside < len(flags) and 0.0 < share < 1.0:
        weights[flags] = share / (1.0 - share) * (len(flags) - outside) / outside
    return weights


def expected_cost(
    confidences: Sequence[float],
    right: Sequence[bool],
    threshold: float,
    weights: Sequence[float] | None = None,
    offered: Sequence[bool] | None = None,
) -> float:
    """Mean cost per message (weighted by `weights`) of asking back below `threshold` and
    routing the rest. A question costs QUESTION_COST, and REROUTE_COST more when its options
    miss the right controller (`offered` False: the asker answers none of them and is routed
    again, as after a wrong route); None: every question offers it."""
    p = np.asarray(confidences, dtype=float)
    ok = np.asarray(right, dtype=bool)
    missed = np.zeros(len(p), bool) if offered is None else ~np.asarray(offered, dtype=bool)
    asked = p < threshold
    cost = asked * (QUESTION_COST + missed * REROUTE_COST) + (~asked & ~ok) * REROUTE_COST
    return float(np.average(cost, weights=weights))


def ask_threshold(
    confidences: Sequence[float],
    right: Sequence[bool],
    ceiling: float = 0.8,
    weights: Sequence[float] | None = None,
    offered: Sequence[bool] | None = None,
) -> float:
    """The threshold of least expected cost on these decisions (`expected_cost`: `offered`
    says whether a question would have offered the right controller), each weighing its
    `weights` (`prevalence_weights`; equal when None); the lowest among ties, so the brain
    asks less; at most `ceiling` (the fast path)."""
    if not len(confidences):
        return 1.0 - QUESTION_COST / REROUTE_COST
    tried = [t for t in CANDIDATES if t <= ceiling]
    costs = [expected_cost(confidences, right, t, weights, offered) for t in tried]
    return float(tried[int(np.argmin(np.round(costs, 12)))])


def out_of_scope_bar(
    out_of_scope: Sequence[float],
    confidences: Sequence[float],
    right: Sequence[bool],
    outside: Sequence[bool],
    *,
    ask_below: float,
    fast: float,
    share: float | None = None,
    scored: CrossFitted | None = None,
) -> float | None:
    """The semantic model's P(out of scope) at or above which a message is declared out of
    scope: where declaring starts to cost less than not, on held-out decisions and the texts
    the model `scored` out of fold, the out-of-scope ones weighing `share` of them
    (`prevalence_weights`; None: every text weighs the same). None when the decisions hold no
    out-of-scope row (nothing says what such messages look like) or no bar pays.

    The costs: declared, an out-of-scope message costs nothing and an in-scope one
    TURNED_AWAY_COST; not declared, it is asked back below `ask_below` (QUESTION_COST) or routed
    (right: nothing; wrong or out of scope: REROUTE_COST); a declaration never overrules the
    fast path (`fast`), as in the router. So a message whose P(outside | its score) is q is
    worth declaring when q x K_out >= (1 - q) x K_in, K_out being what a declarable
    out-of-scope decision costs when not declared and K_in what turning away a declarable
    in-scope one adds (read from those any bar reaches: the highest tenth of scores).

    q is calibrated, not counted: a logistic fit of every scored text's kind on the logit of its
    score (Platt scaling of the model's P(out of scope), which was fitted with balanced classes,
    to the stated share). The bar chosen before as the least expected cost among in-scope
    quantiles counted the tails: of a CLINC150 fold's 2,850 decisions, the 11 in-scope ones
    above a bar and the 19 out-of-scope ones. The cost was flat across the bars they allowed, so
    the bar moved 0.934 -> 0.898 with the fold's order (0.942 -> 0.876 with the cross-fitted
    texts added to the count); the calibrated one, fitted on all 14,000 scores, 0.920 -> 0.908
    (0.938 -> 0.932 on the decided rows alone, which a bootstrap spreads three times wider)."""
    from sklearn.linear_model import LogisticRegression

    p = np.asarray(out_of_scope, dtype=float)
    flags = np.asarray(outside, dtype=bool)
    if not flags.any() or flags.all():
        return None
    scored = scored or CrossFitted()
    levels = np.r_[p, np.asarray(scored.inside, float), np.asarray(scored.outside, float)]
    kinds = np.r_[flags, np.zeros(len(scored.inside), bool), np.ones(len(scored.outside), bool)]
    confident = np.asarray(confidences, dtype=float)
    asked = confident < ask_below
    declarable = confident < fast
    kept = np.where(asked, QUESTION_COST, np.where(np.asarray(right, bool), 0.0, REROUTE_COST))
    floor = float(np.quantile(levels[~kinds], 1.0 - BAR_REACH))
    if not (flags & declarable).any():
        return None  # the fast path takes every out-of-scope message anyway
    k_out = float(np.mean(kept[flags & declarable]))
    reach = ~flags & declarable & (p >= floor)
    reach = reach if reach.any() else ~flags & declarable
    k_in = float(np.mean(TURNED_AWAY_COST - kept[reach])) if reach.any() else 0.0
    if k_out <= 0.0:
        return None  # declaring an out-of-scope message saves nothing
    clipped = np.clip(levels, 1e-6, 1.0 - 1e-6)
    model = LogisticRegression().fit(
        np.log(clipped / (1.0 - clipped))[:, None],
        kinds,
        sample_weight=prevalence_weights(kinds, share or 0.0),
    )
    slope, intercept = float(model.coef_[0, 0]), float(model.intercept_[0])
    if slope <= 0.0:
        return None  # the score does not tell the kinds apart
    # Declare where log(q / (1 - q)) reaches log(k_in / k_out); never below the in-scope
    # texts' highest tenth, where any bar lies.
    odds = np.log(max(k_in, 1e-9) / k_out)
    bar = float(1.0 / (1.0 + np.exp(-(odds - intercept) / slope)))
    return max(bar, floor) if bar < 1.0 - 1e-6 else None


def far_ahead(
    candidates: Sequence[Candidate], routing: RoutingConfig, odds: SemanticOdds | None = None
) -> str:
    """Why the top candidate is so far ahead that asking back would only cost a turn ("" when
    it is not): it is the semantic model's first choice, with more than half the model's mass
    (P(in scope and that controller): a wrong route then costs less than a question) and
    `far_ahead_ratio` times the next controller's (`odds`), and its calibrated confidence is
    at least `far_ahead_min`.

    The ratio of calibrated confidences is not a reading: the calibration is fitted on the best
    candidate of each decision, so a runner-up's calibrated confidence is an extrapolation (0.01
    behind a 0.25 leader), and "0.33 against 0.01" routed at a confidence where a wrong route
    costs more than the question. On CLINC150 with one intent per domain unseen in training
    that reading routed 103 messages below the asking threshold: 28 right, 25 wrong and 50 that
    no controller should take; on 1,600 real IT tickets (fitted on 4,000) it routed none that
    the semantic model's odds did not route as well."""
    if routing.far_ahead_ratio <= 0 or not candidates or odds is None:
        return ""
    top = candidates[0].confidence
    if top < routing.far_ahead_min:
        return ""
    if (
        odds.controller == candidates[0].name
        and odds.best > 0.5
        and odds.best >= routing.far_ahead_ratio * odds.second
    ):
        return f"the semantic model's {odds.best:.2f} against {odds.second:.2f}"
    return ""


@dataclass(frozen=True, slots=True)
class SemanticOdds:
    """The semantic model's first choice and its two best scores (P(in scope and c))."""

    controller: str
    best: float
    second: float

    @classmethod
    def of(cls, names: Sequence[str], scores: np.ndarray) -> SemanticOdds | None:
        """From the semantic signal's scores aligned with `names` (None with fewer than two)."""
        if len(names) < 2 or len(scores) != len(names):
            return None
        order = np.argsort(-np.asarray(scores, dtype=float), kind="stable")
        return cls(names[int(order[0])], float(scores[order[0]]), float(scores[order[1]]))
