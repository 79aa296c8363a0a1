"""`brain run [--http] [--port N]`: the Slack bot, in the mode the environment sets up.

Three modes, as docs/operating.md documents them: Socket Mode (`SLACK_APP_TOKEN` set, no
`--http`), HTTP for one workspace (`SLACK_BOT_TOKEN`), and HTTP for many workspaces through
Slack's OAuth install (`SLACK_CLIENT_ID`, `SLACK_CLIENT_SECRET`, `BRAIN_TOKEN_KEY` and no bot token:
`bot/oauth.py` serves `/slack/install`). A mode that lacks a variable is refused before
anything opens, naming exactly what that mode still needs.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Any

#: The variables that say the operator is setting up the many-workspace (OAuth) mode.
_OAUTH_VARIABLES = ("SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET", "BRAIN_TOKEN_KEY")


@dataclass(frozen=True, slots=True)
class Mode:
    """One way `brain run` serves Slack: its name in messages and the variables it needs."""

    name: str
    needs: tuple[str, ...]


SOCKET_MODE = Mode("Socket Mode", ("SLACK_APP_TOKEN", "SLACK_BOT_TOKEN"))
HTTP_MODE = Mode("HTTP mode", ("SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET"))
OAUTH_MODE = Mode(
    "HTTP mode for many workspaces (OAuth install)", (*_OAUTH_VARIABLES, "SLACK_SIGNING_SECRET")
)


def register(subparsers: Any) -> None:
    """Add the `run` sub-command."""
    parser = subparsers.add_parser(
        "run",
        help="run the Slack bot",
        description="Serve the Slack bot: Socket Mode when SLACK_APP_TOKEN is set (unless --http), "
        "else HTTP on /slack/events (health check on /healthz). Socket Mode needs "
        "SLACK_BOT_TOKEN; HTTP needs SLACK_SIGNING_SECRET and either SLACK_BOT_TOKEN (one "
        "workspace) or, for many workspaces, SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and "
        "BRAIN_TOKEN_KEY (Slack's install flow on /slack/install). SLACK_API_URL overrides the "
        "Web API base URL.",
    )
    parser.add_argument("--http", action="store_true", help="serve HTTP even with an app token")
    parser.add_argument("--port", type=int, default=None, help="HTTP port (default: 3000)")
    parser.add_argument("--host", default="0.0.0.0", help="HTTP bind address (default: 0.0.0.0)")
    parser.set_defaults(handler="cli.run:run")


def _present(settings: Any) -> dict[str, bool]:
    slack = settings.slack
    return {
        "SLACK_APP_TOKEN": bool(slack.app_token),
        "SLACK_BOT_TOKEN": bool(slack.bot_token),
        "SLACK_SIGNING_SECRET": bool(slack.signing_secret),
        "SLACK_CLIENT_ID": bool(slack.client_id),
        "SLACK_CLIENT_SECRET": bool(slack.client_secret),
        "BRAIN_TOKEN_KEY": bool(slack.token_key),
    }


def mode_of(settings: Any, *, http: bool) -> Mode:
    """The mode asked for: Socket Mode unless HTTP is; in HTTP, many workspaces when there is
    no bot token and any of the OAuth variables is set (so a missing one is named), else one."""
    if not http:
        return SOCKET_MODE
    present = _present(settings)
    if not present["SLACK_BOT_TOKEN"] and any(present[name] for name in _OAUTH_VARIABLES):
        return OAUTH_MODE
    return HTTP_MODE


def missing_credentials(settings: Any, mode: Mode) -> list[str]:
    """Names of the environment variables `mode` needs but lacks, in the order it lists them."""
    present = _present(settings)
    return [name for name in mode.needs if not present[name]]


def refusal(mode: Mode, missing: list[str]) -> str:
    """The one-line error for a mode that cannot start (one workspace's HTTP also names the
    many-workspace alternative, since the missing bot token may be meant)."""
    names = " and ".join([", ".join(missing[:-1]), missing[-1]] if len(missing) > 2 else missing)
    line = f"brain run: {names} must be set for {mode.name}."
    if mode is HTTP_MODE and "SLACK_BOT_TOKEN" in missing:
        line += (
            " For many workspaces instead set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, "
            "BRAIN_TOKEN_KEY and SLACK_SIGNING_SECRET (no bot token)."
        )
    return line


def _console(settings: Any, brain: Any) -> list[Any]:
    """The admin console on the bot's server, when `[console] enabled` (with a way in)."""
    import console

    if not console.enabled(settings):
        return []
    return [lambda app: console.mount(app, settings, lambda: brain)]


def run(args: argparse.Namespace) -> int:
    """Handler of `brain run`."""
    import asyncio

    from core.config import load_settings
    from core.errors import ConfigError

    settings = load_settings()
    http = args.http or settings.slack.app_token is None
    mode = mode_of(settings, http=http)
    missing = missing_credentials(settings, mode)
    if missing:
        print(refusal(mode, missing), file=sys.stderr)
        return 2
    from core.logs import configure as configure_logs

    try:
        configure_logs()  # BRAIN_LOG_FORMAT=json: one JSON object a line, with event/decision ids
    except ValueError as exc:
        print(f"brain run: {exc}", file=sys.stderr)
        return 2

    from bot.app import build_bot
    from bot.server import serve_http, serve_socket_mode
    from cli import open_brain

    brain = open_brain(settings)
    if brain is None:
        return 1
    try:
        try:
            bot = build_bot(brain, settings)
        except ConfigError as exc:  # e.g. a BRAIN_TOKEN_KEY that is no Fernet key
            print(f"brain run: {exc}", file=sys.stderr)
            return 2
        if http:
            port = settings.slack.port if args.port is None else args.port
            asyncio.run(serve_http(bot, args.host, port, mounts=_console(settings, brain)))
        else:
            assert settings.slack.app_token is not None
            asyncio.run(serve_socket_mode(bot, settings.slack.app_token.get_secret_value()))
    finally:
        brain.close()
    return 0
