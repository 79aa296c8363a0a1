"""A turn in a thread that holds a record, decided by the continuation model
(`brain.continuation.model`): it continues the record (an answer fills the field the bot asked
for, a status question is answered with the record's state, a thank-you closes the exchange,
anything else goes on the record as a comment), starts something new (decided afresh, with
nothing inherited from the record), or, when the model is unsure, the bot asks which in the
asker's language ("Is this about INC-000001, or something new?") and files nothing until told.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from brain.chain import social, speech_act
from brain.chain.understand import REFERRING
from brain.continuation.model import CONTINUE_AT, KINDS, Reading, Thread
from brain.conversation.follow_up import (
    FollowUp,
    acts_on_a_named_ticket,
    agreements,
    answer_of,
    conflicts,
    follow_up_decision,
    named_value,
    read_follow_up,
    refers_back,
    says_dont_know,
    shares_a_term,
)
from brain.conversation.judging import Judgement, judge
from brain.conversation.off_topic import asks_off_the_record
from brain.conversation.thread import (
    ThreadBrain,
    apply,
    gives_asked,
    inferred_fields,
    recognised,
)
from brain.conversation.wording import READING_WORDS_ZH, Why, because
from brain.intent.split import split_requests
from brain.intent.urgency import handoff_signal
from controllers import thread_replies as said
from controllers.ids import find_ticket_ids
from controllers.ticket_search import search_topic
from controllers.verification import specific_terms
from core.cues import cues
from core.records import Decision, Message
from core.stores.records import ConversationState
from core.text.language import is_chinese, shows_language, turn_is_chinese
from core.wording import wording

log = logging.getLogger(__name__)

#: The fields a reply may name on a record without being asked ("the service is X").
RECORD_FIELDS = ("category", "system", "service", "window", "account")
#: An unsure reading at or above this leans to the record: with the chain unable to place the
#: message on its own, it continues the record. On the continuation set's generated held-out
#: split, such messages were 18 follow-ups to 2 new requests (0.6% of its 348 new requests);
#: below it 13 to 10, so those are still asked about, unless the chain gives the message to
#: another controller than the record's: then it leans new on two readings, and is new work.
LEANS_ON_RECORD = 0.5
#: How much of the thread's last answered message a follow-up in a thread without a record is
#: joined to (its last characters: an earlier join is already in it).
SUBJECT_CHARS = 1500
#: The fields that name what a record is about: another value in one is another thing.
OBJECT_FIELDS = ("system", "service", "item")
#: The choices of "is this about the thread's record, or something new?".
ON_RECORD = "__thread__"
SOMETHING_NEW = "__new__"


def continue_on(
    brain: ThreadBrain, message: Message, state: ConversationState, judged: Judgement
) -> Decision:
    """The message applied to the thread's record as the model reads it: an answer fills the
    field asked for, a closing acknowledges ("不知道" is none), the rest is a comment."""
    store = brain.services.tickets
    assert store is not None
    ticket, reading = judged.ticket, judged.reading
    why = because("threads_record", reading=read_as(reading))
    record, controller, text = ticket.id, judged.controller, message.text
    question = state.open_question
    follow_up: FollowUp | None = None
    if judged.asked and question is not None:
        # Read as the answer it may be: the user's own words fill an open field when the
        # model reads an answer; otherwise only what the controller recognises in it does
        # ("the wifi I guess" -> network; "my manager approved it" fills nothing).
        answer = answer_of(text, question)
        if answer is not None:
            answer = recognised(brain, answer, state, evidence_only=reading.kind != "answer")
            follow_up = answer if answer.fields else None
    if follow_up is None and reading.kind == "closing" and not says_dont_know(text):
        follow_up = FollowUp("closing", record, controller, why, text)
        decision = follow_up_decision(
            message,
            follow_up,
            summary=said.closing(
                ticket, turn_is_chinese(text, message.history), thanked=_thanks(text)
            ),
            ok=True,
            dry_run=None,
            ticket=ticket,
        )
        decision.tier_path.append(f"thread: {why}")
        brain.log_turn(decision)
        return decision
    if follow_up is None:
        named = named_value(text, judged.asked or list(RECORD_FIELDS))
        if named is not None and (named[0] in ticket.fields or named[0] in judged.asked):
            follow_up = FollowUp("update", record, controller, why, text, dict([named]))
        elif reading.kind == "status" and not find_ticket_ids(text):
            follow_up = FollowUp("status", record, controller, why, text)
        elif reading.kind == "question" and not find_ticket_ids(text):
            follow_up = FollowUp("question", record, controller, why, text)
        else:
            follow_up = FollowUp(
                "update", record, controller, why, text, lenient=True, solved=reading.solved
            )
    if reading.describe() not in follow_up.why.english:  # an answer's reading says why
        follow_up = replace(follow_up, why=follow_up.why.then(read_as(reading)))
    if follow_up.fields and follow_up.kind != "answer":
        follow_up = recognised(brain, follow_up, state)
    decision = apply(brain, store, ticket, message, follow_up, asked=judged.asked, state=state)
    decision.tier_path.append(f"thread: {why}")
    brain.log_turn(decision)
    return decision


def read_as(reading: Reading) -> Why:
    """The continuation model's reading as a reason in both languages (`Reading.describe`'s
    English; its classes in Chinese for a Chinese thread's rationale line)."""
    shown = (
        wording("zh")
        .say("common.value_separator")
        .join(f"{READING_WORDS_ZH.get(k, k)} {p:.2f}" for k, p in reading.probabilities.items())
    )
    chinese = because("continuation_reading", p=f"{reading.continues:.2f}", shown=shown).chinese
    return Why(reading.describe(), chinese)


