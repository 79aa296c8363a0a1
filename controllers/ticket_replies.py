"""What the ticket controller and request filing say, in the asker's language.

The brain's own texts (headline, labels, clarifications) follow the asker's language through
`core.text.language.is_chinese`; the replies of the ticket work (status, not found, filed,
updated, a field still needed) follow the same rule, so a Chinese asker does not get an English
sentence in the middle of a Chinese reply. The sentences are the `tickets.*` messages of the
language catalogs (`core.wording`); these functions only choose the message and its values, so
every language is worded the same way and a missing translation is an error, not a silent mix.
Ids, titles, values and names are data and are shown as written, except the codes the catalog
lists as terms (statuses, kinds, field names, the values controllers write themselves).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from controllers.ticket_times import answer_promise, moment
from core.safe_yaml import load_shipped_yaml
from core.wording import Wording, languages, wording, wording_for

if TYPE_CHECKING:
    from datetime import datetime

    from controllers.base import ControllerContext
    from controllers.tickets import Ticket
    from core.teams import AnswerPromise

__all__ = [
    "NOT_FOUND_ADVICE",
    "asks_comment",
    "chinese",
    "field_list",
    "filed",
    "kind_label",
    "listing",
    "no_open_tickets",
    "no_store",
    "not_filed",
    "not_found",
    "not_updated",
    "own_open",
    "resolved_alert",
    "security_advice",
    "state_problem",
    "status_label",
    "ticket_done",
    "updated",
    "updated_named",
    "upstream_added",
    "which_ticket",
]

#: Said after "ticket X was not found": the brain looked it up and filed nothing new.
NOT_FOUND_ADVICE = wording("en").say("tickets.not_found_advice")


def chinese(context: ControllerContext) -> bool:
    """Reply in Chinese to this asker?"""
    return context.in_chinese


def status_label(status: str, zh: bool) -> str:
    """A ticket status in the reply's language ("in progress" in English)."""
    return wording_for(zh).term("ticket_status", status)


def kind_label(label: str, zh: bool) -> str:
    """A ticket kind or filing label ("incident", "normal change") in the reply's language."""
    return wording_for(zh).term("ticket_kinds", label.lower(), default=label)


def field_list(names: Sequence[str], zh: bool) -> str:
    """Field names in the reply's language, joined ("category, system" in English)."""
    words = wording_for(zh)
    return words.say("common.list_separator").join(words.term("fields", n) for n in names)


def _value(words: Wording, value: Any) -> str:
    return words.term("field_values", str(value), default=f"{value}")


def _shown(values: Mapping[str, Any], words: Wording) -> str:
    return words.say("common.value_separator").join(
        words.say("tickets.field_value", field=words.term("fields", k), value=_value(words, v))
        for k, v in values.items()
    )


def _shown_part(values: Mapping[str, Any], words: Wording) -> str:
    return words.say("tickets.shown_values", values=_shown(values, words)) if values else ""


# -- the ticket controller ------------------------------------------------------------------
def no_store(zh: bool, *, filing: bool = False) -> str:
    return wording_for(zh).say("tickets.no_store_filing" if filing else "tickets.no_store")


def not_found(ticket_id: str, zh: bool) -> str:
    words = wording_for(zh)
    advice = words.say("tickets.not_found_advice")
    return words.say("tickets.not_found", ticket_id=ticket_id, advice=advice)


def state_problem(action: str, ticket_id: str, english: str, zh: bool) -> str:
    """A ticket in the wrong state for `action` (`english`: the store's own sentence)."""
    key = f"tickets.state_problem.{action if action in ('close', 'reopen') else 'closed'}"
    return wording_for(zh).say(key, ticket_id=ticket_id, english=english)


def asks_comment(ticket_id: str, zh: bool) -> str:
    return wording_for(zh).say("tickets.asks_comment", ticket_id=ticket_id)


