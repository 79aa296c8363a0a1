"""The AUDNP memory ring: Assess, Update, Detect, Notify, Persist after every decision and every
feedback, over the lessons of `brain.memory.lessons` (persist rules and weights: see that
module)."""

from __future__ import annotations

import threading
from collections.abc import Mapping

import numpy as np

from brain.memory.entry import LessonMatch
from brain.memory.lessons import (
    CONFIRMATION,
    CONSECUTIVE,
    CORRECTION_RIGHT,
    CORRECTION_WRONG,
    REJECTION,
    LessonRecall,
    decision_ids_mentioned,
)
from brain.signals.session_cache import SessionCache, SessionEntry
from core.records import Decision, FeedbackRecord, IntentResult


class LessonRing:
    """Assess, Update, Detect, Notify, Persist after every decision and every feedback."""

    def __init__(self, store: LessonRecall, sessions: SessionCache) -> None:
        self.store = store
        self.sessions = sessions
        self._persisted_streaks: set[str] = set()
        self._lock = threading.RLock()

    def detect(self, controller: str | None, matches: Mapping[str, list[LessonMatch]]) -> list[str]:
        """D: conflicts of a route with earlier lessons on similar messages (notes for N)."""
        if not controller:
            return []
        notes = []
        for match in matches.get(controller, []):
            if match.contribution < 0:
                notes.append(
                    f"conflict: a similar message sent to {controller} was "
                    f"{'corrected' if match.entry.kind == 'correction-wrong' else 'rejected'} "
                    f"on {match.entry.created_at[:10]} ({match.entry.text[:60]!r})"
                )
        return notes

    def after_decision(self, decision: Decision, vector: np.ndarray | None) -> list[str]:
        """A + U + P after a new decision; returns notes (N) for the decision."""
        key = session_key_of(decision)
        with self._lock:
            earlier = [
                e for e in self.sessions.entries(key) if e.decision_id != decision.decision_id
            ]
            self.sessions.put(key, decision)
            # A: the previous decision went unchallenged if the user moved on without feedback.
            if len(earlier) < 2:
                return []
            last, before = earlier[-1], earlier[-2]
            # Lessons only from evidence: an unchallenged route teaches only when its
            # controller's result succeeded too (a misroute nobody corrected never does).
            wins_last = last.verdicts()[0] if last.evidenced() else []
            wins_before = before.verdicts()[0] if before.evidenced() else []
            common = [c for c in wins_last if c in wins_before]
            if not common or last.decision_id in self._persisted_streaks:
                return []
            self._persisted_streaks.add(last.decision_id)
        notes = []
        for name in common:
            self.store.add(
                controller=name,
                weight=CONSECUTIVE,
                kind="consecutive",
                decision=_shadow(last, decision),
                vector=None,
                ids=decision_ids_mentioned(last.entities),
            )
            notes.append(f"memory: two successes in a row for {name} were persisted (+0.05)")
        return notes

    def after_feedback(
        self, decision: Decision, feedback: FeedbackRecord, vector: np.ndarray | None
    ) -> list[str]:
        """U + P after a feedback; returns what was persisted, in words."""
        self.sessions.put(session_key_of(decision), decision)
        kind = feedback.kind
        target = feedback.controller
        ids = decision_ids_mentioned(decision.entities)
        lessons: list[tuple[str, float, str]] = []
        if kind == "correct" and target:
            if decision.controller and decision.controller != target:
                lessons.append((decision.controller, CORRECTION_WRONG, "correction-wrong"))
            lessons.append((str(target), CORRECTION_RIGHT, "correction-right"))
        elif kind == "reject":
            rejected = target or decision.controller
            if rejected:
                lessons.append((str(rejected), REJECTION, "rejection"))
        elif kind == "confirm":
            confirmed = target or decision.controller
            if confirmed:
                lessons.append((str(confirmed), CONFIRMATION, "confirmation"))
        notes = []
        moved = (
            (decision.controller or "", str(target)) if kind == "correct" and target else ("", "")
        )
        entries = []
        for name, weight, lesson in lessons:
            entries.append(
                self.store.lesson(
                    controller=name,
                    weight=weight,
                    kind=lesson,
                    decision=decision,
                    vector=vector,
                    ids=ids,
                    user=feedback.user or decision.user,
                    moved=moved,
                )
            )
            notes.append(f"memory: persisted {weight:+.2f} for {name} ({lesson})")
        self.store.write_many(entries)  # a correction's two lessons: one durable write
        return notes


def session_key_of(decision: Decision) -> str:
    """The session key of a stored decision (same rule as `Message.session_key`)."""
    return f"{decision.channel}:{decision.thread or decision.user}"


def _shadow(entry: SessionEntry, current: Decision) -> Decision:
    """A minimal Decision standing for an earlier session entry (for `LessonRecall.add`)."""
    return Decision(
        decision_id=entry.decision_id,
        text=entry.text,
        user=current.user,
        channel=current.channel,
        thread=current.thread,
        team=current.team,
        controller=entry.controller,
        supporting=list(entry.supporting),
        confidence=0.0,
        tier="fast",
        outcome="routed",
        escalate=False,
        urgency="low",
        intent=IntentResult.from_dict({}, urgency="low", entities=entry.entities),
        entities=entry.entities,
        signals={},
        rationale="",
    )
