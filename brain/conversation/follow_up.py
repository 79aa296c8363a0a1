"""A reply in a thread is first read against the thread's state, and only then routed afresh.

Two readings, in order:

- an **answer** to the bot's open question: "it's for Jira" after "still needs: system", "the
  category is printer", "类别是打印机". The value fills the waiting record's parameter, checked
  by the controller's dry-run on the record's fields plus the answer;
- an **update** of the thread's record: a short message that refers back ("it's stuck again",
  "还是不行", "still broken", "works now") goes onto the record as a comment (a closed record
  reopens when it is not fixed after all).

Either way the turn is a logged decision of request type `update`, whose result says what it
did ("I added the category printer to INC-000001"), in the asker's language; nothing is filed.
A self-contained message on a new topic is neither and is routed as usual.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from brain.chain.request_type import question_form, reports_problem, work_form
from brain.chain.understand import REFERRING, new_decision_id
from brain.conversation.wording import Why, because
from controllers import ticket_replies as say
from controllers.ids import find_ticket_ids
from controllers.record_actions import detect_action
from controllers.verification import specific_terms
from core.cues import cues
from core.records import Decision, DryRunRecord, ExecutionResult, IntentResult, Message
from core.stores.records import ConversationState, OpenQuestion
from core.text.language import QUESTION_MARKS, is_chinese, turn_is_chinese
from core.wording import wording_for

if TYPE_CHECKING:
    from controllers.tickets import Ticket

#: An answer this short (words; two CJK characters count one) may be a bare value ("Jira").
SHORT_ANSWER = 6
#: An update this short may refer back without naming the record ("还是不行").
SHORT_UPDATE = 8
_LEAD = re.compile(
    r"^(?:(?:it'?s|it is|its|this is|that'?s|that is|for|the|a|an|on|in|about|to|with|"
    r"we use|i use|i mean|in the|let'?s (?:do|say|go with|make it)|how about|ideally|maybe|"
    r"(?:plan|schedule|book) (?:it )?(?:for)?|we can (?:do|take))\s+)+",
    re.IGNORECASE,
)
_CUES = cues(__name__)
_ZH_LEAD = re.compile(f"^(?:{_CUES.regex('value_lead_zh')})+")
#: What closes a reply without naming anything: a particle, punctuation, or the "one" of
#: "the Looker one".
_TAIL = re.compile(_CUES.regex("value_tail"), re.IGNORECASE)
_QUOTES = _CUES.regex("value_quotes")
#: Replies that are no value ("yes", "ok", "thanks", "不知道").
_NO_VALUE = re.compile(f"^(?:{_CUES.regex('no_value')})$", re.IGNORECASE)
#: A reply saying the asker does not know the value ("no idea, sorry", "真的不清楚"): the bot,
#: asking again, invites it (`conversation.asking`), and it is no value, however worded.
_DONT_KNOW = re.compile(_CUES.regex("dont_know"), re.IGNORECASE)
#: A reply asking how the record stands, not adding to it.
_STATUS = re.compile(_CUES.regex("status"), re.IGNORECASE)
_RESOLVED = re.compile(_CUES.regex("resolved"), re.IGNORECASE)
#: Between a field's name and its value ("the category is printer", "类别是打印机").
_NAMED_VALUE_LINK = _CUES.regex("named_value_link")
_REPLY_END_MARKS = _CUES.regex("reply_end_marks")


#: Fields a reply may name to give their value ("the category is printer", "系统是 Jira"); the
#: account is left out: "my account is locked" names no value.
NAMED_FIELDS = ("category", "system", "service", "window", "host", "asset_tag")
#: Fields that say whom a record is for, not what it is about: another account named in a reply
#: ("账号是 zhangwei01") corrects the record, it does not name another subject.
WHO = frozenset({"account"})


def _held(ticket: Ticket) -> dict[str, str]:
    """The record's text fields that hold a value, as compared with a message's: stripped and
    lower-case."""
    return {
        k: v.strip().lower() for k, v in ticket.fields.items() if isinstance(v, str) and v.strip()
    }


def conflicts(inferred: Mapping[str, str], ticket: Ticket) -> list[str]:
    """The fields the record's controller reads from the message (`inferred`,
    `controllers.base.record_fields`) whose values differ from the record's: "the VPN is down"
    names category vpn beside a printer incident, so it is another problem."""
    held = _held(ticket)
    return [
        name
        for name, value in inferred.items()
        if name in held and name not in WHO and held[name] != value.strip().lower()
    ]


def agreements(inferred: Mapping[str, str], ticket: Ticket) -> list[str]:
    """The fields the record's controller reads from the message with the record's own value
    (the same category vpn, the same system): evidence that the message is about the record."""
    held = _held(ticket)
    return [name for name, value in inferred.items() if held.get(name) == value.strip().lower()]


def shares_a_term(text: str, ticket: Ticket) -> bool:
    """Does the message name a specific term of the record's title, description or fields?"""
    values = " ".join(str(v) for v in ticket.fields.values() if isinstance(v, str))
    return bool(specific_terms(text) & specific_terms(f"{ticket.title} {values}"))