def upstream_added(source: str, ticket_id: str, zh: bool) -> str:
    return wording_for(zh).say("tickets.upstream_added", source=source, ticket_id=ticket_id)


def listing(tickets: Sequence[Ticket], zh: bool) -> str:
    """Tickets as 'id "title" (status)' (the title in curly quotes), joined."""
    words = wording_for(zh)
    return words.say("common.clause_separator").join(
        words.say("tickets.listed", id=t.id, title=t.title, status=status_label(t.status, zh))
        for t in tickets
    )


def no_open_tickets(zh: bool) -> str:
    return wording_for(zh).say("tickets.no_open_tickets")


def own_open(tickets: Sequence[Ticket], total: int, zh: bool, *, counted: bool = True) -> str:
    """The requester's open tickets (the first ones of `total`)."""
    words = wording_for(zh)
    more = total - len(tickets)
    extra = words.say("tickets.own_open_more", more=more) if more > 0 else ""
    count = words.say("tickets.own_open_count", total=total) if counted else ""
    return words.say("tickets.own_open", count=count, tickets=listing(tickets, zh), more=extra)


def search_results(topic: str, tickets: Sequence[Ticket], zh: bool) -> str:
    """What a ticket search found (the asker's tickets, closed ones too), or that none matched."""
    if not tickets:
        return wording_for(zh).say("tickets.search_none", topic=topic)
    return wording_for(zh).say("tickets.search_found", topic=topic, tickets=listing(tickets, zh))


def which_ticket(action: str | None, tickets: Sequence[Ticket], zh: bool) -> str:
    """Ask for the ticket: with no open tickets, for its number; else which of them."""
    words = wording_for(zh)
    if not tickets or action is None:
        return words.say("tickets.which_number")
    shown = words.term("ticket_actions", action)
    return words.say("tickets.which_of", action=shown, tickets=listing(tickets, zh))


def ticket_done(
    action: str,
    ticket: Ticket,
    zh: bool,
    *,
    promise: AnswerPromise | None = None,
    now: datetime | None = None,
) -> str:
    """What was done to `ticket`, or its status for a look-up (with `promise`: when its
    team aims to answer it)."""
    words = wording_for(zh)
    waiting = answer_promise(promise, now, zh) if action == "status" else ""
    kind = kind_label(ticket.kind, zh)
    head = words.say("tickets.head", id=ticket.id, kind=kind, title=ticket.title)
    status = status_label(ticket.status, zh)
    if action in ("close", "reopen", "urge", "process", "comment"):
        times = words.say("tickets.times", count=ticket.urge_count)
        return words.say(
            f"tickets.done.{action}",
            head=head,
            times=times,
            status=status,
            status_code=ticket.status,
            assignee=ticket.assignee,
        )
    parts = [words.say("tickets.status.is", head=head, status=status)]
    if ticket.assignee:
        parts.append(words.say("tickets.status.assigned", assignee=ticket.assignee))
    elif ticket.is_open:  # "who is handling this?" is answered too: nobody has taken it yet
        parts.append(words.say("tickets.status.unassigned"))
    if waiting:
        parts.append(waiting)
    parts.append(words.say("tickets.status.updated", moment=moment(ticket.updated_at)))
    if ticket.urge_count:
        parts.append(words.say("tickets.status.urged", count=ticket.urge_count))
    if ticket.comments:
        last = ticket.comments[-1]
        by, text = last["by"], last["text"][:160]
        parts.append(words.say("tickets.status.latest_comment", by=by, text=text))
    return words.say("common.clause_separator").join(parts) + words.say("common.full_stop")


# -- filing requests (controllers.requests) ---------------------------------------------------
def not_filed(label: str, error: object, zh: bool) -> str:
    return wording_for(zh).say("tickets.not_filed", label=kind_label(label, zh), error=error)


def still_needed(missing: Sequence[str], zh: bool) -> str:
    """The sentence asking for the fields a ticket still needs ("" when none)."""
    if not missing:
        return ""
    return wording_for(zh).say("tickets.still_needed", fields=field_list(missing, zh))


