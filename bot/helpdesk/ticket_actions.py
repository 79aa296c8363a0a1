"""The ticket's buttons: Resolve / Reopen / Claim / Hand to team, and the requester's
"Did this solve it?" (thumbs-up closes it and confirms the route; thumbs-down opens a "what was
wrong?" modal, reopens it and rejects the route: both are feedback the brain learns from).

Every click is acknowledged at once, then checked twice before anything changes: it is
bound to the ticket (the clicked message is the bot's reply whose decision filed it, the
team notice, or the satisfaction question recorded in its history; `_bound`), and the
clicker has the right (`bot.helpdesk.rights`). Each change is posted back in the ticket's
thread and kept in its history by the ticket store.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot import ticket_view as view
from bot.blocks import fallback_text, resolved_blocks, submitted_reason
from bot.clicks import FOREIGN_NOTE, Click
from bot.helpdesk.rights import may_change_ticket, may_claim_ticket, team_members
from bot.services import BotServices
from bot.teams import team_names, tell_team, ticket_store
from bot.wording import say
from controllers.tickets import Ticket, TicketError, TicketStateError
from core.access import same_workspace
from core.errors import UnknownDecision

log = logging.getLogger(__name__)

NOT_YOURS = "Only the requester, the ticket's team or an admin can do that, so nothing changed."
CLAIM_REFUSED = "Thanks for offering! Ticket `{id}` is already claimed by <@{who}>."
CLAIM_NOT_TEAM = "Only a member of the ticket's team (or an admin) can claim it."


def _bound(services: BotServices, click: Click, ticket_id: str) -> Ticket | None:
    """In the brain worker: the ticket, when the clicked message is one of its own."""
    ticket = ticket_store(services).get(ticket_id)
    if ticket is None or not same_workspace(ticket.slack_team, services.workspace_of(click.body)):
        return None  # another workspace's ticket is refused like a message's that is not it
    for entry in ticket.history:
        if entry.get("event") in ("team_notified", "asked") and (
            entry.get("channel"),
            entry.get("ts"),
        ) == (click.channel, click.ts):
            return ticket
    link = services.links.get(click.channel, click.ts)
    if link is None or click.channel != ticket.channel:
        return None
    try:
        decision = services.brain.get_decision(link.decision_id)
    except UnknownDecision:
        return None
    filed = (decision.result.data.get("ticket") or {}) if decision.result else {}
    return ticket if isinstance(filed, dict) and filed.get("id") == ticket.id else None


async def _note(client: AsyncWebClient, click: Click, text: str) -> None:
    await client.chat_postEphemeral(
        channel=click.channel, user=click.user, thread_ts=click.thread_ts, text=text
    )


async def _in_thread(client: AsyncWebClient, ticket: Ticket, **message: Any) -> dict[str, Any]:
    """Post in the ticket's own thread (where it was asked)."""
    thread = str(ticket.fields.get("thread") or "") or None
    posted = await client.chat_postMessage(
        channel=ticket.channel or ticket.requester, thread_ts=thread, **message
    )
    return dict(posted.data) if isinstance(posted.data, dict) else {}


async def _redraw(
    client: AsyncWebClient, click: Click, services: BotServices, ticket: Ticket
) -> None:
    """The clicked message's ticket buttons follow the status (Resolve <-> Reopen)."""
    blocks = view.with_ticket_actions(click.blocks, ticket.id, ticket.status, team_names(services))
    await client.chat_update(
        channel=click.channel, ts=click.ts, text=fallback_text(f"Ticket {ticket.id}"), blocks=blocks
    )


Change = Callable[[BotServices, Click, Ticket], Ticket]


