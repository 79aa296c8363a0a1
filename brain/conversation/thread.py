"""What a thread's state does to a turn: follow-ups applied to the thread's record, no
duplicate filed beside it, and the state kept up to date after every decision.

The record work is done on the ticket store the controllers use (`ControllerServices.tickets`),
the answer checked by the record controller's dry-run, and each follow-up is a logged decision
(`brain.conversation.follow_up`), explained by `brain why` like any other.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from brain.continuation.model import Reading, Thread
from brain.conversation import asking
from brain.conversation.follow_up import (
    FollowUp,
    acts_on_a_named_ticket,
    follow_up_decision,
    read_follow_up,
    resolved,
    same_topic,
)
from brain.conversation.revision import revised
from brain.conversation.withdrawing import open_records_of
from brain.conversation.wording import because
from controllers import answering, slots
from controllers import thread_replies as said
from controllers import ticket_replies as say
from controllers.record_actions import withdraws
from controllers.tickets import TicketError
from core.records import Decision, DryRunRecord, Message
from core.stores.records import ConversationState, OpenQuestion
from core.text.language import turn_is_chinese

if TYPE_CHECKING:
    from controllers.base import Controller, ControllerServices
    from controllers.tickets import Ticket, TicketStore

log = logging.getLogger(__name__)


class ControllersByName(Protocol):
    """The part of the controller registry the surfaces use: the controllers, by name."""

    def all(self) -> Sequence[Controller]: ...

    def get(self, name: str) -> Controller:
        """The controller called `name`; raises KeyError when none is."""
        ...


class ThreadBrain(Protocol):
    """The part of the brain the thread logic uses."""

    @property
    def registry(self) -> ControllersByName: ...

    @property
    def services(self) -> ControllerServices: ...

    def log_turn(self, decision: Decision) -> None: ...

    def get_decision(self, decision_id: str) -> Decision:
        """A logged decision; raises core.errors.UnknownDecision."""
        ...

    def read_continuation(self, thread: Thread) -> Reading | None: ...

    def places(self, message: Message) -> str | None:
        """Where the chain routes the message on its own (`brain.engine.Brain.places`)."""
        ...

    def turns_away(self, message: Message) -> bool:
        """Whether the chain turns the message away as outside every controller's work."""
        ...


def follow(brain: ThreadBrain, message: Message, state: ConversationState) -> Decision | None:
    """The turn read and applied as a follow-up on the thread's record, or None."""
    store = brain.services.tickets
    if store is None or message.new_topic or (not state.records and state.open_question is None):
        return None
    if acts_on_a_named_ticket(message.text):
        return None  # the ticket controller acts on the ticket named, with its rights
    reading = read_follow_up(message.text, state)
    if reading is None:
        return None
    try:
        ticket = store.get(reading.record)
    except Exception as exc:  # the store is down: route the message as usual
        log.warning("thread record %s unreadable: %s", reading.record, exc)
        return None
    if ticket is None or (reading.kind == "update" and not _fits(brain, reading, ticket, state)):
        return None
    if reading.fields:
        reading = recognised(brain, reading, state)
    question = state.open_question
    asked = question.parameters if question and question.record == ticket.id else []
    decision = apply(brain, store, ticket, message, reading, asked=asked, state=state)
    brain.log_turn(decision)
    return decision


def _fits(brain: ThreadBrain, reading: FollowUp, ticket: Ticket, state: ConversationState) -> bool:
    """An update belongs on the record: on its topic, and a field it names is one the record
    has or was asked for."""
    inferred = inferred_fields(brain, reading.controller, reading.text, state.key)
    if not same_topic(reading.text, ticket, inferred, lenient=reading.lenient):
        return False
    asked = state.open_question.parameters if state.open_question else []
    return all(name in ticket.fields or name in asked for name in reading.fields)


#: Fields a reply that was not asked for them sets only with what the record's controller reads
#: in it: the account a request is for ("账号是 zhangwei01"), never a reply's other words.
EVIDENCE_ONLY = frozenset({"account"})


