"""Persistent-memory signal (10%): lessons from feedback on similar messages.

An adapter over `brain.memory.lessons.LessonRecall`, which holds the lessons and scores them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import numpy as np

from brain.memory.entry import LessonMatch
from brain.memory.lessons import MEMORY_NEUTRAL, LessonRecall, decision_ids_mentioned
from brain.signals.base import PartialTotal, Signal, SignalQuery, SignalReading, SignalSources


def memory_signal(
    store: LessonRecall | None,
    text: str,
    *,
    vector: np.ndarray | None,
    ids: Sequence[str],
    user: str,
    names: Sequence[str],
    team: str | None = None,
) -> tuple[np.ndarray, dict[str, list[LessonMatch]]]:
    """(memory signal per controller aligned with `names`, the memories behind it)."""
    if store is None or len(store) == 0:
        return np.full(len(names), MEMORY_NEUTRAL, dtype=np.float32), {}
    return store.signal(text, vector=vector, ids=ids, user=user, names=names, team=team)


class MemorySignal(Signal):
    """Corrections, rejections and confirmations of similar messages (any conversation)."""

    name: ClassVar[str] = "memory"
    word: ClassVar[str] = "past feedback"
    neutral: ClassVar[float] = MEMORY_NEUTRAL
    telling_order: ClassVar[int] = 50

    def score(
        self, query: SignalQuery, sources: SignalSources, partial: PartialTotal | None
    ) -> SignalReading:
        values, matches = memory_signal(
            sources.memory,
            query.text,
            vector=query.vector,
            ids=decision_ids_mentioned(query.entities),
            user=query.message.user,
            team=query.message.team,
            names=query.names,
        )
        return SignalReading(values, "ok", matches)

    def reasons(self, reading: SignalReading, index: int, controller: str) -> list[str]:
        value = float(reading.values[index])
        if value > MEMORY_NEUTRAL:
            return ["past feedback on similar messages favours it"]
        if value < MEMORY_NEUTRAL:
            return ["past feedback on similar messages speaks against it"]
        return []


def memory_matches(reading: SignalReading | None) -> Mapping[str, list[LessonMatch]]:
    """The memories behind a memory reading, by controller (none without one)."""
    if reading is None or not isinstance(reading.evidence, dict):
        return {}
    return reading.evidence
