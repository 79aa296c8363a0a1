"""Calibration: the raw weighted five-signal total -> a confidence that means P(route is right).

Seed 002 admits its weighted score is not a probability. The calibrator turns the engine's raw
total (plus a few features of the same decision) into the probability that routing to that
controller is right, learned from labelled decisions (`brain eval --val`, or cross-validation on
`--train`), so that "routes taken at >= 0.8 are right >= 80% of the time" holds on held-out data.

Apply signature (called by the engine for every ranked candidate)::

    Calibrator.apply(total: float, **features: float) -> float

The features are the registered signals' (`brain.signals.registry.calibration_features`); for
the built-in signals:

- `total`: the raw weighted total of the five signals (0..1);
- `margin`: this candidate's total minus the best rival's (negative for the runner-ups);
- `semantic`, `keyword`, `knowledge`: the candidate's own signals (0..1);
- `semantic_margin`: its semantic signal minus the best rival's. The keyword signal (30% of
  the total) can outvote a clear semantic winner; this lets the calibrator, and so the ranking,
  learn how much that should count.

A new signal declares its features (`Signal.calibrated`, `calibrated_margin`) and a fit takes
them up; a file records the features it was fitted on. Model: a logistic regression over them,
followed by an isotonic regression of the outcome on the logistic score (monotone, fixes the
tails). The coefficient of `total` is kept >= 0, so the confidence never falls when the total
rises.

Default (no fit, no stored file): the identity on the clipped raw total, exactly the uncalibrated
score the seeds route on. It is documented as uncalibrated (`Calibrator.fitted` is False) and
`brain eval --val FILE` writes a fitted one to `$BRAIN_HOME/calibration.json`.
"""

from __future__ import annotations

import itertools
import json
import logging
import math
import os
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from core.stores.protocols import ArtifactStore

log = logging.getLogger(__name__)

#: The features of format 2 (the built-in signals'; `brain.signals.registry.calibration_features`
#: gives the features of whatever signals are registered, and a fit records its own): the
#: default of `fit`, and what a format-1 file (a prefix of them) is read as.
FEATURES: tuple[str, ...] = (
    "total",
    "margin",
    "semantic",
    "keyword",
    "knowledge",
    "semantic_margin",
)
#: Every model's first two features: the raw total and its margin over the best rival.
BASE_FEATURES = ("total", "margin")
FORMAT_VERSION = 2
#: Older formats still read: format 1's features are a prefix of FEATURES (the rest weigh 0).
READABLE_FORMATS = (1, 2)


def top_two(values: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """The best and second-best of `values` (second 0.0 when there is one value)."""
    array = np.asarray(values, dtype=np.float64)
    if array.size == 0:
        return 0.0, 0.0
    if array.size == 1:
        return float(array[0]), 0.0
    best, second = -np.partition(-array, 1)[:2]
    return float(best), float(second)


def rival_margin(value: float, best_two: tuple[float, float]) -> float:
    """`value` minus the best of the others (negative for all but the best)."""
    best, second = best_two
    return float(value) - (second if value == best else best)


def _clip01(value: float) -> float:
    return min(max(float(value), 0.0), 1.0)


def _laplace_blocks(
    z: np.ndarray,
    y: np.ndarray,
    knots_x: list[float],
    knots_y: list[float],
    weights: np.ndarray | None = None,
) -> list[float]:
    """Shrink each isotonic block's rate to (right + 1) / (n + 2), kept non-decreasing (right
    and n weighted by `weights`).

    A block of 40 decisions that were all right does not make the next one certain: without
    this, the top block says 1.0 and "confidence 1.00" overclaims.
    """
    w = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=float)
    smoothed: list[float] = []
    start = 0
    while start < len(knots_y):
        end = start
        while end + 1 < len(knots_y) and knots_y[end + 1] == knots_y[start]:
            end += 1
        inside = (z >= knots_x[start]) & (z <= knots_x[end])
        count = float(w[inside].sum())
        right = float(w[inside & y].sum())
        value = (right + 1) / (count + 2) if inside.any() else knots_y[start]
        smoothed.extend([value] * (end - start + 1))
        start = end + 1
    return [float(v) for v in np.maximum.accumulate(np.asarray(smoothed))]


