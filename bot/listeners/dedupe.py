"""Global middleware: each Slack event is taken once, however often Slack retries it."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncApp, AsyncBoltRequest
from slack_bolt.response import BoltResponse

from bot.services import BotServices

log = logging.getLogger(__name__)


def register(app: AsyncApp, services: BotServices) -> None:
    """Drop (with a 200) events whose event_id was already taken."""

    @app.middleware
    async def drop_retried_events(
        req: AsyncBoltRequest, body: dict[str, Any], next: Callable[[], Awaitable[None]]
    ) -> BoltResponse | None:
        event_id = body.get("event_id") if body.get("type") == "event_callback" else None
        if event_id and not await services.events.take(f"event:{event_id}"):
            retry = req.headers.get("x-slack-retry-num", [""])[0] or body.get("retry_attempt", "")
            log.debug(
                "event %s already taken (retry %s); acknowledged and dropped", event_id, retry
            )
            return BoltResponse(status=200, body="")
        await next()
        return None
