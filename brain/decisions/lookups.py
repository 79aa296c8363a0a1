"""Reading logged decisions back: by id, a user's latest, a conversation's, and explained.

None of these opens a model or the knowledge base: `brain why` and `brain feedback` stay fast.
"""

from __future__ import annotations

from brain.decisions.explain import Explanation
from brain.decisions.log import DecisionLog
from core.records import Decision


class DecisionLookups:
    """Look-ups over one decision log."""

    def __init__(self, log: DecisionLog) -> None:
        self._log = log

    def get(self, decision_id: str) -> Decision:
        """A logged decision; raises core.errors.UnknownDecision."""
        return self._log.get(decision_id)

    def last(self, user: str, channel: str) -> Decision | None:
        """The user's latest decision in a channel, or None."""
        return self._log.last_for(user, channel)

    def session(self, session_key: str) -> list[Decision]:
        """The latest decisions of one conversation, oldest first."""
        return self._log.session(session_key)

    def explain(self, decision_id: str) -> Explanation:
        """Everything behind a decision."""
        return Explanation(self.get(decision_id))