async def _act(
    services: BotServices,
    client: AsyncWebClient,
    click: Click,
    ticket_id: str,
    change: Change,
    claim: bool = False,
) -> Ticket | None:
    """Bind, check the right, apply `change`; the clicker is told privately when refused."""
    ticket = await services.trip(_bound, services, click, ticket_id)
    if ticket is None:
        log.warning(
            "refused a ticket click by %s in %s: not this ticket's", click.user, click.channel
        )
        await _note(client, click, FOREIGN_NOTE)
        return None
    members = await team_members(services, client, ticket.team)
    if claim and not may_claim_ticket(services, click.user, members):
        await _note(client, click, CLAIM_NOT_TEAM)
        return None
    if not claim and not may_change_ticket(services, click.user, ticket, members):
        await _note(client, click, NOT_YOURS)
        return None
    try:
        return await services.trip(change, services, click, ticket)
    except TicketStateError as exc:
        current = ticket_store(services).get(ticket.id)
        if claim and current is not None and current.assignee:
            await _note(client, click, CLAIM_REFUSED.format(id=ticket.id, who=current.assignee))
        else:
            await _note(client, click, f"Nothing changed: {exc}.")
        return None


async def resolved(services: BotServices, client: AsyncWebClient, ticket: Ticket, by: str) -> None:
    """Say so in the thread and ask the requester whether it is solved."""
    await _in_thread(client, ticket, text=view.status_notice(ticket, by))
    await ask_if_solved(services, client, ticket)


async def ask_if_solved(services: BotServices, client: AsyncWebClient, ticket: Ticket) -> None:
    """Ask the requester in the thread whether the resolved ticket is solved (the question's
    message is recorded in the history: only it binds the thumbs-up/down)."""
    posted = await _in_thread(
        client,
        ticket,
        text=fallback_text(f"Did this solve it? (ticket {ticket.id})"),
        blocks=view.satisfaction_blocks(ticket),
    )
    store = ticket_store(services)
    channel = str(posted.get("channel") or ticket.channel or "")
    ts = str(posted.get("ts") or "")
    await services.trip(store.note, ticket.id, by="brain", event="asked", channel=channel, ts=ts)


