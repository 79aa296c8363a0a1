"""What the bot says about a thread's record when a reply in the thread is read against it
(`brain.conversation`): a question about it answered, a goodbye, the problem said to be gone,
or the question whether a message is about the record at all; in the asker's language (the
`threads.*` messages of `core.wording`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from core.text.shortening import shorten
from core.wording import wording_for

if TYPE_CHECKING:
    from controllers.tickets import Ticket

__all__ = [
    "closing",
    "question_on",
    "solved_by_requester",
    "something_new",
    "which_record",
    "which_to_withdraw",
    "withdrawn_by_requester",
]


def solved_by_requester(ticket_id: str, zh: bool) -> str:
    """The requester said the problem is gone: their words went on the ticket and it is
    resolved, and saying it is back reopens it."""
    return wording_for(zh).say("threads.solved_by_requester", ticket_id=ticket_id)


def withdrawn_by_requester(ticket_id: str, zh: bool) -> str:
    """The requester withdrew their request ("cancel it, not needed anymore"): their words
    went on the record and it is closed; a later reply reopens it."""
    return wording_for(zh).say("threads.withdrawn_by_requester", ticket_id=ticket_id)


def which_to_withdraw(tickets: Sequence[Ticket], zh: bool) -> str:
    """The requester took "it" back in a thread holding several open requests of theirs:
    which one, with the words that close it; nothing is closed yet."""
    words = wording_for(zh)
    records = words.say("common.clause_separator").join(
        words.say("common.record_titled", ticket_id=t.id, title=shorten(t.title, 60))
        for t in tickets
    )
    return words.say(
        "threads.which_to_withdraw", count=len(tickets), records=records, example=tickets[0].id
    )


def question_on(ticket_id: str, answer: str, zh: bool) -> str:
    """A question about the thread's ticket: the knowledge base's answer on its subject (""
    when none), and the question kept on the ticket for the people working on it."""
    key = "threads.question_answered" if answer else "threads.question_unanswered"
    return wording_for(zh).say(key, ticket_id=ticket_id, answer=answer)


def closing(ticket: Ticket, zh: bool, *, thanked: bool = True) -> str:
    """A thank-you or goodbye in the thread: nothing added to the record, its state said. A
    thank-you is answered "you're welcome"; an "ok", "got it" or "see ya" is acknowledged."""
    words = wording_for(zh)
    state = words.say("threads.state_open" if ticket.is_open else "threads.state_done")
    opening = words.say("threads.welcome" if thanked else "threads.acknowledged")
    return words.say("threads.closing", opening=opening, ticket_id=ticket.id, state=state)


def which_record(ticket: Ticket, zh: bool) -> str:
    """The question when it is unclear whether a message is about the thread's record."""
    return wording_for(zh).say("threads.which_record", ticket_id=ticket.id, title=ticket.title)


def something_new(zh: bool) -> str:
    """The choice that starts a new request instead of adding to the thread's record."""
    return wording_for(zh).say("threads.something_new")
