"""The console as an aiohttp application: mounted at `/console` on the bot's server (when
`[console] enabled`), or served alone by `brain console`."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import web

from console.admin_pages import AdminPages
from console.pages import DecisionPages
from console.security import Sessions, gate
from console.signin import SignIn
from console.state import ConsoleState
from core.config import Settings
from core.limits import MAX_REQUEST_BYTES

if TYPE_CHECKING:
    from brain import Brain

log = logging.getLogger(__name__)
PREFIX = "/console"
STATIC = Path(__file__).with_name("static")


def console_app(settings: Settings, brain: Callable[[], Brain]) -> web.Application:
    """The console's routes behind its gate (sessions, admins, CSRF)."""
    sessions = Sessions(settings.console)
    state = ConsoleState(settings, brain)
    app = web.Application(middlewares=[gate(sessions)], client_max_size=MAX_REQUEST_BYTES)
    app.add_routes(SignIn(settings, sessions).routes())
    app.add_routes(DecisionPages(state).routes())
    app.add_routes(AdminPages(state).routes())
    app.router.add_static("/static", STATIC, show_index=False)
    return app


def mount(parent: web.Application, settings: Settings, brain: Callable[[], Brain]) -> None:
    """Add the console under `/console` to `parent` (the bot's server)."""
    parent.add_subapp(PREFIX, console_app(settings, brain))
    parent.router.add_get(PREFIX, _to_console)


async def _to_console(_: web.Request) -> web.StreamResponse:
    raise web.HTTPSeeOther(PREFIX + "/")


def enabled(settings: Settings) -> bool:
    """Is the console on? Enabled, with a way in (the admin token or Slack sign-in)."""
    config = settings.console
    way_in = config.admin_token is not None or bool(
        config.slack_client_id and config.slack_client_secret
    )
    if config.enabled and not way_in:
        log.warning("[console] enabled but no admin token or Slack sign-in: it stays off")
    return config.enabled and way_in


def standalone(settings: Settings, brain: Callable[[], Brain]) -> web.Application:
    """The console alone (`brain console`)."""
    root = web.Application(client_max_size=MAX_REQUEST_BYTES)
    mount(root, settings, brain)
    return root
