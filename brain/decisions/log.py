"""The decision log as the decision chain uses it, over whichever `DecisionStore` is configured.

The store (`core.stores`) keeps the records durable and shared; this class adds what the chain
asks of it: id validation, a session's decisions as records, feedback appended atomically, and
redaction at rest: what is stored is a copy whose free text (the message, entities, rationale,
tier path, dry-runs, clarification, result) went through `core.redact`, so a password, token,
email or phone number a user typed is never written, while the caller keeps deciding and running
controllers on the clean text it holds in memory.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.errors import UnknownDecision
from core.records import Decision
from core.redact import redact_strings
from core.stores.protocols import DecisionAndFeedbackStore

#: Decision ids remembered per session (the session signal needs only the recent ones).
SESSION_KEEP = 50
#: Decision fields that hold free text (the user's words or what was derived from them).
FREE_TEXT_FIELDS = (
    "text",
    "entities",
    "rationale",
    "tier_path",
    "dry_runs",
    "clarification",
    "result",
    "memory_influences",
)


def at_rest(decision: Decision) -> Decision:
    """The copy of a decision that may be stored: its free text redacted. The copy shares
    the decision's other lists and dicts (no deep copy: a store only serialises it), while
    every redacted field is a new value."""
    data = decision.json_fields()
    for name in FREE_TEXT_FIELDS:
        if data.get(name) is not None:
            data[name] = redact_strings(data[name])
    return Decision.from_dict(data)


class DecisionLog:
    """Append, update and look up decisions and their feedback."""

    def __init__(self, store: DecisionAndFeedbackStore) -> None:
        self.store = store

    def append(self, decision: Decision) -> None:
        """Store a new decision, redacted (on disk when this returns, for a durable store)."""
        self.store.append(at_rest(decision))

    def update(self, decision: Decision) -> None:
        """Replace a logged decision (redacted); raises UnknownDecision."""
        self.store.update(at_rest(decision))

    def add_feedback(self, decision_id: str, entry: Mapping[str, Any]) -> Decision:
        """Append one feedback item to its decision; returns the updated decision."""
        return self.store.add_feedback(decision_id, entry)

    def get(self, decision_id: str) -> Decision:
        """The logged decision; raises UnknownDecision."""
        if not isinstance(decision_id, str) or not decision_id.strip():
            raise UnknownDecision(str(decision_id))
        return self.store.get_many([decision_id.strip()])[0]

    def get_many(self, decision_ids: list[str]) -> list[Decision]:
        """Several decisions in the given order; raises UnknownDecision."""
        return self.store.get_many(decision_ids)

    def last_for(self, user: str, channel: str) -> Decision | None:
        """The latest decision of a user in a channel, or None."""
        return self.store.last_for(user, channel)

    def session_ids(self, session_key: str) -> list[str]:
        """Ids of the session's latest decisions, oldest first."""
        return self.store.session_ids(session_key)[-SESSION_KEEP:]

    def session(self, session_key: str, limit: int = SESSION_KEEP) -> list[Decision]:
        """The session's latest decisions, oldest first (ids no longer found are skipped)."""
        ids = self.session_ids(session_key)[-limit:]
        try:
            return self.store.get_many(ids)
        except UnknownDecision:
            return [d for d in (self._get_or_none(i) for i in ids) if d is not None]

    def _get_or_none(self, decision_id: str) -> Decision | None:
        try:
            return self.get(decision_id)
        except UnknownDecision:
            return None

    def flush(self) -> None:
        """Make everything accepted so far durable."""
        self.store.flush()

    def close(self) -> None:
        """Flush and release the store."""
        self.store.close()