def recognised(
    brain: ThreadBrain, reading: FollowUp, state: ConversationState, *, evidence_only: bool = False
) -> FollowUp:
    """The values a reply gives, as evidence allows: a closed field (the incident category)
    takes only one of its values, the one the record's controller recognises in the reply
    ("network" of "the wifi I guess") or the reply itself when it is one, else nothing (the
    reply stays a comment and the field is asked again); an open one takes what the controller
    recognises when the rest of the reply is filler ("Tableau" of "it's the Tableau one"),
    else the reply's own words ("明晚十点" stays whole though only "明晚" is recognised); with
    `evidence_only` (the reply was not read as an answer) an open field takes only what the
    controller recognises."""
    from controllers.base import closed_values

    try:
        controller = brain.registry.get(reading.controller)
    except Exception:
        return reading
    inferred = inferred_fields(brain, reading.controller, reading.text, state.key)
    question = state.open_question
    asked = list(question.parameters) if question and question.record == reading.record else []
    fields: dict[str, str] = {}
    for name, answered in aimed(reading.fields, inferred, asked).items():
        value = inferred.get(name) or ""
        closed = closed_values(controller, name)
        if closed:
            said = next((v for v in closed if v.lower() == answered.strip().lower()), "")
            if value in closed or said:
                fields[name] = value if value in closed else said
            continue
        if evidence_only or (name in EVIDENCE_ONLY and name not in asked):
            # Not an answer (or a field only evidence sets): only the value recognised in it,
            # never its other words ("Docker" of "it's for installing docker desktop", not the
            # whole purpose; no account of "my account is locked again").
            if value.strip():
                fields[name] = value
            continue
        at = answered.lower().find(value.lower()) if value.strip() else -1
        narrows = at >= 0 and slots.named(answered[:at] + " " + answered[at + len(value) :]) is None
        fields[name] = value if narrows else answered
    return replace(reading, fields=fields)


def aimed(fields: dict[str, str], inferred: dict[str, str], asked: Sequence[str]) -> dict[str, str]:
    """A reply to a question for several fields is read as the first of them ("still need:
    service, window" and "we'd prefer Thursday 20:00-21:00" gave the service "we'd prefer
    Thursday…"): where the controller reads nothing of that field in the reply but reads
    another field asked for and not given (a window), the reply answers that one."""
    out: dict[str, str] = {}
    for name, answered in fields.items():
        if name in asked and not inferred.get(name, "").strip():
            other = [a for a in asked if a not in fields and a not in out and inferred.get(a)]
            name = other[0] if other else name
        out[name] = answered
    return out


def apply(
    brain: ThreadBrain,
    store: TicketStore,
    ticket: Ticket,
    message: Message,
    reading: FollowUp,
    *,
    asked: Sequence[str] = (),
    state: ConversationState | None = None,
) -> Decision:
    """The reading applied to the record; what is still missing after it (the controller's
    dry-run, and what the bot asked for that neither the record nor the reply holds: a change
    asked for its service and window still needs the window once the service is answered)
    stays asked, in other words when the reply gave none of it, and no more once it has been
    asked twice in a row (`conversation.asking`; `state`: the thread's, for how often)."""
    zh = turn_is_chinese(message.text, message.history)
    session = state.key if state is not None else message.thread or ""
    revision = revised(
        reading,
        ticket.fields,
        lambda: inferred_fields(brain, reading.controller, reading.text, session),
    )
    reading = revision or reading
    if reading.kind == "status":
        return follow_up_decision(
            message,
            reading,
            summary=say.ticket_done(
                "status", ticket, zh, promise=store.answer_promise(ticket), now=store.clock()
            ),
            ok=True,
            dry_run=None,
            ticket=ticket,
        )
    if reading.kind == "question":
        return _question_on(brain, store, ticket, message, reading, zh)
    takes_back = withdraws(message.text)
    choices = (
        open_records_of(store, state, message.user, message.text)
        if state is not None and ticket.is_open and takes_back
        else []
    )
    if choices:  # "cancel it" with two of the requester's records open here: ask which
        summary = said.which_to_withdraw(choices, zh)
        return follow_up_decision(
            message, reading, summary=summary, ok=True, dry_run=None, ticket=ticket
        )
    check = _dry_run(brain, ticket, message, reading)
    fields = reading.fields
    wanted = [*(check.missing if check else []), *asked]
    missing = [n for n in dict.fromkeys(wanted) if n not in fields and not _holds(ticket, n)]
    times = asking.times_asked(state, brain.get_decision) if state is not None else 0
    repeat = times > 0 and asking.unanswered(missing, asked, fields)
    lacking, ahead = (
        asking.again(ticket.id, missing, message.text, zh, times=times) if repeat else ("", False)
    )
    try:
        store.comment(ticket.id, author=message.user, text=message.text[:4000])
        reopened = False
        if fields or reading.kind == "answer":
            status = "awaiting_info" if missing else ("open" if ticket.is_open else None)
            ticket = store.update_fields(ticket.id, by=message.user, fields=fields, status=status)
        elif ahead and ticket.status == "awaiting_info":  # no longer waiting on the asker
            ticket = store.update_fields(ticket.id, by=message.user, fields={}, status="open")
        # The requester may end the work here, and the record stays reopenable by a later
        # reply: taking the request back closes it, as "close INC-…" closes a named ticket;
        # saying the problem is gone resolves it.
        ended = ""
        by_requester = message.user == ticket.requester
        if ticket.is_open and by_requester and takes_back:
            ticket = store.close(ticket.id, by=message.user, reason=message.text[:200])
            ended = said.withdrawn_by_requester(ticket.id, zh)
        elif not ticket.is_open and not resolved(message.text) and not reading.solved:
            ticket = store.reopen(ticket.id, by=message.user, reason=message.text[:200])
            reopened = True
        elif ticket.is_open and reading.solved and not missing and by_requester:
            ticket = store.resolve(ticket.id, by=message.user)
            ended = said.solved_by_requester(ticket.id, zh)
        if ended:
            return follow_up_decision(
                message, reading, summary=ended, ok=True, dry_run=check, ticket=ticket
            )
    except TicketError as exc:
        summary = say.not_updated(ticket.kind, ticket.id, exc, zh)
        return follow_up_decision(
            message, reading, summary=summary, ok=False, dry_run=check, ticket=None
        )
    summary = say.added_to(ticket.id, fields, zh, reopened=reopened, changed=revision is not None)
    if missing:
        summary += lacking or say.still_needed(missing, zh)
        summary += "" if ahead else _choices(brain, reading.controller, missing, zh)
    decision = follow_up_decision(
        message,
        reading,
        summary=summary,
        ok=True,
        dry_run=check,
        ticket=ticket,
        missing=[] if ahead else missing,
    )
    if repeat and not ahead and decision.result is not None:
        decision.result.data[asking.ASKED_AGAIN] = times
    return decision


