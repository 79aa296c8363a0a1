"""Conversation state kept in a shared store (the PostgreSQL backend's `conversations`, here
any keyed collection): a clarification asked by one process is answered through another, and
what users typed is stored redacted, like the decision log."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from brain.conversation.turns import Conversation
from brain.engine import Brain
from core.records import Message


class Sessions:
    """A keyed collection in memory (the shape of `core.stores` collections)."""

    def __init__(self) -> None:
        self.docs: dict[str, dict[str, Any]] = {}

    def get(self, key: str) -> dict[str, Any] | None:
        found = self.docs.get(key)
        return None if found is None else json.loads(json.dumps(found))

    def all(self) -> list[dict[str, Any]]:
        return [json.loads(json.dumps(doc)) for doc in self.docs.values()]

    def put_many(self, documents: Iterable[Mapping[str, Any]]) -> None:
        for document in documents:
            self.docs[str(document["key"])] = json.loads(json.dumps(document))

    def remove(self, keys: Iterable[str]) -> None:
        for key in list(keys):
            self.docs.pop(key, None)


def test_a_typed_password_never_reaches_the_shared_session_store(brain: Brain) -> None:
    sessions = Sessions()
    conversation = Conversation(brain, sessions)
    text = "VPN broken again, my password is Hunter2!x please fix"
    conversation.handle(Message(text, "u1", "C1"))
    stored = json.dumps(sessions.docs)
    assert sessions.docs, "the session was not shared"
    assert "Hunter2" not in stored
    assert "VPN broken again" in stored  # the rest of the text is kept for context


def test_a_question_asked_by_one_process_is_answered_through_another(brain: Brain) -> None:
    sessions = Sessions()
    first, second = Conversation(brain, sessions), Conversation(brain, sessions)
    asked = first.handle(Message("help me, it's stuck", "u1", "C1"))
    assert asked.decision is not None and asked.choices, "the vague message was not asked about"
    key = next(iter(sessions.docs))
    assert sessions.docs[key]["pending"] == asked.decision.decision_id
    assert second.history(key) == ("help me, it's stuck",)
