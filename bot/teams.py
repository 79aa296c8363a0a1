"""Owning teams: a filed ticket gets its buttons in the thread and is queued for the team
owning its controller (`[helpdesk.teams]`, core/teams.py), whose channel is told once, with
the ticket, the brain's rationale and a Claim button.

The notice is recorded in the ticket's history (`team_notified`, with the message's channel
and ts): that record is also what binds a click on the team channel's buttons to the ticket.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks import defang, escape, fallback_text, priority_blocks, with_team_sends
from bot.posting import permalink_of
from bot.services import BotServices
from bot.ticket_view import team_blocks, ticket_of, with_ticket_actions
from brain import Reply
from controllers.tickets import Ticket, TicketStore
from core.errors import ConfigError

log = logging.getLogger(__name__)


def ticket_store(services: BotServices) -> TicketStore:
    """The brain's ticket store (the one the controllers file into)."""
    store = services.brain.services.tickets
    if store is None:  # a brain always has one; a test double may not
        raise ConfigError("this brain files no tickets: it has no ticket store")
    return store


def team_names(services: BotServices) -> list[str]:
    """The configured teams, for "Hand to team"."""
    return list(services.settings.helpdesk.teams)


def reply_blocks(
    services: BotServices, reply: Reply, blocks: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """A reply's blocks, with the ticket's buttons when the reply filed or updated one, and
    "Send to team ..." beside "Send to a person" when teams are configured."""
    zh = reply.decision is not None and reply.decision.in_chinese
    if reply.decision is not None and reply.kind in ("fallback", "clarify"):
        blocks = with_team_sends(blocks, reply.decision.decision_id, team_names(services), zh=zh)
    ticket_id = ticket_of(reply)
    if ticket_id is None or reply.decision is None or reply.decision.result is None:
        return blocks
    status = str(reply.decision.result.data["ticket"].get("status") or "open")
    return with_ticket_actions(blocks, ticket_id, status, team_names(services), zh=zh)


def _due_notice(ticket: Ticket, team: str) -> bool:
    """The team was not told since the ticket was (last) handed to it."""
    for entry in reversed(ticket.history):
        if entry.get("event") == "team_notified":
            return entry.get("team") != team
        if entry.get("event") == "handed":
            return True
    return True


def _queue(services: BotServices, ticket_id: str, controller: str | None) -> Ticket | None:
    """In the brain worker: the open ticket, queued for its owning team, when one is due a
    notice (None otherwise)."""
    store = ticket_store(services)
    config = services.settings.helpdesk
    ticket = store.get(ticket_id)
    if ticket is None or not ticket.is_open:
        return None
    team = ticket.team or config.team_of_ticket(controller, ticket)
    if team is None or team not in config.teams or not _due_notice(ticket, team):
        return None
    if ticket.team != team:
        ticket = store.update_fields(ticket.id, by="brain", fields={"team": team})
    return ticket


def queue_in_trip(services: BotServices, reply: Reply) -> Reply:
    """In the brain worker, in the trip that made `reply`: queue its ticket for the owning
    team, kept for `notify_team`, so one message (or click) stays one trip into the brain."""
    ticket_id = ticket_of(reply)
    if ticket_id is not None and reply.decision is not None:
        services.queued[ticket_id] = _queue(services, ticket_id, reply.decision.controller)
    return reply


async def notify_team(
    services: BotServices, client: AsyncWebClient, reply: Reply, *, channel: str, thread_ts: str
) -> None:
    """Tell the owning team's channel about the reply's ticket (once per hand-off)."""
    ticket_id = ticket_of(reply)
    if ticket_id is None or reply.decision is None:
        return
    if ticket_id in services.queued:  # queued in the trip that made the reply
        ticket: Ticket | None = services.queued.pop(ticket_id)  # type: ignore[assignment]
    else:
        ticket = await services.trip(_queue, services, ticket_id, reply.decision.controller)
    if ticket is not None:
        await tell_team(services, client, ticket, rationale=reply.rationale, thread=thread_ts)


async def tell_team(
    services: BotServices, client: AsyncWebClient, ticket: Ticket, *, rationale: str, thread: str
) -> None:
    """Post the ticket in its team's channel and record the notice (its ts binds clicks)."""
    team = ticket.team or ""
    config = services.settings.helpdesk.teams.get(team)
    if config is None or not config.channel:
        return
    handed = sum(1 for entry in ticket.history if entry.get("event") == "handed")
    if not services.events.claim(f"team-notice:{ticket.id}:{handed}"):
        return  # another replica (or a retry) told the team already
    permalink = await permalink_of(client, ticket.channel, thread) if ticket.channel else None
    posted = await client.chat_postMessage(
        channel=config.channel,
        text=fallback_text(f"New ticket {ticket.id} for {team}"),
        blocks=team_blocks(ticket, team, rationale, permalink, team_names(services)),
    )
    store = ticket_store(services)
    await services.trip(
        store.note,
        ticket.id,
        by="brain",
        event="team_notified",
        team=team,
        channel=str(posted.get("channel") or config.channel),
        ts=str(posted["ts"]),
    )


async def notify_priority(
    services: BotServices,
    client: AsyncWebClient,
    reply: Reply,
    *,
    channel: str,
    thread_ts: str,
    asker: str,
    instead_of_page: bool = False,
) -> bool:
    """Tell the owning team's channel about a P2 decision (P2 notifies the owning
    team where one is configured), or about a P1 whose channel notifies instead of paging
    (`instead_of_page`); the asker is told in the thread. Whether a team was told (a retry
    that finds it told already counts). A P2 that filed a ticket is told by the ticket's own
    notice (`notify_team`), not twice."""
    decision = reply.decision
    record = decision.escalation if decision is not None else None
    if decision is None or record is None:
        return False
    if not instead_of_page and (record.priority != "P2" or ticket_of(reply) is not None):
        return False
    config = services.settings.helpdesk
    category = next(iter(decision.entities.get("category") or []), None)
    team = config.team_for(decision.controller, category)
    team_config = config.teams.get(team or "")
    if team is None or team_config is None or not team_config.channel:
        return False
    if not services.events.claim(f"priority-notice:{decision.decision_id}"):
        return True
    permalink = await permalink_of(client, channel, thread_ts)
    await client.chat_postMessage(
        channel=team_config.channel,
        text=fallback_text(
            f"{record.priority} for {team} from <@{asker}>: {escape(defang(decision.text))}"
        ),
        blocks=priority_blocks(
            team=team,
            priority=record.priority,
            asker=asker,
            text=decision.text,
            permalink=permalink,
            summary=reply.summary,
        ),
        parse="none",
        link_names=False,
    )
    why = "on-call is not paged from this channel" if instead_of_page else "not paged"
    await client.chat_postMessage(
        channel=channel,
        thread_ts=thread_ts,
        text=f"{record.priority} ({why}): I told the {team} team in <#{team_config.channel}>.",
    )
    return True
