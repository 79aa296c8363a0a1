"""A message sent while the bot waits for "which controller?" on a request nothing was filed
for: decided with the waiting request when it goes on describing it, answered with the
question again when it asks how that request stands, and left to the thread's record when it
goes on with the record at least as surely (the waiting message may be a misread follow-up:
"还要等多久？" after a retry report the bot could not place is about the locked account on
record, not about the retry report).
"""

from __future__ import annotations

from dataclasses import replace

from brain.continuation.model import Reading, Thread
from brain.conversation.continuing import LEANS_ON_RECORD, ON_RECORD, joined_to_subject
from brain.conversation.judging import judge
from brain.conversation.thread import ThreadBrain
from core.records import Message
from core.stores.records import ConversationState

__all__ = ["asks_how_the_waiting_stands", "joined_to_waiting"]


def joined_to_waiting(brain: ThreadBrain, message: Message, state: ConversationState) -> Message:
    """A message sent while the bot waits for "which controller?" that goes on describing the
    waiting request is decided with it, as one request: "还是很慢，重启了连接池也没用" after
    "数据库那边的慢查询突然飙升了……" is that report, not a new one that lost its subject (filed
    alone, it was a network incident with Wi-Fi guidance). The continuation model reads the
    message against the waiting one as against a record; a pick, a thank-you, a "which
    record?" question pending, or a message it reads as new leave the message as it is, unless
    the chain, reading it alone, could not place it either ("一闪一闪然后就黑了" after "我的显示器
    坏了"): alone it would only be asked about again or fall back; with the waiting request it
    has a subject. A message the model continues the thread's record with, at least as surely
    as the waiting request or as a status question, is left to the record
    (`_record_takes_it`). With no question waiting, the thread's subject is joined instead
    (`joined_to_subject`)."""
    read = _read_against_waiting(brain, message, state)
    if read is None and not state.pending:
        return joined_to_subject(brain, message, state)
    if read is None or read[1].kind == "closing":
        return message
    waiting, reading = read
    if _record_takes_it(brain, message, state, reading):
        return message
    if reading.continues < LEANS_ON_RECORD and brain.places(replace(message, new_topic=True)):
        return message
    return replace(message, text=f"{waiting}\n{message.text}")


def _record_takes_it(
    brain: ThreadBrain, message: Message, state: ConversationState, waiting: Reading
) -> bool:
    """The thread holds a record, and the continuation model, reading the message alone
    against it, continues it (`Reading.verdict`) as a status question, or at least as surely
    as the waiting request: only a record has a state to ask about (nothing was filed for the
    waiting message), and joined to that request, "还要等多久？" after a locked account and a
    retry report the bot could not place became part of a new request and was asked about
    again."""
    if not state.records:
        return False
    on_record = judge(brain, message, state)
    if on_record is None or on_record.verdict != "continue":
        return False
    return on_record.reading.kind == "status" or on_record.reading.continues >= waiting.continues


def asks_how_the_waiting_stands(
    brain: ThreadBrain, message: Message, state: ConversationState
) -> bool:
    """While the bot waits for "which controller?" on a request nothing was filed for, the
    message asks how that request stands ("is anyone on it?", "有人在看吗"), as the
    continuation model reads it against the waiting request: there is nothing to report but
    the question itself, which is put again as it was (deciding the two messages together
    asked it anew, its choices in another order)."""
    read = None if state.records else _read_against_waiting(brain, message, state)
    return read is not None and read[1].kind == "status" and read[1].verdict == "continue"


def _read_against_waiting(
    brain: ThreadBrain, message: Message, state: ConversationState
) -> tuple[str, Reading] | None:
    """The request the bot waits on "which controller?" for, and the continuation model's
    reading of the message against it; None when no such question waits (nothing pending, or
    the pending question is "is this about the thread's record?") or the model cannot read."""
    if (
        not state.pending
        or not state.history
        or any(value == ON_RECORD for value, _ in state.pending_choices)
    ):
        return None
    waiting = state.history[-1]
    reading = brain.read_continuation(Thread(message=message.text, record=waiting))
    return None if reading is None else (waiting, reading)
