"""Typed requests (incident, access, change, ticket) filed in the local ticket store.

Parameters come from the user's answers (`context.parameters`), then the extracted entities,
then what the controller completed itself (e.g. from the knowledge base). Missing required
ones are reported, never invented. What is said back follows the asker's language
(`controllers.ticket_replies`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from controllers import answering, passage_language
from controllers import ticket_replies as say
from controllers.base import ControllerContext, ControllerResult, DryRunResult
from controllers.ids import find_ticket_ids
from controllers.tickets import Ticket, TicketError
from controllers.verification import codes_in, error_codes
from core.text.shortening import ELLIPSIS
from core.wording import wording_for

if TYPE_CHECKING:
    from controllers.tickets import TicketStore


def known_parameters(context: ControllerContext) -> dict[str, str]:
    """Entities (joined) overlaid with the parameters the user answered explicitly."""
    values = {kind: ", ".join(items) for kind, items in context.entities.items() if items}
    values.update({k: v for k, v in context.parameters.items() if v and v.strip()})
    return values


def missing_parameters(required: Sequence[str], values: Mapping[str, Any]) -> list[str]:
    """Required names without a non-empty value, in the order they were declared."""
    return [name for name in required if not str(values.get(name) or "").strip()]


def missing_dry_run(required: Sequence[str], values: Mapping[str, Any]) -> DryRunResult | None:
    """A failed dry-run naming the missing required values; None when all are present."""
    missing = missing_parameters(required, values)
    if missing:
        return DryRunResult(ok=False, reason=f"missing {', '.join(missing)}", missing=missing)
    return None


def check_required(context: ControllerContext, required: Sequence[str]) -> DryRunResult:
    """The generic dry-run: are the required entities or parameters present?"""
    failed = missing_dry_run(required, known_parameters(context))
    if failed is not None:
        return failed
    if required:
        return DryRunResult(ok=True, reason=f"has {', '.join(required)}")
    return DryRunResult(ok=True, reason="no required parameters")


def request_title(text: str, limit: int = 120) -> str:
    """A one-line title from the message text."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + ELLIPSIS


def file_request(
    context: ControllerContext,
    *,
    kind: str,
    label: str,
    fields: Mapping[str, Any],
    required: Sequence[str],
    citations: Sequence[str] = (),
) -> ControllerResult:
    """Create the typed request; it waits for information while required fields are missing."""
    store = context.services.tickets
    zh = say.chinese(context)
    if store is None:
        return ControllerResult(ok=False, summary=say.no_store(zh, filing=True))
    missing = missing_parameters(required, fields)
    record = {k: v for k, v in fields.items() if v not in (None, "", [], {})}
    record.update(
        {
            "description": context.text[:4000],
            "channel": context.channel,
            "thread": context.thread,
            "decision_id": context.decision_id,
            "urgency": context.urgency,
        }
    )
    if context.upstream:
        record["upstream"] = context.upstream
    waiting = waiting_ticket(store, kind, context)
    if waiting is not None:
        return _complete(store, waiting, context, label=label, fields=fields, required=required)
    named = named_open_ticket(store, kind, context)
    if named is not None:
        return _update_named(store, named, context, label=label)
    try:
        ticket = store.create(
            kind,
            title=request_title(context.text) or label,
            requester=context.user,
            fields=record,
            status="awaiting_info" if missing else "open",
            slack_team=context.team,
            routed_to=context.routed_to or None,
        )
    except TicketError as exc:
        return ControllerResult(ok=False, summary=say.not_filed(label, exc, zh))
    shown = {k: v for k, v in fields.items() if v not in (None, "", [], {})}
    return ControllerResult(
        ok=True,
        summary=say.filed(label, ticket.id, shown, missing, zh),
        data={"ticket": ticket.to_dict()},
        citations=list(citations),
        missing=missing,
    )


