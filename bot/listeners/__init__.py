"""One listener module per Slack event kind; `register_all` wires them in matching order."""

from __future__ import annotations

from slack_bolt.async_app import AsyncApp

from bot.listeners import (
    actions,
    commands,
    dedupe,
    helpdesk,
    ignored,
    mentions,
    messages,
    oncall,
    reactions,
    reasons,
)
from bot.services import BotServices

#: Bot events the listeners subscribe to (manifest.yml must list exactly these).
BOT_EVENTS: tuple[str, ...] = (
    "app_mention",
    "message.channels",
    "message.groups",
    "message.im",
    "message.mpim",
    "reaction_added",
    "app_home_opened",  # bot/listeners/home.py
    "app_uninstalled",  # bot/oauth.py: the workspace's token is deleted
    "tokens_revoked",
)
#: Bot token scopes the listeners and Web API calls need (manifest.yml must list exactly these).
BOT_SCOPES: tuple[str, ...] = (
    "app_mentions:read",  # app_mention
    "channels:history",  # message.channels
    "groups:history",  # message.groups
    "im:history",  # message.im
    "mpim:history",  # message.mpim
    "reactions:read",  # reaction_added
    "chat:write",  # chat.postMessage, chat.update, chat.postEphemeral
    "commands",  # /brain-why
    "usergroups:read",  # usergroups.users.list: who may Acknowledge an on-call alert
)
#: Message shortcuts' callback ids.
SHORTCUTS: tuple[str, ...] = (helpdesk.SHORTCUT,)
#: Slash commands the app answers.
SLASH_COMMANDS: tuple[str, ...] = (commands.COMMAND, commands.FORGET_COMMAND, helpdesk.NEW_COMMAND)


def register_all(app: AsyncApp, services: BotServices) -> None:
    """Register middleware and listeners; the catch-alls go last so nothing gets a 404."""
    dedupe.register(app, services)
    messages.register(app, services)
    mentions.register(app, services)
    reactions.register(app, services)
    reasons.register(app, services)
    actions.register(app, services)
    oncall.register(app, services)
    commands.register(app, services)
    helpdesk.register(app, services)
    ignored.register(app, services)
