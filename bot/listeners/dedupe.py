"""Global middleware: each Slack event is taken once, however often Slack retries it, and a
user's message is answered even when the replica that acknowledged it dies."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncApp, AsyncBoltContext, AsyncBoltRequest
from slack_bolt.response import BoltResponse

from bot.listeners.messages import user_message
from bot.services import BotServices
from core.redact import redact

log = logging.getLogger(__name__)


#: Event types the bot answers with a reply: their claim is owed an answer (`bot.state`).
ANSWERED = frozenset({"message", "app_mention"})


#: The event fields a listener reads to answer it again; the rest (blocks, files, ...) is
#: not kept, since it repeats the text.
REPLAYED_FIELDS = (
    "type",
    "subtype",
    "user",
    "bot_id",
    "bot_profile",
    "channel",
    "channel_type",
    "ts",
    "thread_ts",
)


def replayable(body: dict[str, Any]) -> dict[str, Any]:
    """What answering the event again needs (kept with its claim until it is answered): the
    event's routing fields and its text redacted (what users type is never stored verbatim,
    the decision log's rule), and who the bot is, not the request's verification token."""
    event = body.get("event") or {}
    kept = {name: event[name] for name in REPLAYED_FIELDS if name in event}
    kept["text"] = redact(str(event.get("text") or ""))
    return {
        "event_id": body.get("event_id"),
        "event": kept,
        "authorizations": body.get("authorizations") or [],
    }


def register(app: AsyncApp, services: BotServices) -> None:
    """Drop (with a 200) events whose event_id was already taken; claim a user's message as
    owed an answer (given again by another replica if this one dies before answering)."""

    @app.middleware
    async def drop_retried_events(
        req: AsyncBoltRequest,
        body: dict[str, Any],
        context: AsyncBoltContext,
        next: Callable[[], Awaitable[None]],
    ) -> BoltResponse | None:
        event_id = body.get("event_id") if body.get("type") == "event_callback" else None
        event = body.get("event") or {}
        owed = event.get("type") in ANSWERED and user_message(event, context.bot_user_id)
        kept = replayable(body) if owed else None
        taken = True
        if event_id:
            started = time.perf_counter()
            taken = await services.events.take(f"event:{event_id}", owed=owed, payload=kept)
            services.metrics.claim_seconds.observe(time.perf_counter() - started)
        if not taken:
            retry = req.headers.get("x-slack-retry-num", [""])[0] or body.get("retry_attempt", "")
            log.debug(
                "event %s already taken (retry %s); acknowledged and dropped", event_id, retry
            )
            return BoltResponse(status=200, body="")
        await next()
        return None
