"""The ONE feedback API: every surface (CLI, Slack, terminal chat) records feedback here.

`record_feedback` stores the feedback with its decision (a `FeedbackRecord` in
decision.feedback: kind, controller, user, source, at, reason), runs the AUDNP persist rules
(brain.memory.LessonRing.after_feedback) and returns the updated decision. Giving the same
feedback twice changes nothing the second time. A reason given afterwards ("it's an order, not
a fault", from the 👎 modal in Slack or `brain feedback --reason`) is stored as its own entry,
redacted like every text a person types, and teaches the memory nothing a second time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import cast

import numpy as np

from brain.decisions.log import DecisionLog
from brain.learning.ring import LessonRing
from core.errors import InvalidFeedback, UnknownController
from core.records import FEEDBACK_KINDS, Decision, FeedbackKind, FeedbackRecord
from core.redact import redact
from core.stores.feedback_rules import same_feedback
from core.text.cleaning import clean_text

#: Characters of a feedback's reason that are kept.
REASON_CHARS = 500


class FeedbackService:
    """Records feedback against the decision log and the memory ring."""

    def __init__(
        self,
        log: DecisionLog,
        ring: LessonRing,
        *,
        controller_names: Callable[[], Sequence[str]],
        embed: Callable[[str], np.ndarray | None] | None = None,
        lock: threading.RLock | None = None,
    ) -> None:
        self.log = log
        self.ring = ring
        self._names = controller_names
        self._embed = embed
        self._lock = lock or threading.RLock()

    def record_feedback(
        self,
        decision_id: str,
        kind: str,
        controller: str | None = None,
        user: str | None = None,
        source: str = "cli",
        reason: str = "",
    ) -> Decision:
        """Store one feedback with its decision; returns the updated decision.

        Raises UnknownDecision for an unknown id, UnknownController when `controller` is not
        registered, InvalidFeedback for an unknown kind or a correction without a controller.
        """
        if kind not in FEEDBACK_KINDS:
            raise InvalidFeedback(
                f"feedback kind must be one of {', '.join(FEEDBACK_KINDS)}, not {kind!r}"
            )
        if kind == "correct" and not controller:
            raise InvalidFeedback("a correction needs the controller the message should go to")
        if controller is not None:
            names = list(self._names())
            if controller not in names:
                raise UnknownController(controller, names)
        with self._lock:
            decision = self.log.get(decision_id)
            entry = FeedbackRecord(
                kind=cast(FeedbackKind, kind),
                controller=controller,
                user=user or decision.user,
                source=source,
                reason=redact(clean_text(reason))[:REASON_CHARS] if reason.strip() else "",
            )
            # The stores' rule for "the same feedback", so this check and the store's agree.
            said = entry.to_dict()
            if any(same_feedback(earlier.to_dict(), said) for earlier in decision.feedback):
                return decision  # idempotent: the same feedback again changes nothing
            repeated = any(earlier.repeats(entry) for earlier in decision.feedback)
            entry.at = datetime.now(UTC).isoformat(timespec="seconds")
            decision.feedback.append(entry)
            if not repeated:
                vector = self._embed(decision.text) if self._embed is not None else None
                # AUDNP: what this feedback persisted is kept with the feedback itself.
                entry.persisted = self.ring.after_feedback(decision, entry, vector)
            # Appended in the store atomically, so feedback given at the same time by another
            # process (the bot and `brain feedback`) is kept too; durable when this returns.
            return self.log.add_feedback(decision_id, entry.to_dict())