def _question_on(
    brain: ThreadBrain,
    store: TicketStore,
    ticket: Ticket,
    message: Message,
    reading: FollowUp,
    zh: bool,
) -> Decision:
    """A question about the record that names no subject of its own ("what should I try
    next?", "有什么临时办法吗"): alone it could be placed nowhere, so it is answered from the
    knowledge base on the record's subject (passages found with the question and the record's
    description, and verified against the description: the question lends them no subject;
    a passage about the record that the description cannot judge is judged on the question with
    the record's kind, "how long does that take?" on an access request), or honestly not;
    either way it goes on the record as a comment, so the people working on it see what the
    asker still wants to know."""
    try:
        store.comment(ticket.id, author=message.user, text=message.text[:4000])
    except TicketError as exc:
        summary = say.not_updated(ticket.kind, ticket.id, exc, zh)
        return follow_up_decision(
            message, reading, summary=summary, ok=False, dry_run=None, ticket=None
        )
    subject = str(ticket.fields.get("description") or ticket.title)
    services = brain.services
    # The record's own controller's pages first (a change's approvers are the change policy's,
    # not the access policy's), the whole knowledge base when they hold nothing relevant.
    found_in = answering.gather(
        services.knowledge, f"{message.text}\n{subject}", domain=reading.controller or None
    )
    evidence = answering.led_by(found_in, message.text, say.kind_label(ticket.kind, zh))
    found = answering.answer(subject, evidence, services.llm)
    answer = found.summary if found.ok else ""
    decision = follow_up_decision(
        message,
        reading,
        summary=said.question_on(ticket.id, answer, zh),
        ok=found.ok,
        dry_run=None,
        ticket=ticket,
    )
    assert decision.result is not None
    decision.result.citations = list(found.citations)
    decision.result.details = found.details
    decision.result.data.update(
        {k: v for k, v in found.data.items() if k in ("verification", "retrieval")}
    )
    return decision


def _choices(brain: ThreadBrain, name: str, missing: Sequence[str], zh: bool) -> str:
    """The values a missing closed field may take, so a free-text answer that was not one
    is followed by the ones that are."""
    from controllers.base import closed_values

    try:
        controller = brain.registry.get(name)
    except Exception:
        return ""
    return "".join(say.one_of(n, closed_values(controller, n), zh) for n in missing)


def _holds(ticket: Ticket, name: str) -> bool:
    value = ticket.fields.get(name)
    return isinstance(value, str) and bool(value.strip())


def _dry_run(
    brain: ThreadBrain, ticket: Ticket, message: Message, reading: FollowUp
) -> DryRunRecord | None:
    """The record controller's dry-run on the record's fields plus the answer: what it still
    lacks (None when the controller is unknown)."""
    from controllers.base import ControllerContext

    try:
        controller = brain.registry.get(reading.controller)
    except Exception:
        return None
    known = {k: v for k, v in ticket.fields.items() if isinstance(v, str) and v.strip()}
    entities = {k: [v] for k, v in {**known, **reading.fields}.items()}
    context = ControllerContext(
        text=str(ticket.fields.get("description") or ticket.title),
        user=message.user,
        channel=message.channel,
        thread=message.thread,
        decision_id="",
        intent="follow_up",
        urgency=str(ticket.fields.get("urgency") or "low"),
        entities=entities,
        services=brain.services,
        parameters=dict(reading.fields),
        team=message.team,
    )
    try:
        result = controller.dry_run(context)
    except Exception as exc:
        return DryRunRecord(reading.controller, False, f"dry-run error: {exc}")
    return DryRunRecord(reading.controller, bool(result.ok), result.reason, list(result.missing))