def _thanks(text: str) -> bool:
    """Whether a closing turn thanks (answered "you're welcome") rather than only acknowledges
    or says goodbye ("ok", "got it", "see ya"): the social-act model's reading, thanks when
    it cannot read the message."""
    reading = social.read(text)
    return reading is None or reading.act == "thanks"


def ask_back(brain: ThreadBrain, message: Message, judged: Judgement) -> Decision:
    """Unsure whether the message is about the thread's record: ask, in the asker's language,
    instead of filing a second record or adding to the wrong one (a logged clarification whose
    choices are the record and something new)."""
    ticket = judged.ticket
    zh = turn_is_chinese(message.text, message.history)
    why = because("unsure_which_record", record=ticket.id, reading=read_as(judged.reading))
    follow_up = FollowUp("ask", ticket.id, judged.controller, why, message.text)
    decision = follow_up_decision(
        message,
        follow_up,
        summary=said.which_record(ticket, zh),
        ok=False,
        dry_run=None,
        ticket=ticket,
    )
    decision.outcome = "clarify"
    decision.controller = None
    decision.confidence = judged.reading.continues
    decision.clarification = said.which_record(ticket, zh)
    assert decision.result is not None
    decision.result.data["choices"] = [
        [ON_RECORD, ticket.id],
        [SOMETHING_NEW, said.something_new(zh)],
    ]
    decision.request_type = "reference"
    brain.log_turn(decision)
    return decision


