"""One `brain chat` thread through `Conversation`, as the engine's thread tests drive it."""

from __future__ import annotations

from brain.conversation.turns import Conversation, Reply
from brain.engine import Brain
from core.records import Message


def chat_thread(brain: Brain, *turns: str) -> list[Reply]:
    """Each turn sent by one user in one thread, in order; the replies."""
    conversation = Conversation(brain, brain.conversations)
    return [conversation.handle(Message(t, "u1", "C1", thread="T1")) for t in turns]


def records_field(brain: Brain, name: str) -> list[str]:
    """The value of field `name` on every record the brain's ticket store holds, in order."""
    store = brain.services.tickets
    assert store is not None
    return [str(ticket.fields.get(name)) for ticket in store.all()]
