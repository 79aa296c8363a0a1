"""What the semantic signal (`brain.signals.semantic`) reads: a model fitted on one controller
set (`brain.semantic.scorer.SemanticScorer` is one)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:
    from core.text.encoder_tail import EncoderTail


class SemanticAnalysis(Protocol):
    """What the model says about one text."""

    @property
    def scores(self) -> np.ndarray:
        """0..1 per controller, aligned with the model's `names`."""
        ...

    @property
    def out_of_scope(self) -> float:
        """How sure the model is that no controller should take the text."""
        ...

    @property
    def declared(self) -> bool:
        """The model declares the text out of scope."""
        ...

    @property
    def nearest(self) -> float:
        """The highest cosine between the text and any text the model was fitted on."""
        ...


class SemanticModel(Protocol):
    """A semantic model fitted on one controller set (`brain.semantic.scorer.SemanticScorer`)."""

    @property
    def names(self) -> Sequence[str]:
        """The controllers it was fitted on, in its score order."""
        ...

    @property
    def tail(self) -> EncoderTail | None:
        """The fine-tuned top of the encoder it reads texts through, if any."""
        ...

    @property
    def examples_out_of_scope(self) -> np.ndarray:
        """Its P(out of scope) of each example text it was fitted on, from models fitted
        without that text (empty without negatives: no such model)."""
        ...

    @property
    def negatives_out_of_scope(self) -> np.ndarray:
        """The same of each negative (a text no controller should take)."""
        ...

    def analyse(self, text: str) -> SemanticAnalysis: ...

    def score(self, text: str) -> Mapping[str, float]: ...