@dataclass(slots=True)
class ReliabilityBin:
    """One row of a reliability table: confidences in [low, high) and how often they were right."""

    low: float
    high: float
    count: int
    mean_confidence: float
    accuracy: float


@dataclass
class Calibrator:
    """Maps a raw total (+ features) to P(route is right); see the module docstring."""

    coef: list[float] = field(default_factory=list)
    intercept: float = 0.0
    #: Isotonic knots: logistic score (x, increasing) -> probability (y, non-decreasing).
    knots_x: list[float] = field(default_factory=list)
    knots_y: list[float] = field(default_factory=list)
    samples: int = 0
    source: str = "default (identity on the raw total)"
    #: The model's features, in the order of `coef` (a feature it was not fitted on weighs 0).
    features: tuple[str, ...] = FEATURES

    @property
    def fitted(self) -> bool:
        """True when learned from labelled data; False for the identity default."""
        return bool(self.coef) and len(self.coef) == len(self.features)

    def _linear(self, row: Mapping[str, float]) -> float:
        return self.intercept + sum(
            c * float(row.get(name, 0.0)) for c, name in zip(self.coef, self.features, strict=True)
        )

    def score(self, total: float, **features: float) -> float:
        """The logistic model's linear score (the clipped total when not fitted); `features`
        by name (`margin`, `semantic`, `semantic_margin`...; a missing one counts 0, one the
        model does not know is ignored).

        `apply` is a non-decreasing function of it with plateaus (isotonic steps), so candidates
        with equal confidence are ranked by this score, which still tells them apart.
        """
        if not self.fitted:
            return _clip01(total)
        return self._linear({**features, "total": total})

    def apply(self, total: float, **features: float) -> float:
        """Calibrated confidence 0..1 (keyword arguments as for `score`; others are ignored)."""
        return self.assess(total, **features)[0]

    def assess(self, total: float, **features: float) -> tuple[float, float]:
        """(calibrated confidence, `score`) computed once, for ranking candidates."""
        z = self.score(total, **features)
        if not self.fitted:
            return z, z
        if self.knots_x:
            return _clip01(float(np.interp(z, self.knots_x, self.knots_y))), z
        return _clip01(1.0 / (1.0 + math.exp(-z))), z

    @classmethod
    def fit(
        cls,
        rows: Sequence[Mapping[str, float]],
        right: Sequence[bool],
        *,
        source: str = "fitted",
        features: Sequence[str] = FEATURES,
        weights: Sequence[float] | None = None,
    ) -> Calibrator:
        """Learn from decisions: `rows` hold the `features` of the routed candidate (the
        registered signals': `SignalRegistry.calibration_features`), `right` the outcome
        (routing there was right), `weights` what each decision weighs (out-of-scope ones at
        their stated share of the traffic: `brain.routing.cost.prevalence_weights`). Needs
        both outcomes; else the default is returned."""
        features = tuple(features)
        if features[:2] != BASE_FEATURES:
            raise ValueError(f"calibration features must start with {BASE_FEATURES}")
        from sklearn.isotonic import IsotonicRegression
        from sklearn.linear_model import LogisticRegression

        y = np.asarray(right, dtype=bool)
        if len(rows) != len(y):
            raise ValueError("rows and right must have the same length")
        if len(y) < 4 or y.all() or not y.any():
            return cls(source=f"default: too little or one-sided data to fit ({len(y)} rows)")
        x = np.array([[float(r.get(name, 0.0)) for name in features] for r in rows])
        w = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=float)
        use = list(range(len(features)))
        model = LogisticRegression(C=10.0, max_iter=1000).fit(x[:, use], y, sample_weight=w)
        if model.coef_[0][0] < 0:  # keep the confidence monotone in the total
            use = use[1:]
            model = LogisticRegression(C=10.0, max_iter=1000).fit(x[:, use], y, sample_weight=w)
        coef = [0.0] * len(features)
        for position, index in enumerate(use):
            coef[index] = float(model.coef_[0][position])
        intercept = float(model.intercept_[0])
        z = x @ np.array(coef) + intercept
        iso = IsotonicRegression(out_of_bounds="clip", y_min=0.0, y_max=1.0)
        iso.fit(z, y, sample_weight=w)
        knots_x = [float(v) for v in iso.X_thresholds_]
        knots_y = _laplace_blocks(z, y, knots_x, [float(v) for v in iso.y_thresholds_], w)
        return cls(
            coef=coef,
            intercept=intercept,
            knots_x=knots_x,
            knots_y=knots_y,
            samples=len(y),
            source=source,
            features=features,
        )

    # -- persistence ---------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready parameters."""
        return {
            "format": FORMAT_VERSION,
            "features": list(self.features),
            "coef": self.coef,
            "intercept": self.intercept,
            "knots_x": self.knots_x,
            "knots_y": self.knots_y,
            "samples": self.samples,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Calibrator:
        """Rebuild from `to_dict`; ValueError with a clear message when malformed."""
        if not isinstance(data, Mapping) or data.get("format") not in READABLE_FORMATS:
            raise ValueError("not a calibration file of this version")
        features = [str(name) for name in data.get("features", [])]
        if data.get("format") == 1:  # a prefix of format 2's: read as format 2
            if not features or features != list(FEATURES[: len(features)]):
                raise ValueError("calibration features differ from this version's")
        elif tuple(features[:2]) != BASE_FEATURES or len(set(features)) != len(features):
            raise ValueError("calibration features differ from this version's")
        coef = [float(v) for v in data.get("coef", [])]
        if coef and len(coef) != len(features):
            raise ValueError("calibration coefficients do not match the features")
        if data.get("format") == 1:
            if coef:
                coef += [0.0] * (len(FEATURES) - len(coef))
            features = list(FEATURES)
        knots_x = [float(v) for v in data.get("knots_x", [])]
        knots_y = [float(v) for v in data.get("knots_y", [])]
        if len(knots_x) != len(knots_y) or any(b < a for a, b in itertools.pairwise(knots_x)):
            raise ValueError("calibration knots are malformed")
        return cls(
            coef=coef,
            intercept=float(data.get("intercept", 0.0)),
            knots_x=knots_x,
            knots_y=knots_y,
            samples=int(data.get("samples", 0)),
            source=str(data.get("source", "loaded")),
            features=tuple(features),
        )

    def save(self, path: Path | str) -> Path:
        """Write atomically (temp file + rename), so a crash never leaves half a file."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".calibration-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(self.to_dict(), handle, indent=1)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return target

    @classmethod
    def load(cls, path: Path | str) -> Calibrator:
        """Read a saved calibrator; ValueError when the file is not one."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"cannot read calibration {path}: {exc}") from exc
        return cls.from_dict(data)


def reliability_table(
    confidences: Sequence[float], right: Sequence[bool], *, bins: int = 10
) -> list[ReliabilityBin]:
    """Bins of confidence vs observed accuracy (empty bins left out)."""
    conf = np.clip(np.asarray(confidences, dtype=float), 0.0, 1.0)
    ok = np.asarray(right, dtype=bool)
    edges = np.linspace(0.0, 1.0, bins + 1)
    table: list[ReliabilityBin] = []
    for i in range(bins):
        low, high = float(edges[i]), float(edges[i + 1])
        mask = (conf >= low) & ((conf < high) if i < bins - 1 else (conf <= high))
        if mask.any():
            table.append(
                ReliabilityBin(
                    low=round(low, 2),
                    high=round(high, 2),
                    count=int(mask.sum()),
                    mean_confidence=round(float(conf[mask].mean()), 4),
                    accuracy=round(float(ok[mask].mean()), 4),
                )
            )
    return table


def expected_calibration_error(confidences: Sequence[float], right: Sequence[bool]) -> float:
    """Weighted mean |accuracy - confidence| over 10 bins."""
    table = reliability_table(confidences, right)
    n = sum(b.count for b in table)
    if not n:
        return 0.0
    return round(sum(b.count * abs(b.accuracy - b.mean_confidence) for b in table) / n, 4)


#: The artifact the replicas share their calibration under (`publish`).
SHARED_NAME = "calibration"
#: How often a running brain asks the shared store whether a newer calibration was published.
SHARED_CHECK_S = 30.0


def publish(store: ArtifactStore, calibrator: Calibrator) -> int:
    """Store `calibrator` as the calibration of every replica on `store`, one version newer
    than the one there; returns its version (`brain eval --val` on a shared backend)."""
    version = 1
    found = store.get(SHARED_NAME)
    if found is not None:
        try:
            version = int(json.loads(found)["version"]) + 1
        except (ValueError, KeyError, TypeError):
            log.warning("the shared calibration was unreadable; publishing version 1")
    data = {"version": version, "calibrator": calibrator.to_dict()}
    store.put(SHARED_NAME, json.dumps(data).encode("utf-8"))
    return version


class HomeCalibration:
    """The calibrator a brain home decides with: `$BRAIN_HOME/calibration.json` when present,
    else the one fitted with the shipped examples, else the identity default.

    With `shared` (replicas on PostgreSQL), the calibration published there (`publish`, by
    `brain eval --val` through any replica's home) wins over the local ones: it is fitted
    once and loaded by every replica, and a newer version reaches a running brain within
    `check_s` seconds.
    """

    def __init__(
        self,
        home: Path,
        shipped: Path | None,
        *,
        shared: ArtifactStore | None = None,
        check_s: float = SHARED_CHECK_S,
    ) -> None:
        path = home / "calibration.json"
        try:
            if path.exists():
                self.calibrator = Calibrator.load(path)
                self.status = f"loaded from {path}"
            elif shipped is not None:
                self.calibrator = Calibrator.load(shipped)
                self.status = "shipped (fitted on the built-ins' calibration examples)"
            else:
                self.calibrator = Calibrator()
                self.status = "default (uncalibrated)"
        except Exception as exc:
            log.warning("calibration unusable (%s); using the default", exc)
            self.calibrator = Calibrator()
            self.status = "default (stored calibration unreadable)"
        self._shared = shared
        self._check_s = check_s
        #: The shared version in use (0: none).
        self.version = 0
        self._next_check = 0.0
        self._refresh()

    def _refresh(self) -> None:
        """Take a newer shared calibration, if one was published (errors keep the current)."""
        if self._shared is None:
            return
        self._next_check = time.monotonic() + self._check_s
        try:
            found = self._shared.get(SHARED_NAME)
            if found is None:
                return
            data = json.loads(found)
            version = int(data["version"])
            if version != self.version:
                self.calibrator = Calibrator.from_dict(data["calibrator"])
                self.version = version
                self.status = f"shared version {version} (published by brain eval --val)"
        except Exception as exc:  # a database blip or a bad row: keep the calibration in use
            log.warning("shared calibration unusable (%s); keeping %s", exc, self.status)

    def assess(self, raw: float, features: Mapping[str, float]) -> tuple[float, float]:
        """(confidence 0..1, ranking score): the score orders candidates whose confidences tie
        (see `Calibrator.score`)."""
        if self._shared is not None and time.monotonic() >= self._next_check:
            self._refresh()
        confidence, score = self.calibrator.assess(raw, **features)
        return float(min(max(confidence, 0.0), 1.0)), float(score)
