"""Button and select clicks on the bot's replies: Right, Route elsewhere, clarification answers.

Each click is acknowledged at once; the feedback is recorded through the conversation (the
brain's feedback API) in one trip into the brain, and the clicked message is updated (from the
returned reply alone) so it cannot be clicked twice.
Anyone who can see the message may click; the feedback is recorded with the clicker's id.
"""

from __future__ import annotations

import re
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks import (
    ACTION_CLARIFY_PREFIX,
    ACTION_CONFIRM,
    ACTION_HANDOFF,
    ACTION_REROUTE,
    BLOCK_CLARIFY,
    BLOCK_DECISION,
    BLOCK_REROUTE,
    clarify_note,
    fallback_text,
    resolved_blocks,
)
from bot.replies import escalate, post_reply
from bot.services import BotServices
from brain.reply import Reply


class Click:
    """The parts of a block_actions payload the listeners need."""

    def __init__(self, body: dict[str, Any]) -> None:
        action = body["actions"][0]
        message = body.get("message") or {}
        self.user = str(body["user"]["id"])
        self.channel = str((body.get("channel") or {}).get("id") or body["container"]["channel_id"])
        self.ts = str(message.get("ts") or body["container"]["message_ts"])
        self.thread_ts = str(message.get("thread_ts") or self.ts)
        self.blocks: list[dict[str, Any]] = list(message.get("blocks") or [])
        self.block_id = str(action.get("block_id") or "")
        selected = action.get("selected_option") or {}
        self.value = str(selected.get("value") or action.get("value") or "")

    def decision_id(self, *prefixes: str) -> str | None:
        """The decision id carried by the clicked block's id."""
        for prefix in prefixes:
            if self.block_id.startswith(prefix):
                return self.block_id[len(prefix) :]
        return None


def register(app: AsyncApp, services: BotServices) -> None:
    """Register the action listeners."""

    @app.action(ACTION_CONFIRM)
    async def on_confirm(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        click = Click(body)
        decision_id = click.value or click.decision_id(BLOCK_DECISION)
        if decision_id and _first_click(services, click):
            services.work.spawn(_confirm(services, client, click, decision_id))

    @app.action(ACTION_REROUTE)
    async def on_reroute(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        click = Click(body)
        decision_id = click.decision_id(BLOCK_DECISION, BLOCK_REROUTE)
        if decision_id and click.value and _first_click(services, click):
            services.work.spawn(_reroute(services, client, click, decision_id))

    @app.action(ACTION_HANDOFF)
    async def on_handoff(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        click = Click(body)
        decision_id = click.value or click.decision_id(BLOCK_DECISION)
        if decision_id and _first_click(services, click):
            services.work.spawn(_handoff(services, client, click, decision_id))

    @app.action(re.compile(f"^{ACTION_CLARIFY_PREFIX}"))
    async def on_clarify(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        click = Click(body)
        decision_id = click.decision_id(BLOCK_CLARIFY)
        if decision_id and click.value and _first_click(services, click):
            services.work.spawn(_clarify(services, client, click, decision_id))


def _first_click(services: BotServices, click: Click) -> bool:
    """One click per message: a double click or a retry is dropped."""
    return services.events.claim(f"click:{click.channel}:{click.ts}")


async def _resolve(client: AsyncWebClient, click: Click, note: str) -> None:
    await client.chat_update(
        channel=click.channel,
        ts=click.ts,
        text=fallback_text(note),
        blocks=resolved_blocks(click.blocks, note),
    )


async def _confirm(
    services: BotServices, client: AsyncWebClient, click: Click, decision_id: str
) -> None:
    await services.trip(
        services.conversation.confirm, decision_id, user=click.user, source="slack-button"
    )
    await _resolve(client, click, f"✅ confirmed by <@{click.user}>")


async def _handoff(
    services: BotServices, client: AsyncWebClient, click: Click, decision_id: str
) -> None:
    """The asker chose a person over the brain's honest boundary: page on-call with it."""
    conversation = services.conversation

    def shown() -> Reply:
        return conversation.render(conversation.brain.get_decision(decision_id))

    reply = await services.trip(shown)
    await _resolve(client, click, f"🙋 handed to a person by <@{click.user}>")
    await escalate(
        services,
        client,
        reply,
        channel=click.channel,
        thread_ts=click.thread_ts,
        asker=click.user,
        lead="You asked for a person",
    )


async def _reroute(
    services: BotServices, client: AsyncWebClient, click: Click, decision_id: str
) -> None:
    conversation = services.conversation
    reply = await services.trip(conversation.reroute, decision_id, click.value, user=click.user)
    label = reply.controller_label or click.value
    await _resolve(client, click, f"↪ rerouted to {label} by <@{click.user}>")
    await _post(services, client, click, reply, decision_id)


async def _clarify(
    services: BotServices, client: AsyncWebClient, click: Click, decision_id: str
) -> None:
    conversation = services.conversation
    reply = await services.trip(
        conversation.answer_clarification,
        decision_id,
        click.value,
        user=click.user,
        session_key=f"{click.channel}:{click.thread_ts}",
    )
    note = clarify_note(click.value, reply.controller_label or click.value, click.user)
    await _resolve(client, click, note)
    await _post(services, client, click, reply, decision_id)


async def _post(
    services: BotServices, client: AsyncWebClient, click: Click, reply: Reply, decision_id: str
) -> None:
    link = services.links.get(click.channel, click.ts)
    asker = link.asker if link else click.user
    await post_reply(
        services,
        client,
        reply,
        channel=click.channel,
        thread_ts=click.thread_ts,
        asker=asker,
        role="rerouted",
    )
