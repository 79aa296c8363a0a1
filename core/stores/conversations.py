"""The conversation state of each thread (and DM session), in the record store.

Every replica reads and writes the same state, so a question the bot asked through one replica
is answered through another: the open question (which parameters, for which controller and
record), the records the thread is about (ticket, alert and change ids), the last decision, the
pending clarification and the thread's recent texts (redacted by the caller before storing).
"""

from __future__ import annotations

from collections.abc import Iterable

from core.stores.protocols import Collection, ConversationStateStore
from core.stores.records import ConversationState, OpenQuestion

__all__ = ["ConversationState", "ConversationStates", "OpenQuestion", "states_of"]


def states_of(sessions: ConversationStateStore | Collection | None) -> ConversationStateStore:
    """The conversation states of `sessions`: a store as it is, a bare collection of documents
    wrapped, or (None) states kept in this process only, for a surface built without stores."""
    if isinstance(sessions, ConversationStateStore):
        return sessions
    if sessions is None:
        from core.stores.memory.collection import MemoryCollection

        sessions = MemoryCollection(lambda doc: str(doc["key"]))
    return ConversationStates(sessions)


class ConversationStates:
    """Conversation states keyed by session key, over any backend's `Collection`."""

    def __init__(self, collection: Collection) -> None:
        self._collection = collection

    def get(self, key: str) -> ConversationState | None:
        row = self._collection.get(key)
        return None if row is None else ConversationState.from_dict(row)

    def put(self, state: ConversationState) -> None:
        self._collection.put_many([state.to_dict()])

    def keys_of(self, user: str) -> list[str]:
        """Sessions `user` wrote in (their texts are in them)."""
        return [
            str(row["key"])
            for row in self._collection.all()
            if user in row.get("users", []) or str(row["key"]).split(":", 1)[-1] == user
        ]

    def remove(self, keys: Iterable[str]) -> None:
        self._collection.remove(keys)