def gives_asked(
    brain: ThreadBrain, controller: str, text: str, asked: Sequence[str], session: str
) -> bool:
    """Does the record's controller read, in the message alone, a value of a field the bot
    asked for (a window in "窗口就周六上午 9 点到 10 点吧" after "still need: window")?"""
    inferred = inferred_fields(brain, controller, text, session)
    return any(inferred.get(name, "").strip() for name in asked)


def inferred_fields(brain: ThreadBrain, name: str, text: str, session: str) -> dict[str, str]:
    """What the record's controller reads from the message alone (its category, system...):
    evidence only, so a value it reads from no text at all (a default such as operation
    "change" or request type "permission") is left out and never contradicts the record."""
    from controllers.base import ControllerContext, record_fields

    try:
        controller = brain.registry.get(name)
    except Exception:
        return {}
    context = ControllerContext(
        text=text,
        user="",
        channel="",
        thread=session,
        decision_id="",
        intent="follow_up",
        urgency="low",
        entities={},
        services=brain.services,
    )
    fields = record_fields(controller, context)
    defaults = record_fields(controller, replace(context, text=""))
    return {k: v for k, v in fields.items() if k != "description" and defaults.get(k) != v}


def duplicate_of(decision: Decision, state: ConversationState, filers: frozenset[str]) -> str:
    """The thread's open record a fresh decision would file a second one beside ("" when
    none): the same filing controller as a record the thread is about."""
    if decision.outcome != "routed" or decision.controller not in filers:
        return ""
    for record in reversed(state.records):
        if state.record_controllers.get(record) == decision.controller:
            return record
    return ""


def as_update(
    brain: ThreadBrain, decision: Decision, message: Message, record: str
) -> Decision | None:
    """A fresh decision that would file beside the thread's `record`: that record takes the
    message instead (the decision is updated to say so); None when the record is gone."""
    store = brain.services.tickets
    ticket = None
    try:
        ticket = store.get(record) if store is not None else None
    except Exception:
        ticket = None
    if store is None or ticket is None or not ticket.is_open:
        return None
    inferred = inferred_fields(brain, str(decision.controller), message.text, message.session_key)
    if not same_topic(message.text, ticket, inferred, lenient=True):
        return None
    why = because("thread_is_about", record=record)
    reading = FollowUp("update", record, str(decision.controller), why, message.text)
    applied = apply(brain, store, ticket, message, reading)
    decision.result = applied.result
    decision.request_type = "update"
    decision.tier_path.append(f"thread: {record} takes this report; no second ticket filed")
    return decision


def record_origin(brain: ThreadBrain, decision: Decision) -> str | None:
    """The decision that filed the record a follow-up turn went onto (None for a decision
    that is no follow-up, or whose record is gone or was filed elsewhere)."""
    result = decision.result
    if result is None or "follow_up" not in result.data or decision.intent.intent != "follow_up":
        return None
    store = brain.services.tickets
    records = decision.entities.get("ticket_id") or []
    try:
        ticket = store.get(records[0]) if store is not None and records else None
    except Exception:  # the store is down: the turn itself is rerouted
        return None
    origin = ticket.fields.get("decision_id") if ticket is not None else None
    return str(origin) if origin and origin != decision.decision_id else None


def remember(state: ConversationState, decision: Decision, filers: frozenset[str]) -> None:
    """After a decision: the records it filed, updated or looked up (each held by the
    controller that files its kind, when one does), and its open question. A decision that
    touched no record (a question answered, one turned away) leaves the thread's question
    waiting: "who won the football last night?" does not make the bot forget it still needs
    the change's service."""
    result = decision.result
    state.last_decision = decision.decision_id
    if result is None:
        return
    touched = False
    for part, ticket in result.tickets():
        kind = str(ticket.get("kind") or "")
        owner = kind if kind in filers else str(part.controller or decision.controller)
        state.remember(str(ticket["id"]), owner)
        touched = True
    record = state.records[-1] if state.records else None
    owner = decision.controller or result.controller  # a person's pick: the result's
    if result.missing and owner:
        state.open_question = OpenQuestion(
            parameters=list(result.missing),
            controller=state.record_controllers.get(record or "", owner),
            record=record,
            decision_id=decision.decision_id,
            text=decision.text,
        )
    elif touched or decision.request_type == "update":
        state.open_question = None
