"""What people may see and undo of what the brain learned: show, conflicts, forget.

`forget_user` is the right to be forgotten: the user's lessons (taught by them or about their
messages) leave the lesson store, their decisions stay in the log with every word of theirs
redacted (`DecisionStore.forget_user`), quotes of their messages leave other decisions'
rationales, their feedback is dropped, their tickets lose title, description and comments, and
the conversation state of every thread they wrote in (`Stores.conversations`, the Slack threads
and chat sessions, which hold the thread's recent texts) is removed.
The brain (`brain.engine.Brain.forget_user`) also removes their unknown cases from the case book and
their messages from the examples of evolved controllers made of them (`brain.dynamic`).
Afterwards their messages are decided as if the lessons had never been given.

The process that forgets (a running bot's /brain-forget or "forget me", `brain memory forget`)
also empties its caches of their words (`core.text.kept`: query vectors, recognised intents,
knowledge and ticket look-ups, the routing fits' training vectors). Another process (the bot
while a CLI command forgets, another replica) is not reached: its caches keep what it read
before until they are evicted or it ends, and what it reads afresh from the stores is redacted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from brain.memory.entry import Lesson
from brain.memory.preference import conflicts
from controllers.ticket_systems.forgetting import forget_user as forget_outbox
from core.stores.forgetting import REDACTED, quoted_forms, scrub
from core.text import kept
from core.text.language import has_cjk

if TYPE_CHECKING:
    from brain.decisions.log import DecisionLog
    from brain.learning.org_training import OrgTraining
    from brain.memory.agreed import AgreedExamples
    from brain.memory.lessons import LessonRecall
    from brain.signals.session_cache import SessionCache
    from core.config import Settings
    from core.stores.protocols import (
        AlertStore,
        Collection,
        ConversationStateStore,
        TicketRecords,
    )
    from core.stores.records import Alert, Ticket


class Learned(Protocol):
    """What the brain learned and keeps, as show, conflicts and forget read it (`brain.engine.Brain`
    is one)."""

    @property
    def settings(self) -> Settings: ...
    @property
    def memory(self) -> LessonRecall: ...
    @property
    def org_training(self) -> OrgTraining: ...
    @property
    def agreed_examples(self) -> AgreedExamples: ...
    @property
    def log(self) -> DecisionLog: ...
    @property
    def sessions(self) -> SessionCache: ...


#: Ticket fields that hold the requester's words.
TICKET_TEXT_FIELDS = ("description", "text", "summary", "details", "message")
#: Ticket fields whose values are the desk's own vocabulary (a category, a request type, an
#: urgency) or the brain's references, never words a requester wrote: they stay on a forgotten
#: ticket, for the desk's figures, even when the same word was in the message ("network").
TICKET_KEPT_FIELDS = frozenset(
    {"category", "request_type", "change_type", "operation", "urgency", "priority", "kind"}
    | {"status", "team", "channel", "thread", "decision_id", "source"}
)


@dataclass(frozen=True, slots=True)
class ForgetReport:
    """What `forget_user` removed or redacted."""

    user: str
    lessons: int
    decisions: int
    tickets: int
    #: On-call alerts about the user's messages (or quoting them) that were redacted.
    alerts: int = 0
    #: Unknown cases of theirs removed (`BRAIN_HOME/dynamic_cases/`), and evolved
    #: controllers whose examples lost their messages.
    cases: int = 0
    evolved: int = 0
    #: Conversation states (threads, chat sessions) the user wrote in, removed.
    threads: int = 0
    #: Changes waiting for (or sent to) a ticket system that carried their words.
    outbox: int = 0
    #: Comments posted in the ticket system with their words, queued to be removed there,
    #: and requests of theirs there queued to be rewritten from the redacted ticket.
    remote_comments: int = 0
    remote_tickets: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "user": self.user,
            "lessons": self.lessons,
            "decisions": self.decisions,
            "tickets": self.tickets,
            "alerts": self.alerts,
            "cases": self.cases,
            "evolved": self.evolved,
            "threads": self.threads,
            "outbox": self.outbox,
            "remote_comments": self.remote_comments,
            "remote_tickets": self.remote_tickets,
        }


def lesson_view(entry: Lesson) -> dict[str, Any]:
    """One lesson as `brain memory show` prints it (no vectors)."""
    return {
        "memory_id": entry.memory_id,
        "kind": entry.kind,
        "controller": entry.controller,
        "weight": entry.weight,
        "moved_from": entry.moved_from,
        "moved_to": entry.moved_to,
        "user": entry.user,
        "asker": entry.asker,
        "channel": entry.channel,
        "text": entry.text,
        "ids": list(entry.ids),
        "scenario": entry.scenario,
        "decision_id": entry.decision_id,
        "created_at": entry.created_at,
    }


def show(brain: Learned, user: str | None = None) -> list[dict[str, Any]]:
    """Every lesson (or one user's: taught by them or about their messages), oldest first."""
    return [
        lesson_view(entry)
        for entry in brain.memory.entries()
        if user is None or user in (entry.user, entry.asker)
    ]


def conflict_views(brain: Learned) -> list[dict[str, Any]]:
    """Similar messages users moved to different controllers (reported, never applied)."""
    found = conflicts(brain.memory, min_similarity=brain.settings.memory.preference_similarity)
    seen = {conflict.lesson.memory_id for conflict in found}
    # Corrections count as examples of their controllers more widely than near copies
    # (`brain.memory.agreed`): their disagreements are reported too, each group once.
    found += [c for c in brain.agreed_examples.conflicts() if c.lesson.memory_id not in seen]
    return [
        {
            "text": conflict.lesson.text,
            "decision_id": conflict.lesson.decision_id,
            "targets": {name: list(users) for name, users in conflict.targets.items()},
        }
        for conflict in found
    ]


def forget_user(
    brain: Learned,
    user: str,
    tickets: TicketRecords | None = None,
    alerts: AlertStore | None = None,
    conversations: ConversationStateStore | None = None,
    outbox: Collection | None = None,
    sync: Collection | None = None,
    case_texts: Sequence[str] = (),
) -> ForgetReport:
    """Remove what was learned from `user` and every stored text of theirs (`outbox`: the
    ticket-system changes, and `sync` its links, whose comments with their words are removed
    there: `controllers.ticket_systems.forgetting`), then from this process's caches
    (`core.text.kept`; `case_texts`: the messages of their forgotten cases)."""
    mine = [e for e in brain.memory.entries() if user in (e.user, e.asker)]
    # The tickets as stored before anything is redacted, read once for every use below.
    listed = tickets.all() if tickets is not None else []
    texts = sorted({e.text for e in mine if e.asker == user} | _ticket_texts(listed, user))
    removed = brain.memory.forget([e.memory_id for e in mine])
    brain.agreed_examples.follow()
    # Routing-model fits trained on organisation lessons may hold their messages: deleted
    # now, refitted without them (brain.org_training).
    brain.org_training.forgotten()
    changed = brain.log.store.forget_user(user, texts)
    brain.sessions.forget_user(user)
    redacted = _forget_tickets(tickets, listed, user, texts) if tickets is not None else 0
    paged = _forget_alerts(alerts, user, texts) if alerts is not None else 0
    threads: list[str] = []
    if conversations is not None:  # each thread's state holds its recent texts
        threads = conversations.keys_of(user)
        conversations.remove(threads)
    sent = remote = rewritten = 0
    if outbox is not None:
        forgotten = forget_outbox(outbox, sync, user, listed)
        sent, remote, rewritten = forgotten.changes, forgotten.removals, forgotten.updates
    # Last, after the stores: a cache refilled meanwhile reads the redacted records.
    kept.forget([*texts, *(entry.text for entry in mine), *case_texts])
    return ForgetReport(
        user,
        removed,
        len(changed),
        redacted,
        paged,
        threads=len(threads),
        outbox=sent,
        remote_comments=remote,
        remote_tickets=rewritten,
    )


def _ticket_texts(tickets: Sequence[Ticket], user: str) -> set[str]:
    """The words of the user's tickets (title and text fields): other decisions quote them (a
    status answer in a thread names its ticket by title), so they are scrubbed there too."""
    found: set[str] = set()
    for ticket in tickets:
        if ticket.requester != user:
            continue
        found |= set(_texts_of(ticket))
    return found


def _texts_of(ticket: Ticket, comments_by: str | None = None) -> list[str]:
    """A ticket's title and text fields as its requester wrote them, and the comments of
    `comments_by` (none already redacted)."""
    values = [ticket.title] + [ticket.fields.get(name) for name in TICKET_TEXT_FIELDS]
    values += [c.get("text") for c in ticket.comments if comments_by and c.get("by") == comments_by]
    return [v for v in values if isinstance(v, str) and v.strip() and v != REDACTED]


def _written_by(ticket: Ticket, user: str) -> list[str]:
    """What the requester wrote on their ticket (its title, text fields and their comments),
    case-folded: the words its other fields were read from."""
    return [text.casefold() for text in _texts_of(ticket, comments_by=user)]


def _taken_from(value: str, written: Sequence[str]) -> bool:
    """A field value the requester wrote (a system, a service, a place read in the message):
    a Latin value as whole words of at least three letters ("en" is in every other English
    word), a Chinese one of at least two characters anywhere (Chinese has no spaces)."""
    found = value.strip().casefold()
    if found == REDACTED or len(found) < 2:
        return False
    if has_cjk(found):
        return any(found in text for text in written)
    if len(found) < 3:
        return False
    whole = re.compile(rf"(?<!\w){re.escape(found)}(?!\w)")
    return any(whole.search(text) for text in written)


def _without_written(value: Any, written: Sequence[str], taken: set[str]) -> Any:
    """`value` (a field's, however nested: a composed ticket keeps the upstream controller's
    result) with every string the requester wrote redacted; what was redacted goes to
    `taken`, to be scrubbed where it is quoted ("Reported: cpu 99% on <host>")."""
    if isinstance(value, str):
        if _taken_from(value, written):
            taken.add(value.strip())
            return REDACTED
        return value
    if isinstance(value, list):
        return [_without_written(item, written, taken) for item in value]
    if isinstance(value, dict):
        return {key: _without_written(item, written, taken) for key, item in value.items()}
    return value


def _redact_written(fields: dict[str, Any], written: Sequence[str]) -> None:
    """A forgotten ticket's fields, in place, without what its requester wrote, wherever it is
    kept or quoted (the desk's own vocabulary stays: `TICKET_KEPT_FIELDS`)."""
    taken: set[str] = set()
    for name in [n for n in fields if n not in TICKET_KEPT_FIELDS]:
        fields[name] = _without_written(fields[name], written, taken)
    quotes = sorted(taken, key=len, reverse=True)
    for name in [n for n in fields if n not in TICKET_KEPT_FIELDS]:
        fields[name] = scrub(fields[name], quotes)


def _forget_alerts(alerts: AlertStore, user: str, texts: list[str]) -> int:
    """Redact the on-call alerts about the user's messages (their text and summary), and
    quotes of the user's messages in other alerts; the alert itself (who acknowledged it,
    when) stays. How many alerts changed."""
    every = alerts.all()
    forms = quoted_forms(texts + [alert.text for alert in every if alert.asker == user])
    count = 0
    for alert in every:
        mine = alert.asker == user
        quoted = any(form in alert.text or form in alert.summary for form in forms)
        if not mine and not quoted:
            continue

        def redact(stored: Alert, mine: bool = mine) -> None:
            if mine:
                stored.text = stored.summary = REDACTED
                return
            for form in forms:
                stored.text = stored.text.replace(form, REDACTED)
                stored.summary = stored.summary.replace(form, REDACTED)

        alerts.modify(alert.alert_id, redact)
        count += 1
    return count


def _forget_tickets(
    tickets: TicketRecords, listed: Sequence[Ticket], user: str, texts: list[str]
) -> int:
    """Redact the user's tickets and their comments elsewhere (`listed`: the tickets as read
    before the forget began; each is changed through `tickets`)."""
    forms = quoted_forms(texts)
    count = 0
    for ticket in listed:
        mine = ticket.requester == user
        if not mine and not any(c.get("by") == user for c in ticket.comments):
            continue

        def redact(stored: Ticket, mine: bool = mine) -> None:
            if mine:
                written = _written_by(stored, user)
                stored.title = REDACTED
                fields = stored.fields
                for name in TICKET_TEXT_FIELDS:
                    if isinstance(fields.get(name), str):
                        fields[name] = REDACTED
                for name, value in fields.items():
                    if isinstance(value, str):
                        for form in forms:
                            value = value.replace(form, REDACTED)
                        fields[name] = value
                _redact_written(fields, written)  # a system or service read in the message
            for comment in stored.comments:
                if mine or comment.get("by") == user:
                    comment["text"] = REDACTED

        tickets.modify(ticket.id, redact)
        count += 1
    if count:
        tickets.flush()  # a journal in front of the records keeps no earlier version either
    return count