def refers_back(text: str) -> bool:
    """Does a short reply point back at what the thread is about ("still crashing", "it
    happened again", "还是不行", "works now")?"""
    return size(text) <= SHORT_UPDATE and bool(REFERRING.search(text) or _RESOLVED.search(text))


def same_topic(
    text: str, ticket: Ticket, inferred: Mapping[str, str] | None = None, *, lenient: bool = False
) -> bool:
    """Is the message about the record? A reply that refers back is; otherwise one that names
    another subject than the record (`conflicts`) is not, and one that names something specific
    must share a term with the record's title, description or fields ("still broken" is about
    it; "my printer is broken" beside an access request is not). `lenient`: a short message
    (an added detail, or one the router sends to the record's own controller) only needs no
    conflict."""
    if refers_back(text):
        return True
    if inferred and conflicts(inferred, ticket):
        return False
    if not specific_terms(text) or (lenient and size(text) <= SHORT_UPDATE):
        return True
    return shares_a_term(text, ticket)


def asks_status(text: str) -> bool:
    """Does a short reply ask how the thread's record stands ("any update?", "进度怎么样了")?"""
    return size(text) <= SHORT_UPDATE and bool(_STATUS.search(text))


def resolved(text: str) -> bool:
    """Does the reply say the problem is gone ("works now", "好了")?"""
    return bool(_RESOLVED.search(text))


@dataclass(slots=True)
class FollowUp:
    """How a reply is read against the thread: its kind, the record and what it fills."""

    kind: Literal["answer", "update", "status", "closing", "ask", "question"]
    record: str
    controller: str
    #: Why it goes onto the record, in both languages (the rationale line is the asker's).
    why: Why
    #: The reply's text.
    text: str
    fields: dict[str, str] = field(default_factory=dict)
    #: Read loosely: it refers back or adds a short detail, so only a conflicting subject
    #: (`conflicts`) keeps it off the record.
    lenient: bool = False
    #: It says the record's problem is gone (the continuation model's `solved`): the update
    #: resolves the record.
    solved: bool = False


def size(text: str) -> int:
    """Words, counting two CJK characters as one."""
    cjk = len(re.findall(r"[\u3400-\u9fff]", text))
    return len(re.findall(r"[A-Za-z0-9]+", text)) + (cjk + 1) // 2


def named_value(text: str, names: list[str]) -> tuple[str, str] | None:
    """ "the category is printer" / "category: printer" / "类别是打印机" -> (name, value)."""
    for name in names:
        for spoken in say.field_names(name):
            pattern = (
                rf"(?:^|\b)(?:the\s+|my\s+)?{re.escape(spoken)}\s*"
                rf"(?:{_NAMED_VALUE_LINK})\s*(?P<value>.+)$"
            )
            match = re.search(pattern, text.strip(), re.IGNORECASE)
            if match:
                value = _clean(match.group("value"))
                if value:
                    return name, value
    return None


def _without_field_name(text: str, name: str) -> str:
    """The reply without the asked field's name at its head ("window tomorrow 7-8am" after
    "still need: window" is the window "tomorrow 7-8am", not "window tomorrow 7-8am")."""
    for spoken in say.field_names(name):
        head = re.match(
            rf"\s*(?:the\s+|my\s+)?{re.escape(spoken)}(?:\s+|(?=[^\x00-\x7f]))", text, re.I
        )
        if head and text[head.end() :].strip():
            return text[head.end() :]
    return text


def _clean(value: str) -> str:
    value = _TAIL.sub("", _ZH_LEAD.sub("", _LEAD.sub("", value.strip()))).strip(_QUOTES)
    no_value = _NO_VALUE.match(value) or _DONT_KNOW.search(value)
    return "" if no_value or len(value) > 80 else value


def says_dont_know(text: str) -> bool:
    """The reply says the asker does not know ("not sure", "no idea, sorry", "真的不清楚")."""
    return bool(_DONT_KNOW.search(text))


def acts_on_a_named_ticket(text: str) -> bool:
    """The message asks to do something to a ticket it names by number ("cancel CHG-000001",
    as the bot itself suggests when "cancel it" could mean two records): the ticket
    controller does that, with its rights, whichever of the thread's records it names; read
    against the thread it was asked "is this about <the newest record>, or something new?"."""
    return bool(find_ticket_ids(text)) and detect_action(text) not in ("status", "search", "list")


