"""Posting outside any request (the sweep's nudges and warnings, digests, Jira's news, on-call
re-sends): the
shared Web API client holds the one bot token, and with many workspaces (OAuth installs) it
holds none, so each workspace's messages go through that workspace's installation
(`SlackBot.client_for`); posting one workspace's notice with another's token would show its
records there.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

log = logging.getLogger(__name__)

#: The Web API client to post in a workspace with (`SlackBot.client_for`).
ClientFor = Callable[[str | None], Awaitable[AsyncWebClient]]


async def client_in(
    client: AsyncWebClient, client_for: ClientFor | None, workspace: str | None
) -> AsyncWebClient:
    """The client to post in `workspace` with: its installation's when `client_for` is given
    (the bot's loops), else `client` (one workspace, or a caller that has only the one)."""
    if client_for is None:
        return client
    return await client_for(workspace)


async def permalink_of(client: AsyncWebClient, channel: str, ts: str) -> str | None:
    """The link to message `ts` of `channel` that a notice elsewhere points to, None when
    Slack gives none (the notice is still posted, without it)."""
    try:
        found = await client.chat_getPermalink(channel=channel, message_ts=ts)
    except SlackApiError as exc:
        log.warning("no permalink for %s/%s: %s", channel, ts, exc.response.get("error"))
        return None
    return str(found.get("permalink") or "") or None
