"""`brain run [--http] [--port N]`: the Slack bot (Socket Mode when SLACK_APP_TOKEN is set)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    """Add the `run` sub-command."""
    parser = subparsers.add_parser(
        "run",
        help="run the Slack bot",
        description="Serve the Slack bot: Socket Mode when SLACK_APP_TOKEN is set (unless --http), "
        "else HTTP on /slack/events (health check on /healthz). Needs SLACK_BOT_TOKEN, and "
        "SLACK_SIGNING_SECRET in HTTP mode; SLACK_API_URL overrides the Web API base URL.",
    )
    parser.add_argument("--http", action="store_true", help="serve HTTP even with an app token")
    parser.add_argument("--port", type=int, default=None, help="HTTP port (default: 3000)")
    parser.add_argument("--host", default="0.0.0.0", help="HTTP bind address (default: 0.0.0.0)")
    parser.set_defaults(handler="cli.run:run")


def missing_credentials(settings: Any, *, http: bool) -> list[str]:
    """Names of the environment variables the chosen mode needs but lacks."""
    slack = settings.slack
    missing = [] if slack.bot_token else ["SLACK_BOT_TOKEN"]
    if http and not slack.signing_secret:
        missing.append("SLACK_SIGNING_SECRET")
    return missing


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

    settings = load_settings()
    http = args.http or settings.slack.app_token is None
    missing = missing_credentials(settings, http=http)
    if missing:
        mode = "HTTP mode" if http else "Socket Mode"
        print(f"brain run: {' and '.join(missing)} must be set for {mode}.", file=sys.stderr)
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
        bot = build_bot(brain, settings)
        if http:
            port = settings.slack.port if args.port is None else args.port
            asyncio.run(serve_http(bot, args.host, port, mounts=_console(settings, brain)))
        else:
            assert settings.slack.app_token is not None
            asyncio.run(serve_socket_mode(bot, settings.slack.app_token.get_secret_value()))
    finally:
        brain.close()
    return 0