def one_of(name: str, values: Sequence[str], zh: bool) -> str:
    """The values a field may take, after asking for it ("" when any value is one)."""
    if not values:
        return ""
    words = wording_for(zh)
    shown = words.say("common.list_separator").join(_value(words, v) for v in values)
    field, spoken = words.term("fields", name), name.replace("_", " ")
    return words.say("tickets.one_of", field=field, spoken=spoken, values=shown)


def filed(
    label: str, ticket_id: str, values: Mapping[str, Any], missing: Sequence[str], zh: bool
) -> str:
    """A new ticket was filed (and what it still needs)."""
    words = wording_for(zh)
    return words.say(
        "tickets.filed",
        label=kind_label(label, zh),
        ticket_id=ticket_id,
        shown=_shown_part(values, words),
        still=still_needed(missing, zh),
    )


def updated(
    label: str, ticket_id: str, values: Mapping[str, Any], missing: Sequence[str], zh: bool
) -> str:
    """A waiting ticket took this follow-up: still waiting, or complete and open."""
    words = wording_for(zh)
    return words.say(
        "tickets.updated_waiting" if missing else "tickets.updated_complete",
        label=kind_label(label, zh),
        ticket_id=ticket_id,
        shown=_shown_part(values, words),
        still=still_needed(missing, zh),
    )


def not_updated(label: str, ticket_id: str, error: object, zh: bool) -> str:
    words = wording_for(zh)
    label = kind_label(label, zh)
    return words.say("tickets.not_updated", label=label, ticket_id=ticket_id, error=error)


def updated_named(label: str, ticket: Ticket, zh: bool) -> str:
    """The message went onto the open ticket it names instead of a second one."""
    words = wording_for(zh)
    label = kind_label(label, zh)
    return words.say("tickets.updated_named", id=ticket.id, title=ticket.title, label=label)


def resolved_alert(zh: bool) -> str:
    """Said instead of filing when the diagnosed alerts have all resolved."""
    return wording_for(zh).say("tickets.resolved_alert")


def security_advice(zh: bool) -> str:
    """Appended to a filed security incident (on-call is paged)."""
    return wording_for(zh).say("tickets.security_advice")


@cache
def _field_said() -> Mapping[str, tuple[str, ...]]:
    """Shorter ways people name a field when they answer for it ("time slot" for the window),
    from `field_names.yaml` beside this module."""
    source = resources.files("controllers").joinpath("field_names.yaml")
    data = load_shipped_yaml(source.read_text(encoding="utf-8")) or {}
    return {str(name): tuple(str(said) for said in names) for name, names in data.items()}


def field_names(name: str) -> tuple[str, ...]:
    """The ways a user may name a ticket field, for reading answers: its name, spoken, its
    label in every language's catalog, and the shorter ways people say it."""
    spoken = name.replace("_", " ")
    named = (wording(language).term("fields", name) for language in languages())
    return tuple(dict.fromkeys([name, spoken, *named, *_field_said().get(name, ())]))


def added_to(
    ticket_id: str, values: Mapping[str, Any], zh: bool, *, reopened: bool, changed: bool = False
) -> str:
    """A follow-up in the thread went onto the thread's ticket (no second ticket); `changed`:
    its values replace what the ticket said ("actually make it 23:30")."""
    words = wording_for(zh)
    again = words.say("tickets.added_reopened" if reopened else "tickets.added_not_new")
    if not values:
        return words.say("tickets.added_message", ticket_id=ticket_id, again=again)
    named = words.say("common.value_separator").join(
        words.say(
            "tickets.added_value",
            field=words.term("fields", k),
            spoken=k.replace("_", " "),
            value=_value(words, v),
        )
        for k, v in values.items()
    )
    key = "tickets.changed_values" if changed else "tickets.added_values"
    return words.say(key, values=named, ticket_id=ticket_id, again=again)
