"""Catch-alls registered last: anything else is acknowledged with a 200 and ignored.

Bolt answers an unmatched request with 404, which makes Slack retry; these listeners make
sure every event, click and command the bot does not act on is simply acknowledged.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp

from bot.services import BotServices

log = logging.getLogger(__name__)
ANYTHING = re.compile(".*")


def register(app: AsyncApp, services: BotServices) -> None:
    """Register the catch-alls."""

    @app.event(ANYTHING)
    async def ignore_event(event: dict[str, Any]) -> None:
        log.debug("ignored event %s", event.get("type"))

    @app.action(ANYTHING)
    async def ignore_action(ack: AsyncAck) -> None:
        await ack()

    @app.command(ANYTHING)
    async def unknown_command(ack: AsyncAck, command: dict[str, Any]) -> None:
        await ack(f"I do not know {command.get('command')}; try /brain-why.")

    @app.options(ANYTHING)
    async def no_options(ack: AsyncAck) -> None:
        await ack(options=[])

    @app.shortcut(ANYTHING)
    async def ignore_shortcut(ack: AsyncAck) -> None:
        await ack()

    @app.view(ANYTHING)
    async def ignore_view(ack: AsyncAck) -> None:
        await ack()

    @app.view_closed(ANYTHING)
    async def ignore_closed_view(ack: AsyncAck) -> None:
        await ack()
