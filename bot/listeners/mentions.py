"""`app_mention` events: the bot answers wherever it is mentioned."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp, AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.listeners.messages import message_key, strip_mention, user_message
from bot.replies import answer_message
from bot.services import BotServices


def register(app: AsyncApp, services: BotServices) -> None:
    """Register the `app_mention` listener."""

    @app.event("app_mention")
    async def on_mention(
        event: dict[str, Any], context: AsyncBoltContext, client: AsyncWebClient
    ) -> None:
        if not user_message(event, context.bot_user_id):
            return
        key = message_key(event)
        if not services.events.claim(key):
            return
        text = strip_mention(str(event.get("text") or ""), context.bot_user_id)
        if not text:
            text = "/help"
        thread_ts = event.get("thread_ts")
        services.work.spawn(
            answer_message(
                services,
                client,
                text=text,
                user=str(event["user"]),
                channel=str(event["channel"]),
                ts=str(event["ts"]),
                thread_ts=str(thread_ts) if thread_ts else None,
            )
        )
