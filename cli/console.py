"""`brain console [--host H] [--port N]`: the admin web console, served alone at /console."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    """Add the `console` sub-command."""
    parser = subparsers.add_parser(
        "console",
        help="serve the admin web console",
        description="Serve the admin console at /console (try a message, decisions, learning, "
        "knowledge, what-if replay, figures). Admins sign in with BRAIN_CONSOLE_TOKEN or with "
        "Slack ([console] slack_client_id, slack_client_secret, redirect_uri, admins).",
    )
    parser.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080, help="port (default 8080; 0: any)")
    parser.set_defaults(handler="cli.console:run")


def run(args: argparse.Namespace) -> int:
    """Handler of `brain console`: serve until interrupted."""
    import asyncio

    from core.config import load_settings

    settings = load_settings()
    config = settings.console
    slack = bool(config.slack_client_id and config.slack_client_secret)
    if config.admin_token is None and not slack:
        print(
            "brain console: set BRAIN_CONSOLE_TOKEN (or Slack sign-in in [console]) first",
            file=sys.stderr,
        )
        return 2
    from cli import open_brain

    brain = open_brain(settings)
    if brain is None:
        return 1
    try:
        asyncio.run(_serve(settings, brain, args.host, args.port))
    finally:
        brain.close()
    return 0


async def _serve(settings: Any, brain: Any, host: str, port: int) -> None:
    import asyncio

    from aiohttp import web

    from console import standalone

    runner = web.AppRunner(standalone(settings, lambda: brain))
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = runner.addresses[0][1] if runner.addresses else port
    print(f"brain console: http://{host}:{bound}/console/", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
