"""Reactions on the bot's replies: a thumbs-up confirms, a thumbs-down rejects and offers
"Route elsewhere".

Policy: only the asker's reactions count (a reaction by anyone else is ignored, because
others often react with a thumbs-up to mean "me too"). Buttons are the way for others to correct.
Like a click, a reaction from another Slack workspace than the decision's changes nothing
(`bot.helpdesk.rights.decision_in`).
"""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot import teams
from bot.helpdesk.rights import decision_in
from bot.replies import post_reply
from bot.services import BotServices
from brain import Reply

CONFIRM_REACTIONS = frozenset({"+1", "thumbsup"})
REJECT_REACTIONS = frozenset({"-1", "thumbsdown"})
#: Roles of bot messages a reaction gives feedback on.
FEEDBACK_ROLES = frozenset({"reply"})


def reaction_name(raw: str) -> str:
    """`+1::skin-tone-3` -> `+1`."""
    return raw.split("::", 1)[0]


def register(app: AsyncApp, services: BotServices) -> None:
    """Register the `reaction_added` listener."""

    @app.event("reaction_added")
    async def on_reaction(
        event: dict[str, Any], body: dict[str, Any], client: AsyncWebClient
    ) -> None:
        item = event.get("item") or {}
        name = reaction_name(str(event.get("reaction") or ""))
        if item.get("type") != "message" or name not in CONFIRM_REACTIONS | REJECT_REACTIONS:
            return
        services.work.spawn(
            _feedback(
                services,
                client,
                user=str(event.get("user") or ""),
                channel=str(item.get("channel") or ""),
                ts=str(item.get("ts") or ""),
                confirm=name in CONFIRM_REACTIONS,
                team=services.workspace_of(body),
            )
        )


async def _feedback(
    services: BotServices,
    client: AsyncWebClient,
    *,
    user: str,
    channel: str,
    ts: str,
    confirm: bool,
    team: str | None,
) -> None:
    link = services.links.get(channel, ts)
    if link is None or link.role not in FEEDBACK_ROLES or link.asker != user:
        return
    conversation = services.conversation

    def confirmed() -> None:
        if decision_in(services, link.decision_id, team) is not None:
            conversation.confirm(link.decision_id, user=user, source="slack-reaction")

    if confirm:
        await services.trip(confirmed)
        return

    def rejected() -> Reply | None:
        if decision_in(services, link.decision_id, team) is None:
            return None
        reply: Reply = conversation.reject(
            link.decision_id,
            user=user,
            source="slack-reaction",
            session_key=f"{channel}:{link.thread_ts}",
        )
        return teams.queue_in_trip(services, reply)

    reply = await services.trip(rejected)
    if reply is None:
        return
    await post_reply(
        services,
        client,
        reply,
        channel=channel,
        thread_ts=link.thread_ts,
        asker=link.asker,
        role="reroute",
    )
