"""The on-call alert's Acknowledge button."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks import ACTION_ACK
from bot.listeners.actions import Click
from bot.services import BotServices


def register(app: AsyncApp, services: BotServices) -> None:
    """Register the Acknowledge listener."""

    @app.action(ACTION_ACK)
    async def on_acknowledge(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        click = Click(body)
        if not click.value or not services.events.claim(f"click:{click.channel}:{click.ts}"):
            return
        services.work.spawn(
            services.escalations.acknowledge(
                client,
                alert_id=click.value,
                user=click.user,
                channel=click.channel,
                ts=click.ts,
                original_blocks=click.blocks,
            )
        )