def register(app: AsyncApp, services: BotServices) -> None:
    """The ticket buttons, the satisfaction buttons and the reason modal."""
    store = ticket_store

    def on(action: str, work: Callable[..., Any]) -> None:
        async def listener(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
            await ack()
            click = Click.parse(body)
            if click is None:
                return
            ticket_id = click.block_id.split(":", 1)[-1]
            services.work.spawn(work(client, click, ticket_id, body), name=action)

        app.action(action)(listener)

    async def resolve(client: AsyncWebClient, click: Click, ticket_id: str, _: Any) -> None:
        ticket = await _act(
            services, client, click, ticket_id, lambda s, c, t: store(s).resolve(t.id, by=c.user)
        )
        if ticket is not None:
            await _redraw(client, click, services, ticket)
            await resolved(services, client, ticket, click.user)

    async def reopen(client: AsyncWebClient, click: Click, ticket_id: str, _: Any) -> None:
        ticket = await _act(
            services, client, click, ticket_id, lambda s, c, t: store(s).reopen(t.id, by=c.user)
        )
        if ticket is not None:
            await _redraw(client, click, services, ticket)
            await _in_thread(client, ticket, text=view.status_notice(ticket, click.user))

    async def claim(client: AsyncWebClient, click: Click, ticket_id: str, _: Any) -> None:
        ticket = await _act(
            services,
            client,
            click,
            ticket_id,
            lambda s, c, t: store(s).claim(t.id, by=c.user),
            claim=True,
        )
        if ticket is not None:
            await _redraw(client, click, services, ticket)
            await _in_thread(client, ticket, text=view.status_notice(ticket, click.user))

    async def hand(client: AsyncWebClient, click: Click, ticket_id: str, _: Any) -> None:
        team = click.value
        if team not in services.settings.helpdesk.teams:
            return
        ticket = await _act(
            services,
            client,
            click,
            ticket_id,
            lambda s, c, t: store(s).hand_to(t.id, by=c.user, team=team),
        )
        if ticket is not None:
            await _in_thread(client, ticket, text=view.status_notice(ticket, click.user, team))
            thread = str(ticket.fields.get("thread") or "")
            await tell_team(
                services, client, ticket, rationale=f"handed by <@{click.user}>", thread=thread
            )

    async def rate_up(client: AsyncWebClient, click: Click, ticket_id: str, _: Any) -> None:
        def solved(s: BotServices, c: Click, t: Ticket) -> Ticket:
            if c.user != t.requester:
                raise TicketStateError("only the requester answers this question")
            closed = store(s).close(t.id, by=c.user, reason="solved, said the requester")
            store(s).note(t.id, by=c.user, event="rated", answer="yes")
            _feedback(s, t, c.user, "confirm")
            return closed

        ticket = await _act(services, client, click, ticket_id, solved)
        if ticket is not None:
            note = say("rated_solved", False, user=f"<@{click.user}>", id=ticket.id)
            await client.chat_update(
                channel=click.channel,
                ts=click.ts,
                text=note,
                blocks=resolved_blocks(click.blocks, note),
            )

    async def rate_down(client: AsyncWebClient, click: Click, ticket_id: str, body: Any) -> None:
        ticket = await services.trip(_bound, services, click, ticket_id)
        if ticket is None or click.user != ticket.requester:
            await _note(client, click, FOREIGN_NOTE)
            return
        reason = view.reason_view(ticket.id, click.channel, click.ts)
        await client.views_open(trigger_id=str(body.get("trigger_id") or ""), view=reason)

    on(view.ACTION_RESOLVE, resolve)
    on(view.ACTION_REOPEN, reopen)
    on(view.ACTION_CLAIM, claim)
    on(view.ACTION_HAND, hand)
    on(view.ACTION_RATE_UP, rate_up)
    on(view.ACTION_RATE_DOWN, rate_down)

    @app.view(view.VIEW_REASON)
    async def on_reason(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        services.work.spawn(_not_solved(services, client, body), name="ticket-reason")


def _feedback(
    services: BotServices, ticket: Ticket, user: str, kind: str, reason: str = ""
) -> None:
    """The requester's answer as feedback on the decision that filed the ticket (with why,
    when they said)."""
    decision_id = str(ticket.fields.get("decision_id") or "")
    if not decision_id:
        return
    try:
        services.brain.feedback(
            decision_id,
            kind,  # type: ignore[arg-type]
            user=user,
            source="slack-satisfaction",
            reason=reason,
        )
    except (UnknownDecision, TicketError) as exc:
        log.info("no feedback recorded for ticket %s: %s", ticket.id, exc)


async def _not_solved(services: BotServices, client: AsyncWebClient, body: dict[str, Any]) -> None:
    """The "what was wrong?" submission: the ticket reopens, the route is rejected, the
    reason (redacted) is kept in the ticket's history. Only the requester's counts."""
    try:
        meta = json.loads(str(body["view"].get("private_metadata") or "{}"))
        user = str(body["user"]["id"])
        values = body["view"]["state"]["values"]
    except (KeyError, TypeError, ValueError):
        return
    if not isinstance(meta, dict):  # metadata is ours, as JSON text: anything else is forged
        log.warning("dropped a 'what was wrong' submission with foreign metadata")
        return
    reason = submitted_reason(values)

    def apply() -> Ticket | None:
        store = ticket_store(services)
        ticket = store.get(str(meta.get("ticket") or ""))
        asked = ticket is not None and any(
            e.get("event") == "asked"
            and (e.get("channel"), e.get("ts")) == (meta.get("channel"), meta.get("ts"))
            for e in ticket.history
        )
        if ticket is None or not asked or ticket.requester != user:
            return None
        store.note(ticket.id, by=user, event="rated", answer="no", reason=reason)
        _feedback(services, ticket, user, "reject", reason=reason)
        return store.reopen(ticket.id, by=user, reason=reason) if not ticket.is_open else ticket

    ticket = await services.trip(apply)
    if ticket is None:
        log.warning("refused a 'what was wrong' submission by %s", user)
        return
    not_solved = say("rated_not_solved", False)
    await _in_thread(client, ticket, text=view.status_notice(ticket, user) + not_solved)
