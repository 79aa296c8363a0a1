"""The help desk's listeners: App Home, the `/brain` modal and the "Send to the brain"
shortcut, the ticket buttons (bot/helpdesk/ticket_actions.py), and (many workspaces) Bolt's
token revocation listeners.

Each acknowledges at once and does its work in the background (`bot.work`).
"""

from __future__ import annotations

from slack_bolt.async_app import AsyncApp

from bot.helpdesk import home, modals, ticket_actions
from bot.helpdesk.modals import NEW_COMMAND, SHORTCUT
from bot.services import BotServices

__all__ = ["NEW_COMMAND", "SHORTCUT", "register"]


def register(app: AsyncApp, services: BotServices) -> None:
    """Register the help desk's listeners (before the catch-alls)."""
    if app.installation_store is not None:  # OAuth: an uninstall deletes the workspace's token
        app.enable_token_revocation_listeners()
    home.register(app, services)
    modals.register(app, services)
    ticket_actions.register(app, services)
