"""The five signals of seed 000 combined into one raw weighted total per controller.

Everything is a numpy array aligned with the registry's controller order, so 1,000 controllers
cost little more than 7. The raw total is not a probability: `brain.calibration` maps it to the
confidence the routing tiers use.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from brain.memory import MemoryMatch
from brain.signals.keyword import KeywordHits, KeywordIndex
from controllers.base import Controller

if TYPE_CHECKING:
    from core.config import RoutingConfig
    from knowledge.types import Confirmation

log = logging.getLogger(__name__)

SIGNALS: tuple[str, ...] = ("keyword", "semantic", "knowledge", "session", "memory")
#: Controllers whose signals are kept in a stored decision when the registry is large.
STORED_SIGNALS = 20


@dataclass(slots=True)
class SemanticReading:
    """The semantic signal of one text and the scorer's out-of-scope verdict."""

    values: np.ndarray
    status: str
    out_of_scope: float | None = None
    """P(no controller should take it), when the scorer says."""
    declared: bool = False
    """The scorer declares the text out of scope (`brain.semantic`, declare_threshold)."""


def semantic_signal(scorer: Any | None, text: str, names: Sequence[str]) -> SemanticReading:
    """Semantic signal via `brain.semantic.SemanticScorer` (scores aligned with `names`)."""
    values = np.zeros(len(names), dtype=np.float32)
    if scorer is None:
        return SemanticReading(values, "unavailable")
    try:
        if list(getattr(scorer, "names", ())) == list(names) and hasattr(scorer, "analyse"):
            detail = scorer.analyse(text)
            aligned = np.asarray(detail.scores, dtype=np.float32)
            return SemanticReading(
                np.clip(aligned, 0.0, 1.0),
                "ok",
                float(detail.out_of_scope),
                bool(getattr(detail, "declared", False)),
            )
        scores = scorer.score(text)
    except Exception as exc:  # a signal failing must not stop the decision
        log.warning("semantic scoring failed: %s: %s", type(exc).__name__, exc)
        return SemanticReading(values, f"failed: {type(exc).__name__}")
    for index, name in enumerate(names):
        values[index] = min(max(float(scores.get(name, 0.0)), 0.0), 1.0)
    return SemanticReading(values, "ok")


@dataclass(slots=True)
class Evidence:
    """What stands behind the numbers, for the rationale and `brain why`."""

    keyword: KeywordHits
    confirmations: dict[str, Confirmation] = field(default_factory=dict)
    memory: dict[str, list[MemoryMatch]] = field(default_factory=dict)
    status: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class SignalTable:
    """The five signals and the raw weighted total of every controller."""

    names: list[str]
    keyword: np.ndarray
    semantic: np.ndarray
    knowledge: np.ndarray
    session: np.ndarray
    memory: np.ndarray
    total: np.ndarray
    evidence: Evidence
    out_of_scope: float | None = None
    """The semantic scorer's P(no controller should take the message), when known."""
    declared_out_of_scope: bool = False
    """The semantic scorer declares the message out of scope."""

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

    def row(self, index: int) -> dict[str, float]:
        """One controller's five signals and total, rounded for display and storage."""
        return {
            "keyword": round(float(self.keyword[index]), 4),
            "semantic": round(float(self.semantic[index]), 4),
            "knowledge": round(float(self.knowledge[index]), 4),
            "session": round(float(self.session[index]), 4),
            "memory": round(float(self.memory[index]), 4),
            "total": round(float(self.total[index]), 4),
        }

    def as_dict(self, limit: int = STORED_SIGNALS) -> dict[str, dict[str, float]]:
        """Signals of every controller (of the `limit` strongest when there are more)."""
        return {self.names[i]: self.row(i) for i in self.ranked(limit)}


def weights_of(routing: RoutingConfig) -> np.ndarray:
    """The five weights in SIGNALS order."""
    return np.array(
        [
            routing.weight_keyword,
            routing.weight_semantic,
            routing.weight_knowledge,
            routing.weight_session,
            routing.weight_memory,
        ],
        dtype=np.float32,
    )


def combine(weights: np.ndarray, *signals: np.ndarray) -> np.ndarray:
    """Weighted total per controller: weights (5,) x stacked signals (5, n)."""
    stacked = np.vstack(signals).astype(np.float32)
    return np.asarray(weights @ stacked, dtype=np.float32)


class KeywordCompiler:
    """Keeps one compiled KeywordIndex per registry version (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version: str | None = None
        self._index: KeywordIndex | None = None

    def get(self, controllers: Sequence[Controller], version: str) -> KeywordIndex:
        with self._lock:
            if self._index is None or self._version != version:
                self._index = KeywordIndex(controllers)
                self._version = version
            return self._index
