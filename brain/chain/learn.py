"""Step 6, learn: the memory ring (assess, update, detect, notify, persist) takes the decision.

Only high-value decisions are persisted as lessons (see `brain.memory.lessons`); what the ring
noted is
added to the decision's memory influences and the logged record is updated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from core.records import Decision

if TYPE_CHECKING:
    from brain.decisions.log import DecisionLog
    from brain.learning.ring import LessonRing


@dataclass(frozen=True, slots=True)
class Learning:
    """Step 6's output: what the memory ring noted about the decision (often nothing)."""

    notes: tuple[str, ...] = ()


def learn(
    decision: Decision, vector: np.ndarray | None, *, ring: LessonRing, log: DecisionLog
) -> Learning:
    """Let the ring take the decision (the caller holds the stores' lock)."""
    notes = ring.after_decision(decision, vector)
    if notes:
        decision.memory_influences.extend(notes)
        log.update(decision)
    return Learning(tuple(notes))