def turn(
    brain: ThreadBrain,
    message: Message,
    state: ConversationState,
    judged: Judgement,
    fresh: Callable[[Message], Decision],
) -> Decision | None:
    """The judged message continued on the record, decided afresh (`fresh`, on a message that
    inherits nothing from the record) or asked about. When the model is unsure, the thread's
    own reading breaks the tie if it plainly follows the record, and so does the chain when it
    cannot place a message that leans to the record on its own (a fragment is context, not new
    work). A sure request for work that names another object than the record's is new work
    (`names_other_work`); one that names none of its own ("for cost reporting, finance asked
    me to do it": a reason) is not new for that alone. None for a request for a person or to
    escalate: the chain's escalation takes it, whatever record it is about. A search of the
    asker's tickets by topic ("show me my tickets about the fan") is about all their records,
    not this one: it is decided afresh. A message read as new that names a field of the
    record with a value the record's controller reads ("my user id is wang.fei-7" after a
    password reset), and that the chain reading it alone cannot place, completes the record:
    decided afresh it only fell back."""
    if handoff_signal(message.text) is not None:  # a person asked for, or escalation
        return None
    if search_topic(message.text) is not None or acts_on_a_named_ticket(message.text):
        return fresh(replace(message, new_topic=True))
    verdict = judged.verdict
    if (verdict != "new" and names_other_work(brain, message, state, judged)) or (
        verdict == "ask" and asks_off_the_record(brain, message, state)
    ):
        verdict = "new"  # work of its own, or a question about nothing on record
    elif (verdict != "continue" and every_sentence_continues(brain, message, state)) or (
        verdict == "ask"
        and (
            plainly_follows(message.text, state)
            or answers_the_question(brain, message, state, judged)
            or names_a_field(brain, message, state, judged)
        )
    ):
        verdict = "continue"
    elif verdict == "ask":
        placed = brain.places(replace(message, new_topic=True))
        if judged.reading.continues >= LEANS_ON_RECORD and placed in (None, judged.controller):
            # No reading of it as work of its own (context for the record), or the record's
            # own kind of work: what the model leans to, the chain does not contradict.
            verdict = "continue"
        elif judged.reading.continues < LEANS_ON_RECORD and placed not in (
            None,
            "",
            judged.controller,
        ):
            verdict = "new"  # leans new, and the chain gives it to another controller
        elif placed == judged.controller and restates_the_record(brain, message, state, judged):
            verdict = "continue"
    elif verdict == "new" and brain.places(replace(message, new_topic=True)) is None:
        # The chain alone cannot place it either: a value for the record that no controller
        # takes as work goes on it; a report that no controller turns away either is asked
        # about as this record or new work (decided afresh it was asked "which controller?",
        # and the answer filed a second record). A question is answered afresh.
        if names_a_field(brain, message, state, judged):
            verdict = "continue"
        elif speech_act.read(message.text).act != "question" and not brain.turns_away(
            replace(message, new_topic=True)
        ):
            verdict = "ask"
    if verdict == "continue":
        return continue_on(brain, message, state, judged)
    if verdict == "ask":
        return ask_back(brain, message, judged)
    return fresh(replace(message, new_topic=True))


def every_sentence_continues(
    brain: ThreadBrain, message: Message, state: ConversationState
) -> bool:
    """A message of several sentences each of which, read alone against the thread's record,
    surely goes on with it: "is there any workaround meanwhile? I have a client call at 3"
    after an Outlook password loop read new whole (0.07), its sentences 0.94 and 0.89. The
    model learned its two-sentence messages from new requests with a reason; a question and
    the reason it is pressing are no new request."""
    pieces = split_requests(message.text)
    if len(pieces) < 2:
        return False
    for piece in pieces:
        alone = judge(brain, replace(message, text=piece), state)
        if alone is None or alone.reading.continues < CONTINUE_AT:
            return False
    return True


def answer_which(
    brain: ThreadBrain,
    asked: Decision,
    value: str,
    state: ConversationState,
    fresh: Callable[[Message], Decision],
) -> Decision:
    """The answer to `ask_back`: the asked message goes onto the thread's record (`ON_RECORD`)
    or is decided as a new request (`SOMETHING_NEW`)."""
    message = Message(asked.text, asked.user, asked.channel, thread=asked.thread, team=asked.team)
    judged = judge(brain, message, state) if value == ON_RECORD else None
    if judged is not None:
        return continue_on(brain, message, state, judged)
    return fresh(replace(message, new_topic=True))


