"""The signals of one message: every registered signal's values, and the weighted total.

Everything is a numpy array aligned with the registry's controller order. The raw total is not
a probability: `brain.routing.calibration` maps it to the confidence the routing tiers use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from brain.signals.base import Signal, SignalReading
from core.records import SignalScores

#: Controllers whose signals are kept in a stored decision when the registry is large.
STORED_SIGNALS = 20


@dataclass(slots=True)
class SignalTable:
    """Each signal's reading and the raw weighted total of every controller."""

    names: list[str]
    #: The registered signals, in registry order.
    signals: Sequence[Signal]
    #: Signal name -> its reading.
    readings: dict[str, SignalReading]
    total: np.ndarray

    def values(self, signal: str) -> np.ndarray:
        """One signal's values for every controller."""
        return self.readings[signal].values

    def reading(self, signal: str) -> SignalReading | None:
        """One signal's reading, or None when no such signal is registered."""
        return self.readings.get(signal)

    # Typed accessors: the chain names a signal by its class, never by a string.
    def has(self, kind: type[Signal]) -> bool:
        """Whether the signal of class `kind` is registered (and so was scored)."""
        return kind.name in self.readings

    def reading_of(self, kind: type[Signal]) -> SignalReading | None:
        """The reading of the signal of class `kind`, or None when it is not registered."""
        return self.readings.get(kind.name)

    def values_of(self, kind: type[Signal]) -> np.ndarray:
        """The values of the signal of class `kind` for every controller (KeyError when it
        is not registered)."""
        return self.readings[kind.name].values

    def ranked(self, limit: int | None = None) -> list[int]:
        """Controller indices by raw total, best first (ties by registration order)."""
        count = len(self.names)
        if count == 0:
            return []
        if limit is not None and limit < count:
            top = np.argpartition(-self.total, limit - 1)[:limit]
            return sorted(top.tolist(), key=lambda i: (-float(self.total[i]), i))
        return sorted(range(count), key=lambda i: (-float(self.total[i]), i))

    def index(self, name: str) -> int:
        return self.names.index(name)

    def row(self, index: int) -> SignalScores:
        """One controller's signals and total, rounded for display and storage."""
        return SignalScores(
            signals={
                s.name: round(float(self.readings[s.name].values[index]), 4) for s in self.signals
            },
            total=round(float(self.total[index]), 4),
        )

    def as_dict(self, limit: int = STORED_SIGNALS) -> dict[str, SignalScores]:
        """Signals of every controller (of the `limit` strongest when there are more)."""
        return {self.names[i]: self.row(i) for i in self.ranked(limit)}

    def calibration_features(self, index: int) -> dict[str, float]:
        """The features every signal gives the calibrator for the controller at `index`."""
        features: dict[str, float] = {}
        for signal in self.signals:
            features.update(signal.calibration_features(self.values(signal.name), index))
        return features

    def reasons(self, name: str) -> list[str]:
        """Every signal's reasons for one controller, the most concrete evidence first."""
        index = self.index(name)
        reasons: list[str] = []
        for signal in sorted(self.signals, key=lambda s: s.telling_order):
            reasons.extend(signal.reasons(self.readings[signal.name], index, name))
        return reasons
