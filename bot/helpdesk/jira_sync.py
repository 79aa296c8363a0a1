"""The bot's side of the Jira connector (`controllers.ticket_systems`), run by the bot's loop
while `[tickets.jira]` is configured: every `send_every_s` the changes queued for Jira are
sent, every `poll_every_s` (or at once when Jira's webhook says something changed) Jira's own
changes are read back, and each one (a status change, an agent's public comment) is posted
once in the ticket's Slack thread.

The work with Jira runs in a worker thread (its HTTP calls block); one process of those sharing
the stores does it at a time (a lease), and each announcement is claimed in the event ledger
first, so a restart or a second replica never posts it twice. A failed round is logged and
the loop goes on: what was not sent stays in the outbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import os
import socket
import time
from typing import TYPE_CHECKING

from aiohttp import web
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks import escape
from bot.helpdesk.ticket_actions import ask_if_solved
from bot.posting import ClientFor, client_in
from bot.services import BotServices
from bot.teams import tell_team, ticket_store
from bot.wording import say
from controllers.ticket_systems.connector import JiraConnector, JiraNews
from controllers.ticket_systems.jira_client import JiraError

if TYPE_CHECKING:
    from core.config import Settings

log = logging.getLogger(__name__)

#: Where Jira's webhook (an admin webhook with a secret, on issue and comment events) posts.
WEBHOOK_PATH = "/jira/webhook"

#: The lease that lets one process of those sharing the stores talk to Jira.
LEASE = "jira-sync"


def announcement(news: JiraNews) -> str:
    """The thread message for one change made in Jira (the agent's words escaped), in
    English: a ticket does not record its asker's language."""
    ticket = news.ticket
    if news.kind == "comment":
        quoted = escape(news.text).replace("\n", "\n>")
        return _say("comment", who=escape(news.who), issue=news.issue, id=ticket.id, text=quoted)
    if news.kind == "moved":
        if not news.text:
            return _say("moved", id=ticket.id, issue=news.issue)
        return _say("moved_to_team", id=ticket.id, team=escape(news.text), issue=news.issue)
    if news.kind == "assignee":
        if not news.text:
            return _say("unassigned", id=ticket.id, issue=news.issue)
        who = news.text if news.text.startswith("<@") else f"*{escape(news.text)}*"
        return _say("assigned", id=ticket.id, who=who, issue=news.issue)
    return _say("status", id=ticket.id, status=escape(news.text), issue=news.issue)


def _say(key: str, **fields: str) -> str:
    return say(f"jira.{key}", False, **fields)


async def announce(
    services: BotServices,
    client: AsyncWebClient,
    news: list[JiraNews],
    client_for: ClientFor | None = None,
) -> int:
    """Post each change in its ticket's thread, once (in the ticket's workspace, with its
    client when there are many); how many were posted."""
    posted = 0
    for item in news:
        if not await services.events.take(f"jira:{item.ref}"):
            continue
        ticket = item.ticket
        poster = await client_in(client, client_for, ticket.slack_team)
        thread = str(ticket.fields.get("thread") or "") or None
        where = ticket.channel or ticket.requester
        await poster.chat_postMessage(channel=where, thread_ts=thread, text=announcement(item))
        posted += 1
        if item.kind == "status" and ticket.status == "resolved":
            # as when resolved in Slack: thumbs-up closes it (in Jira too), thumbs-down reopens it
            await ask_if_solved(services, poster, ticket)
        if item.kind == "moved" and item.text:  # handed to a team in Jira: as "Hand to team"
            why = f"moved to {item.issue} in Jira"
            await tell_team(services, poster, ticket, rationale=why, thread=thread or "")
    return posted


class JiraSync:
    """The bot's loop with Jira, and the webhook that wakes it (`poke`): Jira's webhook is
    only a hint that something changed; what changed is read from Jira's API by the poll, so
    a forged or replayed webhook can at most cause one more poll."""

    def __init__(
        self, services: BotServices, client: AsyncWebClient, *, client_for: ClientFor | None = None
    ) -> None:
        self.services = services
        self.client = client
        self.client_for = client_for
        self._woken: asyncio.Event | None = None

    def poke(self) -> None:
        """Poll Jira now instead of at the next `poll_every_s` (a webhook arrived)."""
        if self._woken is not None:
            self._woken.set()

    async def run(self) -> None:
        """The loop (returns at once when no Jira is configured)."""
        settings = self.services.settings
        config = settings.tickets.jira
        if config is None:
            return
        try:
            connector = JiraConnector.open(settings, ticket_store(self.services))
        except Exception:
            log.exception("the Jira connector cannot start; ticket changes stay queued")
            return
        if connector is None:
            return
        try:
            recovered = await asyncio.to_thread(connector.recover)
            if recovered:
                log.warning("queued %d ticket change(s) a crash had left out", recovered)
        except Exception:
            log.exception("the ticket history could not be checked for lost changes")
        self._woken = woken = asyncio.Event()
        holder = f"{socket.gethostname()}:{os.getpid()}:{id(connector)}"
        ttl = max(30.0, 3 * config.send_every_s)
        polled = 0.0
        try:
            while True:
                due = woken.is_set() or time.monotonic() - polled >= config.poll_every_s
                woken.clear()
                try:
                    await self._round(connector, holder, ttl, poll=due)
                except JiraError as exc:
                    log.warning("Jira cannot be read now (%s); trying again next time", exc)
                except Exception:
                    log.exception("the Jira sync round failed; trying again next time")
                if due:
                    polled = time.monotonic()  # a failed poll waits its turn as well
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(woken.wait(), timeout=config.send_every_s)
        finally:
            connector.close()

    async def _round(
        self, connector: JiraConnector, holder: str, ttl: float, *, poll: bool
    ) -> None:
        services = self.services
        if not await asyncio.to_thread(services.coordinator.lease, LEASE, holder, ttl):
            return  # another process of those sharing the stores talks to Jira
        await asyncio.to_thread(connector.send_due)
        if poll:
            result = await asyncio.to_thread(connector.poll)
            await announce(services, self.client, result.news, self.client_for)


def webhook_secret(settings: Settings) -> str | None:
    """The secret Jira signs its webhooks with (None: no webhook is served)."""
    config = settings.tickets.jira
    if config is None or not config.webhook_secret_env:
        return None
    return os.environ.get(config.webhook_secret_env) or None


def signed(secret: str, body: bytes, signature: str) -> bool:
    """Is `signature` (Jira's `X-Hub-Signature`, "sha256=<hex>") the HMAC of the body?"""
    expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature)


def mount(application: web.Application, sync: JiraSync, settings: Settings) -> None:
    """Serve `POST /jira/webhook` when `[tickets.jira] webhook_secret_env` names a secret
    that is set; a request not signed with it gets 401 and changes nothing."""
    secret = webhook_secret(settings)
    if secret is None:
        return

    async def webhook(request: web.Request) -> web.Response:
        body = await request.read()
        if not signed(secret, body, request.headers.get("X-Hub-Signature", "")):
            return web.json_response({"error": "invalid signature"}, status=401)
        sync.poke()
        return web.json_response({"ok": True})

    application.router.add_post(WEBHOOK_PATH, webhook)