def joined_to_subject(brain: ThreadBrain, message: Message, state: ConversationState) -> Message:
    """A message in a thread whose exchange filed nothing (an alert diagnosed, a question
    answered, code explained), or whose last exchange came after its records and touched none
    of them (then the joined message inherits nothing from the records), that goes on with it
    is decided with the message that opened it: "重启以后降到了 60%" after "订单服务
    order-svc 报警，CPU 99%" is that alert's news, and "what about with timezones?" that
    coding question's; alone, each lost its subject and was asked about or told to paste an
    alert. The continuation model reads the message against the thread's last answered
    message as against a record; one it reads as new work, a person asked for, or a search of
    the asker's tickets is left as it is, one that closes the exchange ("thanks, that worked")
    inherits no ongoing work (it is answered in kind, not taken for more of the coding
    question), and an unsure one is joined only when the chain, reading it alone, could not
    place it. A message in another language than the thread's opening stands alone: joined,
    it would be answered in the opening's language."""
    if state.pending or not state.last_decision or message.new_topic:
        return message
    if handoff_signal(message.text) is not None or search_topic(message.text) is not None:
        return message
    try:
        last = brain.get_decision(state.last_decision)
    except Exception:  # an unknown or unreadable decision: the message stands alone
        return message
    if last.outcome != "routed" or not last.controller or not last.text.strip():
        return message
    if state.records and not _after_the_records(last):
        return message
    subject = last.text[-SUBJECT_CHARS:]
    if shows_language(message.text) and is_chinese(message.text) != is_chinese(subject):
        return message  # joined, the reply would be in the subject's language, not the asker's
    kind = last.controller if last.controller in KINDS else "other"
    reading = brain.read_continuation(Thread(message=message.text, record=subject, kind=kind))
    if reading is None or reading.verdict == "new":
        return message
    if state.records and _record_as_likely(brain, message, state, reading):
        return message  # it goes on with the record at least as surely: the record takes it
    if reading.kind == "closing":  # "thanks, that worked": no work goes on
        return replace(message, new_topic=True) if reading.verdict == "continue" else message
    if reading.verdict == "ask" and brain.places(replace(message, new_topic=True)) is not None:
        return message
    joined = replace(message, text=f"{subject}\n{message.text}")
    return replace(joined, new_topic=True) if state.records else joined


def _record_as_likely(
    brain: ThreadBrain, message: Message, state: ConversationState, reading: Reading
) -> bool:
    """The message goes on with the thread's record at least as surely as with the exchange
    after it, as work on it (an update or an answer): "did that, still dropping" after a
    question about the recorded VPN problem is news of the record. A question or a status
    fragment that fits both ("and on my phone?" after a Wi-Fi question) follows the newest
    exchange, and "扩容之后降到 65% 了" after an alert does not go on a Visio licence request."""
    on_record = judge(brain, message, state)
    if on_record is None or on_record.reading.kind not in ("update", "answer"):
        return False
    return on_record.reading.continues >= reading.continues


def _after_the_records(last: Decision) -> bool:
    """The thread's last exchange came after its records and touched none of them (an alert
    diagnosed, a question answered, in a DM or `brain chat` session that filed something
    earlier): the message that follows goes on with that exchange, not with the older record
    ("扩容之后降到 65% 了" after an alert was added to an earlier Visio licence request)."""
    on_a_record = last.request_type in ("update", "reference")
    return not on_a_record and last.result is not None and not last.result.tickets()


def plainly_follows(text: str, state: ConversationState) -> bool:
    """The thread's own reading of an unsure message: it answers the bot's question, asks how
    the record stands or refers back to it ("it's stuck again", "还是不行"). A short report
    alone ("my monitor is not detected") is no such evidence: it may be a new problem."""
    reading = read_follow_up(text, state)
    return reading is not None and (reading.kind in ("answer", "status") or refers_back(text))


