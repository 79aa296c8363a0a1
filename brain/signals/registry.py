"""The registered routing signals and their weights.

The five built-ins come first (keyword, semantic, knowledge, session, memory), then any signal
another distribution registers under the `brain.signals` entry point group (a `Signal` subclass,
built without arguments). Each signal's weight is the configuration's weight of its name
(`core.config.RoutingConfig.signal_weights`): a weight naming no registered signal is a
configuration error, a registered signal without one weighs 0.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import metadata

import numpy as np

from brain.signals.base import PartialTotal, Signal, SignalQuery, SignalReading, SignalSources
from brain.signals.keyword import KeywordSignal
from brain.signals.knowledge import KnowledgeSignal
from brain.signals.memory import MemorySignal
from brain.signals.semantic import SemanticSignal
from brain.signals.session import SessionSignal
from brain.signals.table import SignalTable
from core.config import ConfigError, RoutingConfig

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "brain.signals"
BUILTIN_SIGNALS: tuple[type[Signal], ...] = (
    KeywordSignal,
    SemanticSignal,
    KnowledgeSignal,
    SessionSignal,
    MemorySignal,
)


@cache
def available_signals() -> tuple[Signal, ...]:
    """The built-in signals, then the entry points' (a broken or clashing one is skipped);
    discovered once per process, like the installed distributions they come from."""
    signals: list[Signal] = [kind() for kind in BUILTIN_SIGNALS]
    taken = {s.name for s in signals}
    for entry in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        try:
            kind = entry.load()
            signal = kind()
        except Exception as exc:  # a broken plugin must not stop the brain
            log.warning("skipped signal %s: %s: %s", entry.name, type(exc).__name__, exc)
            continue
        if not isinstance(signal, Signal) or not getattr(signal, "name", ""):
            log.warning("skipped signal %s: not a brain.signals.base.Signal", entry.name)
        elif signal.name in taken:
            log.warning("skipped signal %s: the name %r is taken", entry.name, signal.name)
        else:
            taken.add(signal.name)
            signals.append(signal)
    return tuple(signals)


def calibration_features(signals: Sequence[Signal]) -> tuple[str, ...]:
    """The calibrator's features, in order: the raw total and its margin over the best rival,
    then each calibrated signal's value, then each calibrated margin (both by the signals'
    `calibration_order`, then registration). The built-ins give the shipped file's six."""
    ranked = sorted(enumerate(signals), key=lambda item: (item[1].calibration_order, item[0]))
    values = [s.name for _, s in ranked if s.calibrated]
    margins = [f"{s.name}_margin" for _, s in ranked if s.calibrated_margin]
    return ("total", "margin", *values, *margins)


@cache
def signal_words() -> dict[str, str]:
    """Signal name -> how a person calls it, for every available signal (read once)."""
    return {s.name: s.word for s in available_signals()}


class SignalRegistry:
    """The signals a decision is scored with, and their weights, in one order."""

    def __init__(self, signals: Sequence[Signal], weights: Mapping[str, float]) -> None:
        known = [s.name for s in signals]
        unknown = sorted(set(weights) - set(known))
        if unknown:
            raise ConfigError(
                f"routing weights name unknown signal(s) {', '.join(unknown)} "
                f"(registered: {', '.join(known)})"
            )
        self.signals: tuple[Signal, ...] = tuple(signals)
        self.weights = np.array([weights.get(n, 0.0) for n in known], dtype=np.float32)

    @classmethod
    def from_config(cls, routing: RoutingConfig) -> SignalRegistry:
        """The available signals weighted by the configuration."""
        return cls(available_signals(), routing.signal_weights())

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.signals]

    @property
    def calibration_features(self) -> tuple[str, ...]:
        """The calibrator's features for these signals (`calibration_features`)."""
        return calibration_features(self.signals)

    def word_of(self, name: str) -> str:
        """How a person calls a signal (its name when it is not registered)."""
        return next((s.word for s in self.signals if s.name == name), name)

    def score(self, query: SignalQuery, sources: SignalSources) -> SignalTable:
        """Every signal for every controller of `query`, and the weighted total.

        The signals that are not deferred are scored first and combined; each deferred one is
        then scored knowing that partial total, and added with its weight.
        """
        count = len(query.names)
        readings: dict[str, SignalReading] = {}
        for signal in self.signals:
            if not signal.deferred:
                readings[signal.name] = signal.score(query, sources, None)
        zeros = np.zeros(count, dtype=np.float32)
        stacked = np.vstack(
            [readings[s.name].values if s.name in readings else zeros for s in self.signals]
        ).astype(np.float32)
        total = np.asarray(self.weights @ stacked, dtype=np.float32)
        for position, signal in enumerate(self.signals):
            if signal.deferred:
                weight = self.weights[position]
                partial = PartialTotal(total, float(weight), dict(readings))
                readings[signal.name] = signal.score(query, sources, partial)
                total = total + weight * readings[signal.name].values
        ordered = {s.name: readings[s.name] for s in self.signals}
        return SignalTable(list(query.names), self.signals, ordered, total)
