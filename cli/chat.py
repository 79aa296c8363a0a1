"""`brain chat`: a terminal conversation with the brain (the same flow as in Slack)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    """Add the `chat` sub-command."""
    parser = subparsers.add_parser(
        "chat",
        help="talk to the brain in the terminal (try it without Slack)",
        description="A terminal conversation: type messages; answer questions with a number or "
        "a controller name; /why, /right, /wrong CONTROLLER, /help, /quit. Reads stdin lines, "
        "so it also works with piped input.",
    )
    parser.add_argument("--user", default="cli", help="who is talking (default: cli)")
    parser.add_argument("--channel", default="chat", help="channel name (default: chat)")
    parser.set_defaults(handler="cli.chat:run")


def run(args: argparse.Namespace) -> int:
    """Handler of `brain chat`."""
    from brain.conversation.turns import Conversation
    from cli import open_brain, stdin_lines
    from cli.chat_session import chat_loop
    from cli.exit_codes import STORE_UNAVAILABLE

    brain = open_brain()
    if brain is None:
        return STORE_UNAVAILABLE
    try:
        interactive = sys.stdin.isatty()
        return chat_loop(
            Conversation(brain, brain.conversations),
            stdin_lines(),
            lambda text: print(text, flush=True),
            user=args.user,
            channel=args.channel,
            prompt="you> " if interactive else None,
        )
    finally:
        brain.close()