def restates_the_record(
    brain: ThreadBrain, message: Message, state: ConversationState, judged: Judgement
) -> bool:
    """The thread's reading of an unsure message the chain alone gives to the record's own
    controller: it says the thing goes on ("again", "still", "还是", `REFERRING`), the
    controller reads in it what the record holds (the same category, system or service,
    nothing that differs) and it shares a specific word with the record. "The VPN dropped
    again during my call with a client, third time today" after "VPN keeps disconnecting when
    I work from home" tells the record's problem again in full (it was asked about: "this, or
    something new?"); a second problem of the same kind ("the printer on 5F prints only blank
    pages" after the 3F printer's jams) says nothing goes on, and is still asked about."""
    if not REFERRING.search(message.text):
        return False
    ticket = judged.ticket
    inferred = inferred_fields(brain, judged.controller, message.text, state.key)
    return (
        not conflicts(inferred, ticket)
        and bool(agreements(inferred, ticket))
        and shares_a_term(message.text, ticket)
    )


def names_other_work(
    brain: ThreadBrain, message: Message, state: ConversationState, judged: Judgement
) -> bool:
    """The speech-act model is sure the message asks for work, and the record's controller
    reads in it another object than the record's: a system, service or item sharing no word
    with the record's ("I need access to Figma too" after a Visio licence request, "另外还需要
    Confluence 的权限" after Jira's). However sure the continuation model is that it goes on
    (the request's words are the record's), it is a request of its own; a request the
    speech-act model is unsure of ("also deploy billing-api on the same window") is not read
    here. A value that shares a word
    with the record's narrows it ("仓库是 payments/core，需要developer权限" after
    "GitLab的仓库")."""
    reading = speech_act.read(message.text)
    if not (reading.sure and reading.act == "work"):
        return False
    inferred = inferred_fields(brain, judged.controller, message.text, state.key)
    other = [name for name in conflicts(inferred, judged.ticket) if name in OBJECT_FIELDS]
    said = specific_terms(message.text)
    return bool(other) and not any(
        specific_terms(str(judged.ticket.fields[name])) & said for name in other
    )


def answers_the_question(
    brain: ThreadBrain, message: Message, state: ConversationState, judged: Judgement
) -> bool:
    """The thread's third reading of an unsure message: the model reads it likeliest as an
    answer and the record's controller reads in it a value of a field the bot asked for, so
    it is that answer ("窗口就周六上午 9 点到 10 点吧" after "still need: window", whose lead
    the model had seen in few answers)."""
    return (
        bool(judged.asked)
        and judged.reading.kind == "answer"
        and gives_asked(brain, judged.controller, message.text, judged.asked, state.key)
    )


def names_a_field(
    brain: ThreadBrain, message: Message, state: ConversationState, judged: Judgement
) -> bool:
    """The thread's fourth reading of an unsure message: it names a field of the record, or
    one the bot asked for, with a value ("service is billing-api", "类别是打印机"), and the
    record's controller reads that field in it too: a correction or completion of the record,
    not new work."""
    fields = [*judged.asked, *(f for f in RECORD_FIELDS if f in judged.ticket.fields)]
    named = named_value(message.text, fields) if fields else None
    return named is not None and gives_asked(
        brain, judged.controller, message.text, [named[0]], state.key
    )


def asks_which_record(decision: Decision) -> bool:
    """An `ask_back` clarification (its choices are the record and something new)."""
    result = decision.result
    return decision.outcome == "clarify" and result is not None and "choices" in result.data


#: Words that pick "the thread's record" or "something new" when the bot asked which.
#: Marks a picked choice may end with ("yes.", "是的！").
CHOICE_END_MARKS = cues(__name__).regex("choice_end_marks")
CHOICE_WORDS = {
    ON_RECORD: frozenset(cues(__name__).words("on_record")),
    SOMETHING_NEW: frozenset(cues(__name__).words("something_new")),
}
