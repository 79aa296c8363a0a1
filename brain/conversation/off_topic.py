"""A question in a thread that is about nothing on record: the chain turns it away alone.

A thread's record draws every message after it: the continuation model reads "what's the
weather like tomorrow?" after a release is filed as a status question (it has seen questions
in threads mostly about the record), and the thread's own reading takes a short reply for the
value the bot asked for ("who won the football last night?" as the change's service). Two
learned readings of the message alone tell such a question apart: the speech-act model reads a
question, and the chain, deciding it afresh, places it nowhere with the semantic model
declaring it outside every controller's work. Context said as a statement ("I'm working from
home today") is turned away alike but belongs to the record, so only questions are read here.
"""

from __future__ import annotations

from dataclasses import replace

from brain.chain import speech_act
from brain.conversation.follow_up import read_follow_up, refers_back
from brain.conversation.thread import ThreadBrain
from core.records import Message
from core.stores.records import ConversationState


def asks_off_the_record(brain: ThreadBrain, message: Message, state: ConversationState) -> bool:
    """An unsure message that asks a question (the speech-act model's likeliest act) which the
    chain turns away as outside every controller's work ("what's the weather like tomorrow?"
    after a release is filed), and that neither asks how the record stands nor refers back:
    about nothing on record, it is answered afresh, not with the record's state or as the
    value the bot asked for. A statement the chain turns away alike ("I'm working from home
    today") is context for the record and goes on."""
    text = message.text
    if speech_act.read(text).act != "question" or refers_back(text):
        return False
    reading = read_follow_up(text, state)
    if reading is not None and reading.kind == "status":
        return False
    return brain.turns_away(replace(message, new_topic=True))
