"""What a routing signal is: one class that scores every controller and explains itself.

A signal turns one source of evidence into a 0..1 score per controller, as a numpy array aligned
with the registry's controller order (so 1,000 controllers cost little more than 7). Its weight
is the configuration's weight of the same name. `brain.signals.registry` lists the signals; the
decision chain, the calibration features, the rationale and `brain why` all read that list, so a
new signal is one class and one weight in the configuration.

A signal marked `deferred` is scored after the others, knowing their weighted partial total:
the knowledge signal uses it to ask the knowledge base only about controllers that could still
win (the others cannot reach the leader on the knowledge base alone).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import numpy as np

from brain.routing.calibration import rival_margin, top_two

if TYPE_CHECKING:
    from brain.memory.lessons import LessonRecall
    from brain.signals.keyword_index import KeywordIndex
    from brain.signals.semantic_model import SemanticModel
    from brain.signals.session_cache import SessionCache, SessionEntry
    from controllers.base import Controller
    from core.records import IntentResult, Message
    from knowledge.skill import KnowledgeSkill


@dataclass(frozen=True, slots=True)
class SignalQuery:
    """One message as every signal sees it (read once by the chain, shared by all signals)."""

    #: The message text the signals look at (capped for cost).
    text: str
    message: Message
    intent: IntentResult
    entities: Mapping[str, Sequence[str]]
    #: The message's query embedding, when the dense model is available.
    vector: np.ndarray | None
    #: Controllers in registry order; every signal's values are aligned with them.
    controllers: Sequence[Controller]
    names: Sequence[str]
    #: The ongoing work a vague message is read as part of: description -> controller.
    context: Mapping[str, str]
    #: Identifiers the knowledge base maps to a domain: token -> controller.
    ids: Mapping[str, str]


class SignalSources(Protocol):
    """The brain's parts a signal may read; each is opened on first use."""

    @property
    def knowledge(self) -> KnowledgeSkill | None: ...

    @property
    def memory(self) -> LessonRecall: ...

    @property
    def sessions(self) -> SessionCache: ...

    def session_entries(self, session_key: str) -> list[SessionEntry]: ...

    def keyword_index(self) -> KeywordIndex:
        """The current controllers' keywords, compiled."""
        ...

    def semantic_model(self) -> SemanticModel | None: ...


@dataclass(slots=True)
class SignalReading:
    """One signal's values for every controller, how it went, and what stands behind them."""

    values: np.ndarray
    #: "ok", or why the signal is neutral ("unavailable: ...", "failed: ...").
    status: str = "ok"
    #: The signal's own evidence (matched keywords, confirmations, memories), for explaining.
    evidence: Any = None


@dataclass(frozen=True, slots=True)
class PartialTotal:
    """What a deferred signal knows when its turn comes."""

    #: Weighted total of the signals scored before it.
    total: np.ndarray
    #: Its own weight.
    weight: float
    #: The readings of the signals scored before it, by name.
    readings: Mapping[str, SignalReading]


class Signal:
    """Base of every routing signal; subclasses set the class attributes and `score`."""

    #: The signal's name: its key in the decision's signals and the name of its weight.
    name: ClassVar[str]
    #: How a person calls it ("keywords", "meaning"), for short summaries.
    word: ClassVar[str]
    #: Its value when it knows nothing (a neutral signal adds the same to every controller).
    neutral: ClassVar[float] = 0.0
    #: Scored after the others, with their partial total (see the module docstring).
    deferred: ClassVar[bool] = False
    #: Its value is one of the calibrator's features (under the signal's name).
    calibrated: ClassVar[bool] = False
    #: Its lead over the best rival is a feature too (`<name>_margin`).
    calibrated_margin: ClassVar[bool] = False
    #: Where its features come among the calibrator's (lower first; values, then margins),
    #: so that a fitted calibration file keeps its meaning when a signal is added.
    calibration_order: ClassVar[int] = 100
    #: Where its reasons come in a rationale: the most concrete evidence first.
    telling_order: ClassVar[int] = 100

    def score(
        self, query: SignalQuery, sources: SignalSources, partial: PartialTotal | None
    ) -> SignalReading:
        """Values for every controller of `query` (`partial` is given to deferred signals)."""
        raise NotImplementedError

    def reasons(self, reading: SignalReading, index: int, controller: str) -> list[str]:
        """Why this signal speaks for (or against) one controller, in words; may be empty."""
        return []

    def calibration_features(self, values: np.ndarray, index: int) -> dict[str, float]:
        """This signal's calibration features for the controller at `index`."""
        features: dict[str, float] = {}
        if self.calibrated:
            features[self.name] = float(values[index])
        if self.calibrated_margin:
            features[f"{self.name}_margin"] = rival_margin(float(values[index]), top_two(values))
        return features


def level(value: float) -> str:
    """A 0..1 score in words."""
    if value >= 0.7:
        return "high"
    if value >= 0.4:
        return "moderate"
    return "low"


def quoted(words: Sequence[str], limit: int = 4) -> str:
    """Distinct words, quoted, at most `limit`."""
    shown = [f"'{w}'" for w in list(dict.fromkeys(words))[:limit]]
    return ", ".join(shown)
