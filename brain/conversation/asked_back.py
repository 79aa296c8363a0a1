"""A reply to "is this about the record, or something new?" that is no pick but goes on with
the record carries the message that was asked about.

The bot asks which when it is unsure a message continues the thread's record ("现在完全开不了机
了" after "我的笔记本键盘进水了"). A person often answers with more words instead of a pick:
"就是这台笔记本，现在按电源键也没反应" (it's this laptop, the power button does nothing now).
Read alone, that reply continues the record, and only it went on the record: the message asked
about, which said the laptop no longer starts at all, was lost. When the continuation model
reads the reply as continuing the record, the two are one turn: the asked message and the reply
go on the record together. Asked which, a person who means something new says so; a reply the
model only leans to the record with (`LEANS_ON_RECORD`) is taken as about it. A reply it reads
otherwise is decided as it is.
"""

from __future__ import annotations

from dataclasses import replace

from brain.conversation.continuing import (
    LEANS_ON_RECORD,
    ON_RECORD,
    continue_on,
    judge,
    names_other_work,
)
from brain.conversation.thread import ThreadBrain
from brain.intent.urgency import handoff_signal
from core.errors import UnknownDecision
from core.records import Decision, Message
from core.stores.records import ConversationState


def continued(brain: ThreadBrain, message: Message, state: ConversationState) -> Decision | None:
    """The reply and the message the pending "which record?" question asked about, applied to
    the thread's record as the model reads the reply, when the reply leans to the record;
    None otherwise (the reply is decided as any message is)."""
    if not state.pending or not any(value == ON_RECORD for value, _ in state.pending_choices):
        return None
    if handoff_signal(message.text) is not None:  # a person asked for: the chain's escalation
        return None
    judged = judge(brain, message, state)
    if judged is None or judged.reading.continues < LEANS_ON_RECORD:
        return None
    if names_other_work(brain, message, state, judged):
        return None
    try:
        asked = brain.get_decision(state.pending).text
    except UnknownDecision:
        return None
    if asked.strip() and asked.strip() != message.text.strip():
        message = replace(message, text=f"{asked}\n{message.text}")
    return continue_on(brain, message, state, judged)
