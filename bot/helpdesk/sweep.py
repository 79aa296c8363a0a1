"""The help desk's background sweep, run by the bot's loop every `[helpdesk] sweep_every_s`:
a ticket waiting on its requester is nudged after `nudge_after_s` and closed (with a notice)
`close_after_s` after the nudge; a team's unclaimed ticket past its SLA (working time, per
priority) warns the team, and past twice the SLA is escalated to on-call.

Time is the ticket store's clock (`TicketStore.clock`), so tests move it instead of waiting.
Each step is written to the ticket's history before it is announced, and claimed in the
event ledger, so two replicas sweeping at once announce it once. With many workspaces each
ticket's notices go out with its workspace's token (`bot.posting`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from slack_sdk.web.async_client import AsyncWebClient

from bot.helpdesk.digest import DigestPost, due_digests, post_digests
from bot.posting import ClientFor, client_in
from bot.services import BotServices
from bot.teams import ticket_store
from bot.wording import say
from controllers.tickets import Ticket
from core.teams import ticket_priority

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Step:
    """One thing the sweep did to a ticket, to announce."""

    kind: str  # "nudged" | "closed" | "sla_warned" | "sla_escalated"
    ticket: Ticket


def _at(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp)


def _done(ticket: Ticket, event: str) -> bool:
    return any(entry.get("event") == event for entry in ticket.history)


def due_steps(services: BotServices) -> list[Step]:
    """In the brain worker: apply what is due now and return it."""
    store = ticket_store(services)
    config = services.settings.helpdesk
    now = store.clock()
    steps: list[Step] = []
    for ticket in store.all():
        idle = (now - _at(ticket.updated_at)).total_seconds()
        last = ticket.history[-1].get("event") if ticket.history else ""
        if ticket.status == "awaiting_info":
            if last == "nudged" and idle >= config.close_after_s:
                closed = store.close(ticket.id, by="brain", reason="no answer from the requester")
                steps.append(Step("closed", closed))
            elif last != "nudged" and idle >= config.nudge_after_s:
                steps.append(Step("nudged", store.note(ticket.id, by="brain", event="nudged")))
            continue
        team = config.teams.get(ticket.team or "")
        if team is None or not ticket.is_open or ticket.assignee:
            continue
        sla = team.sla_for(ticket_priority(ticket))
        age = team.working_seconds(_at(ticket.created_at), now)
        if age >= 2 * sla and not _done(ticket, "sla_escalated"):
            steps.append(
                Step("sla_escalated", store.note(ticket.id, by="brain", event="sla_escalated"))
            )
        elif age >= sla and not _done(ticket, "sla_warned"):
            steps.append(Step("sla_warned", store.note(ticket.id, by="brain", event="sla_warned")))
    return steps


async def sweep(
    services: BotServices, client: AsyncWebClient, client_for: ClientFor | None = None
) -> list[Step]:
    """One sweep: apply what is due, announce each step once (in the ticket's workspace, with
    its client from `client_for` when given), then post the teams' daily digests that are due
    (`bot.helpdesk.digest`): one trip into the brain for both. A notice that cannot be posted
    (a workspace that uninstalled the app) is logged and the others still go out."""
    steps, digests = await services.trip(_due, services)
    for step in steps:
        ticket = step.ticket
        if not services.events.claim(f"sweep:{ticket.id}:{step.kind}:{len(ticket.history)}"):
            continue
        try:
            await _announce(services, await client_in(client, client_for, ticket.slack_team), step)
        except Exception:
            log.exception("the sweep could not announce %s of ticket %s", step.kind, ticket.id)
    await post_digests(client, digests, client_for)
    return steps


async def _announce(services: BotServices, client: AsyncWebClient, step: Step) -> None:
    ticket = step.ticket
    thread = str(ticket.fields.get("thread") or "") or None
    where = ticket.channel or ticket.requester
    if step.kind == "nudged":
        text = say("sweep.nudge", False, who=f"<@{ticket.requester}>", id=ticket.id)
        await client.chat_postMessage(channel=where, thread_ts=thread, text=text)
    elif step.kind == "closed":
        text = say("sweep.closed", False, who=f"<@{ticket.requester}>", id=ticket.id)
        await client.chat_postMessage(channel=where, thread_ts=thread, text=text)
    elif step.kind == "sla_warned":
        await _warn_team(services, client, ticket)
    else:
        await _escalate(services, client, ticket, thread or "")


def _due(services: BotServices) -> tuple[list[Step], list[DigestPost]]:
    return due_steps(services), due_digests(services)


async def _warn_team(services: BotServices, client: AsyncWebClient, ticket: Ticket) -> None:
    team = services.settings.helpdesk.teams.get(ticket.team or "")
    if team is not None and team.channel:
        text = say("sweep.sla_warning", False, id=ticket.id, priority=ticket_priority(ticket))
        await client.chat_postMessage(channel=team.channel, text=text)


async def _escalate(
    services: BotServices, client: AsyncWebClient, ticket: Ticket, thread: str
) -> None:
    """Twice past the SLA: on-call is paged (as for an urgent message), the team told."""
    await services.escalations.escalate(
        client,
        decision_id=str(ticket.fields.get("decision_id") or ticket.id),
        asker=ticket.requester,
        text=ticket.title,
        urgency="high",
        summary=f"Ticket {ticket.id} of team {ticket.team} is twice past its SLA, unclaimed.",
        channel=ticket.channel or ticket.requester,
        thread_ts=thread,
        team=ticket.slack_team,  # the alert is acknowledged from the ticket's workspace only
    )
    await _warn_team(services, client, ticket)


async def run(
    services: BotServices,
    client: AsyncWebClient,
    wait: Callable[[float], Awaitable[None]] = asyncio.sleep,
    client_for: ClientFor | None = None,
) -> None:
    """The bot's loop: sweep, wait, again (a failed sweep is logged, the loop goes on)."""
    while True:
        try:
            await sweep(services, client, client_for)
        except Exception:
            log.exception("the help desk sweep failed; trying again next time")
        await wait(services.settings.helpdesk.sweep_every_s)
