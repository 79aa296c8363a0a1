"""One listener module per Slack event kind; `register_all` wires them in matching order."""

from __future__ import annotations

from slack_bolt.async_app import AsyncApp

from bot.listeners import actions, commands, dedupe, ignored, mentions, messages, oncall, reactions
from bot.services import BotServices


def register_all(app: AsyncApp, services: BotServices) -> None:
    """Register middleware and listeners; the catch-alls go last so nothing gets a 404."""
    dedupe.register(app, services)
    messages.register(app, services)
    mentions.register(app, services)
    reactions.register(app, services)
    actions.register(app, services)
    oncall.register(app, services)
    commands.register(app, services)
    ignored.register(app, services)
