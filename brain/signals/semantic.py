"""Semantic signal (30%): how likely each controller is, by the fitted semantic model.

The model (`brain.semantic.scorer.SemanticScorer`, fitted on the controllers' descriptions and
examples) also says how likely it is that no controller should take the message, and declares
it out of scope beyond a level the controllers' own examples almost never reach; that verdict
travels with the reading for routing and the rationale.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from brain.signals.base import (
    PartialTotal,
    Signal,
    SignalQuery,
    SignalReading,
    SignalSources,
    level,
)
from brain.signals.semantic_model import SemanticModel

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SemanticVerdict:
    """The model's out-of-scope verdict on the message."""

    #: P(no controller should take it), when the model says.
    out_of_scope: float | None = None
    #: The model declares the message out of scope.
    declared: bool = False
    #: Controller -> how the organisation's lessons the model was trained on raised it
    #: (`brain.learning.org_training.OrgTrainedModel.helped`).
    learned: tuple[tuple[str, str], ...] = ()
    #: The embedding cosine of the nearest example the model was fitted on (None when the
    #: model reads another space, e.g. a tuned encoder): what agreed corrections are held to.
    nearest: float | None = None

    def declared_at(self, bar: float | None) -> bool:
        """Out of scope at `bar` (`[routing] out_of_scope_above`, a home's fitted level),
        else at the model's own level."""
        if bar is None or self.out_of_scope is None:
            return self.declared
        return self.out_of_scope >= bar


@dataclass(slots=True)
class SemanticReading:
    """The semantic signal of one text and the model's out-of-scope verdict."""

    values: np.ndarray
    status: str
    verdict: SemanticVerdict = SemanticVerdict()


def semantic_signal(
    model: SemanticModel | None, text: str, names: Sequence[str]
) -> SemanticReading:
    """Semantic signal of `text` for the controllers `names` (0 for the ones the model lacks)."""
    values = np.zeros(len(names), dtype=np.float32)
    if model is None:
        return SemanticReading(values, "unavailable")
    try:
        if list(model.names) == list(names):
            detail = model.analyse(text)
            aligned = np.asarray(detail.scores, dtype=np.float32)
            helped = getattr(model, "helped", None)
            learned = tuple(helped(text, aligned).items()) if callable(helped) else ()
            nearest = float(detail.nearest) if model.tail is None else None
            verdict = SemanticVerdict(
                float(detail.out_of_scope), bool(detail.declared), learned, nearest
            )
            return SemanticReading(np.clip(aligned, 0.0, 1.0), "ok", verdict)
        scores = model.score(text)
    except Exception as exc:  # a signal failing must not stop the decision
        log.warning("semantic scoring failed: %s: %s", type(exc).__name__, exc)
        return SemanticReading(values, f"failed: {type(exc).__name__}")
    for index, name in enumerate(names):
        values[index] = min(max(float(scores.get(name, 0.0)), 0.0), 1.0)
    return SemanticReading(values, "ok")


class SemanticSignal(Signal):
    """The semantic model's probability of each controller; with the LLM, the one-sentence
    intent it wrote is read too (the higher of the two counts)."""

    name: ClassVar[str] = "semantic"
    word: ClassVar[str] = "meaning"
    calibrated: ClassVar[bool] = True
    calibrated_margin: ClassVar[bool] = True
    calibration_order: ClassVar[int] = 10
    telling_order: ClassVar[int] = 30

    def score(
        self, query: SignalQuery, sources: SignalSources, partial: PartialTotal | None
    ) -> SignalReading:
        model = sources.semantic_model()
        reading = semantic_signal(model, query.text, query.names)
        values = reading.values
        intent = query.intent
        if intent.llm_status == "ok" and intent.description and intent.description != query.text:
            described = semantic_signal(model, intent.description, query.names)
            values = np.maximum(values, described.values)
        return SignalReading(values, reading.status, reading.verdict)

    def reasons(self, reading: SignalReading, index: int, controller: str) -> list[str]:
        value = float(reading.values[index])
        if value <= 0:
            return []
        found = [f"semantic similarity {level(value)} ({value:.2f})"]
        learned = dict(verdict_of(reading).learned)
        if controller in learned:
            found.append(f"the semantic model {learned[controller]}")
        return found


def verdict_of(reading: SignalReading | None) -> SemanticVerdict:
    """The out-of-scope verdict a semantic reading carries (none without one)."""
    if reading is None or not isinstance(reading.evidence, SemanticVerdict):
        return SemanticVerdict()
    return reading.evidence
