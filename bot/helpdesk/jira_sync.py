"""The bot's side of the Jira connector (`controllers.ticket_systems`), run by the bot's loop
while `[tickets.jira]` is configured: every `send_every_s` the changes queued for Jira are
sent, every `poll_every_s` Jira's own changes are read back, and each one (a status change, an
agent's public comment) is posted once in the ticket's Slack thread.

The work with Jira runs in a worker thread (its HTTP calls block); one process of those sharing
the stores does it at a time (a lease), and each announcement is claimed in the event ledger
first, so a restart or a second replica never posts it twice. A failed round is logged and
the loop goes on: what was not sent stays in the outbox.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable

from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks import escape
from bot.services import BotServices
from bot.teams import ticket_store
from controllers.ticket_systems.connector import JiraConnector, JiraNews
from controllers.ticket_systems.jira_client import JiraError

log = logging.getLogger(__name__)

COMMENT = "💬 *{who}* answered in Jira ({issue}) on ticket `{id}`:\n>{text}"
STATUS = "🔄 Ticket `{id}` is now *{status}* in Jira ({issue})."
RESOLVED = " Reply here or reopen it if it is not solved for you."
#: The lease that lets one process of those sharing the stores talk to Jira.
LEASE = "jira-sync"


def announcement(news: JiraNews) -> str:
    """The thread message for one change made in Jira (the agent's words escaped)."""
    ticket = news.ticket
    if news.kind == "comment":
        quoted = escape(news.text).replace("\n", "\n>")
        return COMMENT.format(who=escape(news.who), issue=news.issue, id=ticket.id, text=quoted)
    text = STATUS.format(id=ticket.id, status=escape(news.text), issue=news.issue)
    return text + (RESOLVED if ticket.status in ("resolved", "closed") else "")


async def announce(services: BotServices, client: AsyncWebClient, news: list[JiraNews]) -> int:
    """Post each change in its ticket's thread, once; how many were posted."""
    posted = 0
    for item in news:
        if not await services.events.take(f"jira:{item.ref}"):
            continue
        ticket = item.ticket
        thread = str(ticket.fields.get("thread") or "") or None
        where = ticket.channel or ticket.requester
        await client.chat_postMessage(channel=where, thread_ts=thread, text=announcement(item))
        posted += 1
    return posted


async def run(
    services: BotServices,
    client: AsyncWebClient,
    wait: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> None:
    """The bot's loop (returns at once when no Jira is configured)."""
    config = services.settings.tickets.jira
    if config is None:
        return
    try:
        connector = JiraConnector.open(services.settings, ticket_store(services))
    except Exception:
        log.exception("the Jira connector cannot start; ticket changes stay queued")
        return
    if connector is None:
        return
    holder = f"{socket.gethostname()}:{os.getpid()}:{id(connector)}"
    ttl = max(30.0, 3 * config.send_every_s)
    polled = 0.0
    try:
        while True:
            try:
                if await asyncio.to_thread(services.coordinator.lease, LEASE, holder, ttl):
                    await asyncio.to_thread(connector.send_due)
                    if time.monotonic() - polled >= config.poll_every_s:
                        polled = time.monotonic()  # a failed poll waits its turn as well
                        result = await asyncio.to_thread(connector.poll)
                        await announce(services, client, result.news)
            except JiraError as exc:
                log.warning("Jira cannot be read now (%s); trying again next time", exc)
            except Exception:
                log.exception("the Jira sync round failed; trying again next time")
            await wait(config.send_every_s)
    finally:
        connector.close()
