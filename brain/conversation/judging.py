"""Which of the thread's records a message is about, and the continuation model's reading of
it against that record (`judge`).

A thread may hold several records: a printer jam, then "different issue: I can't get into the
system" filed an access request beside it. The record a message goes on is by default the one
the bot's open question is about, else the newest; but "any update on the printer?" is about
the jam, and was answered with the access request's state ("打印机那个还要等多久？" even filled
the newer record's asked category with "打印机"). So the message is also read against each
other record of the thread, and goes to one the model reads it continuing more surely
(`CLEARER_BY`) that it names a subject word of, and not of the default's; how sure the
model is that it continues that record then decides, as for any record (`continuing.turn`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from brain.continuation.model import Reading, Thread
from brain.conversation.thread import ThreadBrain
from controllers.verification import specific_terms
from core.records import Message
from core.stores.records import ConversationState

if TYPE_CHECKING:
    from controllers.tickets import Ticket

__all__ = ["CLEARER_BY", "Judgement", "judge"]

log = logging.getLogger(__name__)

#: How much more surely the model must read a message continuing another record of the thread
#: than the default one before the message goes there (with a subject word of that record
#: named, and none of the default's). Readings of one message against two records differ
#: little when it names neither ("still broken": 0.93 against a VPN report, 0.94 against a
#: monitor's); naming one moved them 0.08-0.22 apart on the probes written for this.
CLEARER_BY = 0.05


@dataclass(frozen=True, slots=True)
class Judgement:
    """The continuation model's reading of a message against the thread's record."""

    reading: Reading
    ticket: Ticket
    controller: str
    #: The fields the bot asked for about this record ([] when it asked nothing).
    asked: list[str]

    @property
    def verdict(self) -> str:
        """ "continue", "new" or "ask" (`continuation.Reading.verdict`)."""
        return self.reading.verdict


def judge(brain: ThreadBrain, message: Message, state: ConversationState) -> Judgement | None:
    """The continuation model on the message and the thread's record (the one the bot's open
    question is about, else the newest, unless the message is about another of the thread's
    records: see the module's docstring): None when the thread holds no readable record or
    the model is unavailable."""
    question = state.open_question
    record = question.record if question is not None and question.record else None
    record = record or (state.records[-1] if state.records else None)
    if not record or message.new_topic:  # it inherits nothing from a record
        return None
    judged = _judged(brain, message, state, record)
    if judged is None:
        return None
    said = specific_terms(message.text)
    if not said or said & _subject(judged.ticket):
        return judged
    for other in reversed(state.records):
        if other == record:
            continue
        there = _judged(brain, message, state, other)
        if (
            there is not None
            and there.reading.continues >= judged.reading.continues + CLEARER_BY
            and said & _subject(there.ticket)
        ):
            return there
    return judged


def _subject(ticket: Ticket) -> set[str]:
    return specific_terms(str(ticket.fields.get("description") or ticket.title))


def _judged(
    brain: ThreadBrain, message: Message, state: ConversationState, record: str
) -> Judgement | None:
    """The model's reading of the message against one record of the thread."""
    store = brain.services.tickets
    if store is None:
        return None
    try:
        ticket = store.get(record)
    except Exception as exc:  # the store is down: route the message as usual
        log.warning("thread record %s unreadable: %s", record, exc)
        return None
    if ticket is None:
        return None
    question = state.open_question
    asked = list(question.parameters) if question is not None and question.record == record else []
    reading = brain.read_continuation(
        Thread(
            message=message.text,
            record=str(ticket.fields.get("description") or ticket.title),
            kind=ticket.kind,
            question=",".join(asked),
            same_user=ticket.requester == message.user,
            minutes=_minutes_since(ticket.updated_at or ticket.created_at),
            record_id=ticket.id,
        )
    )
    if reading is None:
        return None
    controller = state.record_controllers.get(record) or (question.controller if question else "")
    return Judgement(reading, ticket, controller or ticket.kind, asked)


def _minutes_since(stamp: str) -> float:
    try:
        then = datetime.fromisoformat(stamp)
    except ValueError:
        return 0.0
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    return max(0.0, (datetime.now(UTC) - then).total_seconds() / 60.0)
