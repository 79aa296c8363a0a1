"""`/brain-why [message link | decision id]`: an ephemeral explanation of a decision, and
`/brain-forget`: forget what the brain learned from the caller (and their texts).

Finding the decision and explaining it are one trip into the brain. Only a decision the asker
may see is explained (`[access] visible_to`: its requester and on-call by default); any other
id gets the same answer as an unknown one, so ids cannot be probed.
"""

from __future__ import annotations

import re
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp, AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks import escape, fallback_text, text_blocks
from bot.services import BotServices
from brain import Reply
from core.access import AccessPolicy, Viewer, same_workspace
from core.errors import UnknownDecision

COMMAND = "/brain-why"
FORGET_COMMAND = "/brain-forget"
#: https://team.slack.com/archives/C123ABC/p1700000000123456(?thread_ts=...)
PERMALINK = re.compile(r"/archives/([A-Z0-9]+)/p(\d{10})(\d{6})")


def resolve_target(
    services: BotServices, argument: str, *, user: str, channel: str, team: str | None = None
) -> tuple[str | None, str]:
    """(decision id, "") or (None, why not) for the command's argument (blocking)."""
    argument = argument.strip().strip("<>").split("|", 1)[0]
    if not argument:
        last = services.brain.last_decision(user, channel)
        if last is None or not same_workspace(last.team, team):
            return None, "You have no decision in this channel yet. Pass a message link or id."
        return last.decision_id, ""
    link = PERMALINK.search(argument)
    if link:
        found = services.links.find_ts(link.group(1), f"{link.group(2)}.{link.group(3)}")
        if found is None:
            return None, "I did not route that message, so there is nothing to explain."
        return found.decision_id, ""
    return argument, ""


def explain(
    services: BotServices, argument: str, *, user: str, channel: str, team: str | None = None
) -> Reply:
    """The explanation of the decision the argument names, or why there is none (blocking);
    `team`: the asker's Slack workspace (another workspace's decision is not known to them)."""
    decision_id, problem = resolve_target(services, argument, user=user, channel=channel, team=team)
    if decision_id is None:
        return Reply("error", problem)
    policy = AccessPolicy.of(services.settings.access)
    try:
        decision = services.brain.get_decision(decision_id)
    except UnknownDecision:
        decision = None
    if decision is None or not policy.may_see(
        owner=decision.user,
        channel=decision.channel,
        viewer=Viewer(user, channel, team),
        team=decision.team,
    ):
        return Reply("error", f"I know no decision {decision_id!r} that you may see.")
    return services.conversation.why(decision_id, team=team)


def register(app: AsyncApp, services: BotServices) -> None:
    """Register the slash command."""

    @app.command(COMMAND)
    async def on_why(
        ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond, client: AsyncWebClient
    ) -> None:
        await ack()
        services.work.spawn(_explain(services, command, respond, client))

    @app.command(FORGET_COMMAND)
    async def on_forget(
        ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond, client: AsyncWebClient
    ) -> None:
        await ack()
        services.work.spawn(_forget(services, command, respond, client))


async def _forget(
    services: BotServices, command: dict[str, Any], respond: AsyncRespond, client: AsyncWebClient
) -> None:
    user = str(command.get("user_id") or "")
    channel = str(command.get("channel_id") or "")
    reply = await services.trip(services.conversation.forget, user)
    if command.get("response_url"):
        await respond(text=fallback_text(reply.text), response_type="ephemeral")
    else:
        await client.chat_postEphemeral(channel=channel, user=user, text=fallback_text(reply.text))


async def _explain(
    services: BotServices, command: dict[str, Any], respond: AsyncRespond, client: AsyncWebClient
) -> None:
    user = str(command.get("user_id") or "")
    channel = str(command.get("channel_id") or "")
    reply = await services.trip(
        explain,
        services,
        str(command.get("text") or ""),
        user=user,
        channel=channel,
        team=services.workspace_of(command),
    )
    text = escape(reply.text)  # the error replies quote what the user typed
    blocks = text_blocks(reply.text, code=True) if reply.kind == "explain" else None
    if command.get("response_url"):
        await respond(
            text=fallback_text(text),
            blocks=blocks,
            response_type="ephemeral",
            replace_original=False,
        )
    else:
        await client.chat_postEphemeral(
            channel=channel, user=user, text=fallback_text(text), blocks=blocks
        )
