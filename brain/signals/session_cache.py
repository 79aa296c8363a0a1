"""The session cache (`brain.signals.session`): what the session signal knows of each
conversation's earlier decisions."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from core.records import Decision, FeedbackRecord

SESSION_NEUTRAL = 0.5
SESSION_SUCCESS = 0.10
SESSION_FAILURE = -0.15


@dataclass(slots=True)
class SessionEntry:
    """What the session signal needs to know about one earlier decision."""

    decision_id: str
    controller: str | None
    supporting: list[str]
    outcome: str
    entities: dict[str, list[str]]
    feedback: list[FeedbackRecord]
    created_at: str
    text: str = ""
    #: Whether the controller's result succeeded (None: not run, or not known yet).
    result_ok: bool | None = None
    user: str = ""
    #: The bot asked something back (a clarification, or a parameter the controller lacks).
    asked: bool = False

    @classmethod
    def of(cls, decision: Decision) -> SessionEntry:
        return cls(
            decision_id=decision.decision_id,
            controller=decision.controller,
            supporting=list(decision.supporting),
            outcome=decision.outcome,
            entities={k: list(v) for k, v in decision.entities.items()},
            feedback=[replace(f) for f in decision.feedback],
            created_at=decision.created_at,
            text=decision.text[:500],
            result_ok=None if decision.result is None else bool(decision.result.ok),
            user=decision.user,
            asked=decision.outcome == "clarify"
            or bool(decision.result is not None and decision.result.missing),
        )

    def evidenced(self) -> bool:
        """Is there evidence the route was right: the asker confirmed it, or a correction
        named the right controller, or it went unchallenged AND its controller succeeded?"""
        kinds = [f.kind for f in self.feedback]
        if "correct" in kinds or "confirm" in kinds:
            return True
        return "reject" not in kinds and self.result_ok is True

    def verdicts(self) -> tuple[list[str], list[str]]:
        """(controllers this decision counts as a success for, ... as a failure for)."""
        successes: list[str] = []
        failures: list[str] = []
        kinds = [f.kind for f in self.feedback]
        corrected = [str(f.controller) for f in self.feedback if f.kind == "correct"]
        if corrected:
            if self.controller and self.controller != corrected[-1]:
                failures.append(self.controller)
            successes.append(corrected[-1])
        elif "reject" in kinds:
            if self.controller:
                failures.append(self.controller)
        elif self.controller and self.outcome in ("routed", "composed"):
            successes.append(self.controller)  # confirmed, or unchallenged
        return successes, failures


class SessionCache:
    """The session-level decision cache: recent decisions per conversation."""

    def __init__(self, keep: int = 50) -> None:
        self.keep = keep
        self._lock = threading.RLock()
        self._sessions: dict[str, list[SessionEntry]] = {}

    def known(self, session_key: str) -> bool:
        with self._lock:
            return session_key in self._sessions

    def load(self, session_key: str, decisions: Sequence[Decision]) -> None:
        with self._lock:
            self._sessions[session_key] = [SessionEntry.of(d) for d in decisions][-self.keep :]

    def entries(self, session_key: str) -> list[SessionEntry]:
        with self._lock:
            return list(self._sessions.get(session_key, []))

    def put(self, session_key: str, decision: Decision) -> None:
        """Add or refresh one decision of the session."""
        with self._lock:
            entries = self._sessions.setdefault(session_key, [])
            fresh = SessionEntry.of(decision)
            for i, entry in enumerate(entries):
                if entry.decision_id == decision.decision_id:
                    entries[i] = fresh
                    return
            entries.append(fresh)
            del entries[: -self.keep]

    def forget_user(self, user: str) -> None:
        """Drop every cached conversation of the user (their texts are forgotten)."""
        with self._lock:
            for key in [k for k in self._sessions if k.split(":", 1)[-1] == user]:
                del self._sessions[key]
            for entries in self._sessions.values():
                entries[:] = [e for e in entries if e.user != user]

    def signal(self, session_key: str, names: Sequence[str]) -> np.ndarray:
        """Session signal per controller (aligned with `names`)."""
        values = np.full(len(names), SESSION_NEUTRAL, dtype=np.float32)
        position = {name: i for i, name in enumerate(names)}
        for entry in self.entries(session_key):
            successes, failures = entry.verdicts()
            for name in successes:
                if name in position:
                    values[position[name]] += SESSION_SUCCESS
            for name in failures:
                if name in position:
                    values[position[name]] += SESSION_FAILURE
        return np.clip(values, 0.0, 1.0)
