"""A lesson's part in a decision (`LessonMatch`); the lesson record itself is
`core.stores.lesson.Lesson`, named here for the modules that read lessons.

Kept apart from the store (`brain.memory.lessons`) so that the index, the mirror and the scan,
which hold lessons, need not import the store that holds them.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.stores.lesson import MOVED_TO, TEXT_CAP, Lesson, gram_set

__all__ = ["CONFIRMED", "MOVED_TO", "TEXT_CAP", "Lesson", "LessonMatch", "gram_set"]

#: The lesson of a route a person confirmed (a thumbs-up): the message belongs where it went.
CONFIRMED = "confirmation"


@dataclass(slots=True)
class LessonMatch:
    """A lesson that influenced a controller's memory signal: how similar its message was to
    this one, and what it added to the signal."""

    entry: Lesson
    similarity: float
    contribution: float

    def describe(self) -> str:
        sign = "+" if self.contribution >= 0 else ""
        lesson = {
            "correction-wrong": "was corrected away from",
            "correction-right": "was corrected to",
            "rejection": "was rejected for",
            "confirmation": "was confirmed for",
            "consecutive": "succeeded twice for",
        }.get(self.entry.kind, "is remembered for")
        snippet = self.entry.text if len(self.entry.text) <= 60 else self.entry.text[:57] + "..."
        return (
            f"memory: a similar message ({snippet!r}, similarity {self.similarity:.2f}) {lesson} "
            f"{self.entry.controller} on {self.entry.created_at[:10]} -> "
            f"{sign}{self.contribution:.3f} {self.entry.controller}"
        )
