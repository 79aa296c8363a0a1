"""The lessons as they were when each replayed decision was made.

A replay decides in a throwaway copy of the home (`brain.replay.sandbox`), which starts with
every lesson learnt up to now. Lessons learnt after a logged decision (often from the
feedback on that very decision) must not sway its replay, or the replay answers "what if the
change and every later correction" instead of "what if the change". So the copy keeps only
the lessons learnt before the first replayed decision; each later one is written back, through
the brain's own memory store, just before the first replayed decision made after it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from brain.memory.entry import Lesson
from core.stores.protocols import LessonStore

#: Lessons are stamped to the second (`LessonRecall.lesson`): one stamped 10:00:00 may have
#: been learnt at 10:00:00.9, so it counts as known only from 10:00:01 on.
STAMP = timedelta(seconds=1)


def _time(stamp: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _known_by(entry: Lesson, decided_at: str) -> bool:
    """Was the lesson certainly learnt before a decision made at `decided_at`? A lesson or
    decision without a readable time counts as known (the home's lessons all apply)."""
    learnt, decided = _time(entry.created_at), _time(decided_at)
    return learnt is None or decided is None or learnt + STAMP <= decided


class LaterLessons:
    """The lessons held back from a replay's copy, handed out as the replay reaches them."""

    def __init__(self, entries: list[Lesson]) -> None:
        self._waiting = sorted(entries, key=lambda e: _time(e.created_at) or datetime.min)

    def __len__(self) -> int:
        return len(self._waiting)

    def due(self, decided_at: str) -> list[Lesson]:
        """The held-back lessons learnt before a decision made at `decided_at` (each once)."""
        ready = [e for e in self._waiting if _known_by(e, decided_at)]
        self._waiting = [e for e in self._waiting if not _known_by(e, decided_at)]
        return ready


def hold_back(lessons: LessonStore, first_decided_at: str) -> LaterLessons:
    """Remove from a sandbox's lesson store (never the real home's) the lessons not yet
    learnt when the first replayed decision was made."""
    entries = lessons.all()
    later = [e for e in entries if not _known_by(e, first_decided_at)]
    if later:
        lessons.remove([e.memory_id for e in later])
    return LaterLessons(later)