def read_follow_up(text: str, state: ConversationState) -> FollowUp | None:
    """The reply read as an answer to the open question or an update of the thread's record;
    None when it is neither (a new message, routed afresh)."""
    question = state.open_question
    if question is not None and question.record:
        answer = answer_of(text, question, short_only=True)
        if answer is not None:
            return answer
    if not state.records:
        return None
    record = state.records[-1]
    controller = state.record_controllers.get(record, "")
    if question is not None and question.record == record:
        named = named_value(text, question.parameters)
    else:
        named = None
    words = size(text)
    if named is None and question is None:
        named = named_value(text, [f for f in NAMED_FIELDS if f != "window"])
    if named is not None:
        why = because("gives_field", field=field_word(named[0]), record=record)
        return FollowUp("update", record, controller, why, text, {named[0]: named[1]})
    if asks_status(text) and not find_ticket_ids(text):
        why = because("asks_how_it_stands", record=record)
        return FollowUp("status", record, controller, why, text)
    if refers_back(text):
        why = because("refers_back", record=record)
        return FollowUp("update", record, controller, why, text, lenient=True)
    if words <= SHORT_ANSWER and reports_problem(text):
        why = because("short_report", record=record)
        return FollowUp("update", record, controller, why, text)
    if words <= SHORT_ANSWER and _detail(text):
        why = because("short_detail", record=record)
        return FollowUp("update", record, controller, why, text, lenient=True)
    return None


def _detail(text: str) -> bool:
    """A short reply that adds to the record: a value, a place, a model ("the HP one on the
    3rd floor", "是GitLab的"), not a question, a request of its own or a bare "ok"."""
    if _NO_VALUE.match(text.strip(_REPLY_END_MARKS)) or text.strip().endswith(QUESTION_MARKS):
        return False
    return not (question_form(text) or work_form(text)) and bool(_clean(text))


def answer_of(text: str, question: OpenQuestion, *, short_only: bool = False) -> FollowUp | None:
    """The reply read as the value the bot asked for: a named value ("the system is Jira"), or
    the reply itself with its filler set aside ("it's the Tableau one", "要 Jenkins 的"); None
    when nothing is left. `short_only`: a reply that names no field is a value only when it is
    short, reports no problem and is not a bare reference ("still broken")."""
    assert question.record is not None
    named = named_value(text, question.parameters)
    if named is not None:
        why = because("answers_question", field=field_word(named[0]), decision=question.decision_id)
        return FollowUp("answer", question.record, question.controller, why, text, dict([named]))
    # A reply that names another field gives that one ("the window is tonight 22:00-23:00"
    # after "still need: service" is the window; taken whole, it was stored as the service).
    # A report names no value ("my system is slow" gives no system "slow").
    others = [f for f in NAMED_FIELDS if f not in question.parameters]
    other = None if reports_problem(text) else named_value(text, others)
    if other is not None:
        why = because("gives_field", field=field_word(other[0]), record=question.record)
        return FollowUp("update", question.record, question.controller, why, text, dict([other]))
    if short_only and (
        size(text) > SHORT_ANSWER or reports_problem(text) or REFERRING.fullmatch(text.strip())
    ):
        return None
    name = question.parameters[0]
    value = _clean(_without_field_name(text, name))
    if not value:
        return None
    why = because("short_answer", field=field_word(name), decision=question.decision_id)
    return FollowUp("answer", question.record, question.controller, why, text, {name: value})


def field_word(name: str) -> Why:
    """A record's field as a reason names it: "category", "类别" (the ticket wording's own
    Chinese name; the field's name when it has none)."""
    chinese = next((said for said in say.field_names(name) if is_chinese(said)), name)
    return Why(name.replace("_", " "), chinese)


def follow_up_decision(
    message: Message,
    follow: FollowUp,
    *,
    summary: str,
    ok: bool,
    dry_run: DryRunRecord | None,
    ticket: Ticket | None,
    missing: Sequence[str] = (),
) -> Decision:
    """The logged record of a follow-up turn: routed to the record's controller, fast tier,
    request type `update`, its result saying what was done (and what the record still
    `missing`, which the thread goes on asking for)."""
    zh = turn_is_chinese(message.text, message.history)
    entities = {"ticket_id": [follow.record]}
    intent = IntentResult(
        intent="follow_up",
        confidence=1.0,
        description="a follow-up in the thread",
        urgency="low",
        entities=entities,
        group=follow.controller,
    )
    why = follow.why.text(zh)
    rationale = wording_for(zh).say("conversation.follow_up", record=follow.record, why=why)
    data: dict[str, Any] = {"follow_up": follow.kind, "fields": dict(follow.fields)}
    if ticket is not None:
        data["ticket"] = ticket.to_dict()
    return Decision(
        decision_id=new_decision_id(),
        text=message.text,
        user=message.user,
        channel=message.channel,
        thread=message.thread,
        team=message.team,
        controller=follow.controller,
        supporting=[],
        confidence=1.0 if follow.kind == "answer" else 0.9,
        tier="fast",
        outcome="routed",
        escalate=False,
        urgency="low",
        intent=intent,
        entities=entities,
        signals={},
        rationale=rationale,
        candidates=[follow.controller],
        dry_runs=[dry_run] if dry_run is not None else [],
        tier_path=[f"follow-up ({follow.kind}): {follow.why}"],
        result=ExecutionResult(
            controller=follow.controller,
            role="primary",
            ok=ok,
            summary=summary,
            data=data,
            missing=list(missing),
        ),
        created_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
        request_type="reference" if follow.kind in ("status", "closing", "question") else "update",
        language="zh" if zh else "en",
    )