def file_with_guidance(
    context: ControllerContext,
    *,
    kind: str,
    label: str,
    fields: Mapping[str, Any],
    required: Sequence[str],
    query: str,
    policy: bool = False,
    judged_on: str | None = None,
) -> ControllerResult:
    """`file_request`, citing the two best knowledge-base hits for `query` in the `kind`
    domain (KB domains are controller names); the best hit becomes the details (said to be
    the policy with `policy`).
    `judged_on`: what a hit must address to be cited, when not `query` (a problem report's
    own words: the category the controller put in the query finds its pages, and is no
    word of the asker's that a page could answer)."""
    zh = say.chinese(context)
    # A Chinese asker's words find the Chinese passages (the controller's query is English).
    asked = f"{query} {context.text[: answering.QUERY_CHARS // 2]}" if zh else query
    guidance = answering.gather(context.services.knowledge, asked, domain=kind, k=2 + 2 * zh)
    # Guidance only from passages that address what the controller asked for (the request's
    # type, system, error code: `query`) or what the asker wrote, never another error code.
    codes = error_codes(context.text)
    llm = context.services.llm
    addressed = [
        hit
        for hit in guidance.hits
        if answering.verified_hits(judged_on or query, [hit], llm)
        or (zh and answering.verified_hits(context.text, [hit], llm))
    ]
    guidance.hits = passage_language.asker_language_first(
        [h for h in addressed if not codes or codes & codes_in(answering.passage_of(h), codes)],
        context.text,
    )[:2]
    result = file_request(
        context,
        kind=kind,
        label=label,
        fields=fields,
        required=required,
        citations=[answering.citation(hit) for hit in guidance.hits],
    )
    if guidance.hits:
        passage = passage_language.excerpt(guidance.hits[0].text, context.text)
        prefix = wording_for(zh).say("requests.policy") if policy else ""
        result.details = prefix + passage
    return result


def waiting_ticket(store: TicketStore, kind: str, context: ControllerContext) -> Ticket | None:
    """The requester's newest `kind` ticket of this thread still waiting for information.

    A follow-up in that thread ("the category is printer") completes it instead of opening a
    second ticket. Only a thread counts: a DM or CLI stream without one has no such anchor.
    """
    if not context.thread:
        return None
    waiting = [
        t
        for t in store.list_by_requester(context.user, open_only=True)
        if t.kind == kind
        and t.status == "awaiting_info"
        and t.fields.get("thread") == context.thread
        and t.fields.get("channel") == context.channel
    ]
    return waiting[0] if waiting else None


def _complete(
    store: TicketStore,
    ticket: Ticket,
    context: ControllerContext,
    *,
    label: str,
    fields: Mapping[str, Any],
    required: Sequence[str],
) -> ControllerResult:
    """Fill the waiting ticket's fields from this follow-up; it opens when nothing is missing."""
    zh = say.chinese(context)
    given = {k: v for k, v in fields.items() if v not in (None, "", [], {})}
    merged = {**ticket.fields, **{k: v for k, v in given.items() if not ticket.fields.get(k)}}
    missing = missing_parameters(required, merged)
    try:
        store.comment(ticket.id, author=context.user, text=context.text[:4000])
        updated = store.update_fields(
            ticket.id,
            by=context.user,
            fields={k: merged[k] for k in given if k in merged},
            status="awaiting_info" if missing else "open",
        )
    except TicketError as exc:
        return ControllerResult(ok=False, summary=say.not_updated(label, ticket.id, exc, zh))
    shown = {k: v for k, v in given.items() if ticket.fields.get(k) != v}
    return ControllerResult(
        ok=True,
        summary=say.updated(label, ticket.id, shown, missing, zh),
        data={"ticket": updated.to_dict(), "completed": not missing},
        missing=missing,
    )


def named_open_ticket(store: TicketStore, kind: str, context: ControllerContext) -> Ticket | None:
    """An open `kind` ticket the message names ("VPN down again, INC0013021 is still not
    solved"): the new report belongs on it, not in a second ticket."""
    ids = [*context.entities.get("ticket_id", ()), *find_ticket_ids(context.text[:4000])]
    for ticket_id in dict.fromkeys(ids):
        try:
            ticket = store.get(ticket_id)
        except Exception:  # the store is down: file as usual
            return None
        if ticket is not None and ticket.kind == kind and ticket.is_open:
            return ticket
    return None


def _update_named(
    store: TicketStore, ticket: Ticket, context: ControllerContext, *, label: str
) -> ControllerResult:
    """Add the message to the named open ticket instead of filing a duplicate."""
    zh = say.chinese(context)
    try:
        updated = store.comment(ticket.id, author=context.user, text=context.text[:4000])
    except TicketError as exc:
        return ControllerResult(ok=False, summary=say.not_updated(label, ticket.id, exc, zh))
    return ControllerResult(
        ok=True,
        summary=say.updated_named(label, ticket, zh),
        data={"ticket": updated.to_dict(), "updated_existing": True},
    )
