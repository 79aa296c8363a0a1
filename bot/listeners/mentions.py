"""`app_mention` events: the bot answers wherever it is mentioned."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.listeners.messages import listen, message_key, plain_text, user_message
from bot.replies import answer_message
from bot.services import BotServices
from bot.wording import say

#: What a mention without words is answered (in English: there is no message to read its
#: language from).
SLACK_HELP = say("help", False)


def register(app: AsyncApp, services: BotServices) -> None:
    """Register the `app_mention` listener."""
    listen(app, services, "app_mention", handle)


async def handle(
    services: BotServices,
    client: AsyncWebClient,
    event: dict[str, Any],
    claim: str,
    bot_user_id: str | None,
    *,
    team: str | None = None,
    again: bool = False,
) -> None:
    """Answer one mention of workspace `team` (its claim settled just before the answer is
    sent). `again`: its first owner died before answering (`bot.recovery`)."""
    key = message_key(event)
    if not user_message(event, bot_user_id) or not await services.events.take(
        key, owed=True, again=again
    ):
        await services.events.release(claim)
        return
    text = plain_text(str(event.get("text") or ""), bot_user_id)
    thread_ts = event.get("thread_ts")
    if not text:
        if await services.events.settle(claim, key):
            await client.chat_postMessage(
                channel=str(event["channel"]),
                thread_ts=str(thread_ts or event["ts"]),
                text=SLACK_HELP,
            )
            await services.events.confirm(claim, key)
        return
    await answer_message(
        services,
        client,
        text=text,
        user=str(event["user"]),
        channel=str(event["channel"]),
        ts=str(event["ts"]),
        thread_ts=str(thread_ts) if thread_ts else None,
        claims=(claim, key),
        team=team,
    )
