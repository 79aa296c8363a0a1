"""The on-call alert's Acknowledge button.

Acknowledging stops re-escalation, so not everyone who can see an alert may do it: only a
click in the on-call channel counts, and with `[access] acknowledge = "group"` (the default)
only by a member of the user group `BRAIN_ONCALL_MENTION` names (read with
`usergroups.users.list`), by the user it names when it is a user id, or by one of
`[access] oncall_users`. Anyone else is told so privately and the button stays. With many
workspaces the alert must be one of the clicker's workspace (`core.access.same_workspace`):
another workspace's alert is as one that does not exist. Both rights are checked before the
click is claimed, so a refused click never uses up the button's one click.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks import ACTION_ACK
from bot.clicks import FOREIGN_NOTE, Click
from bot.helpdesk.rights import oncall_people
from bot.services import BotServices
from core.access import same_workspace

log = logging.getLogger(__name__)

NOT_ONCALL = "Only the on-call group can acknowledge this alert; it stays open."


async def may_acknowledge(services: BotServices, client: AsyncWebClient, click: Click) -> bool:
    """Whether this click may acknowledge an alert (see the module docstring)."""
    slack = services.settings.slack
    access = services.settings.access
    # The configured on-call channel, or one a channel's `[helpdesk.paging]` pages instead
    # (whose own mention, when it names one, says who is on call there).
    oncall = {slack.oncall_channel: slack.oncall_mention} if slack.oncall_channel else {}
    for paging in services.settings.helpdesk.paging.values():
        if paging.oncall_channel and paging.oncall_channel not in oncall:
            oncall[paging.oncall_channel] = paging.oncall_mention or slack.oncall_mention
    if click.channel not in oncall:
        return False
    if access.acknowledge == "channel" or click.user in access.oncall_users:
        return True
    people = await oncall_people(services, client, mention=oncall[click.channel] or "")
    return people is None or click.user in people


def register(app: AsyncApp, services: BotServices) -> None:
    """Register the Acknowledge listener."""

    @app.action(ACTION_ACK)
    async def on_acknowledge(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        click = Click.parse(body)  # None: not a click on a message (no user, no channel)
        if click is not None and click.value:
            services.work.spawn(_acknowledge(services, client, click))


async def _acknowledge(services: BotServices, client: AsyncWebClient, click: Click) -> None:
    if not await may_acknowledge(services, client, click):
        log.info("refused an Acknowledge by %s in %s", click.user, click.channel)
        await client.chat_postEphemeral(channel=click.channel, user=click.user, text=NOT_ONCALL)
        return
    alert = await asyncio.to_thread(services.escalations.get, click.value)
    if alert is None or not same_workspace(alert.team, services.workspace_of(click.body)):
        log.info(
            "refused an Acknowledge by %s: no alert %s in its workspace", click.user, click.value
        )
        await client.chat_postEphemeral(channel=click.channel, user=click.user, text=FOREIGN_NOTE)
        return
    if not services.events.claim(f"click:{click.channel}:{click.ts}"):
        return
    await services.escalations.acknowledge(
        client,
        alert_id=click.value,
        user=click.user,
        channel=click.channel,
        ts=click.ts,
        original_blocks=click.blocks,
    )
