"""The decision log in process memory."""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from core.errors import UnknownDecision
from core.records import Decision
from core.stores.feedback_rules import add_entry, merged_feedback
from core.stores.forgetting import forget_in

#: Decision ids remembered per session, as in the TinyDB log.
SESSION_KEEP = 50


class MemoryDecisionStore:
    """Decisions kept as JSON text (so no caller shares a mutable record with the store)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._decisions: dict[str, str] = {}
        self._sessions: dict[str, list[str]] = {}
        self._latest: dict[tuple[str, str], str] = {}

    def append(self, decision: Decision) -> None:
        with self._lock:
            self._decisions[decision.decision_id] = _dumps(decision.to_dict())
            ids = self._sessions.setdefault(_session_key(decision), [])
            if decision.decision_id not in ids:
                ids.append(decision.decision_id)
                del ids[:-SESSION_KEEP]
            self._latest[(decision.user, decision.channel)] = decision.decision_id

    def update(self, decision: Decision) -> None:
        with self._lock:
            stored = self._load(decision.decision_id)
            values = decision.to_dict()
            values["feedback"] = merged_feedback(stored["feedback"], values.get("feedback", []))
            self._decisions[decision.decision_id] = _dumps(values)

    def add_feedback(self, decision_id: str, entry: Mapping[str, Any]) -> Decision:
        with self._lock:
            values = self._load(decision_id)
            if add_entry(values.setdefault("feedback", []), entry):
                self._decisions[decision_id] = _dumps(values)
            return Decision.from_dict(values)

    def get_many(self, decision_ids: list[str]) -> list[Decision]:
        with self._lock:
            return [Decision.from_dict(self._load(i)) for i in decision_ids]

    def page(self, *, before: str | None, limit: int) -> tuple[list[Decision], str | None]:
        """Newest first from the cursor (a position in insertion order; `DecisionPages`)."""
        with self._lock:
            ids = list(self._decisions)
            top = len(ids) if not before else max(0, min(int(before), len(ids)))
            bottom = max(0, top - limit)
            page = [Decision.from_dict(self._load(i)) for i in reversed(ids[bottom:top])]
        return page, (str(bottom) if bottom > 0 else None)

    def last_for(self, user: str, channel: str) -> Decision | None:
        with self._lock:
            found = self._latest.get((user, channel))
            return None if found is None else Decision.from_dict(self._load(found))

    def session_ids(self, session_key: str) -> list[str]:
        with self._lock:
            return list(self._sessions.get(session_key, []))

    def forget_user(self, user: str, texts: Sequence[str]) -> list[str]:
        changed = []
        with self._lock:
            for decision_id in list(self._decisions):
                values = self._load(decision_id)
                if forget_in(values, user, texts):
                    self._decisions[decision_id] = _dumps(values)
                    changed.append(decision_id)
        return changed

    def flush(self) -> None:
        return None

    def close(self) -> None:
        return None

    def _load(self, decision_id: str) -> dict[str, Any]:
        text = self._decisions.get(decision_id)
        if text is None:
            raise UnknownDecision(decision_id)
        values: dict[str, Any] = json.loads(text)
        return values


def _dumps(values: Mapping[str, Any]) -> str:
    return json.dumps(values, ensure_ascii=False, default=str)


def _session_key(decision: Decision) -> str:
    return f"{decision.channel}:{decision.thread or decision.user}"
