"""The `brain` command line.

Sub-commands live in small modules that register their own parser. Registration imports
nothing heavy, so `brain --help` and other model-free commands answer fast; each handler
imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from core.config import ConfigError
from core.progress import PROGRESS_LOGGER

if TYPE_CHECKING:
    from brain.engine import Brain
    from core.config import Settings

#: Modules that expose `register(subparsers)`; each sets `handler="module:function"`.
COMMAND_MODULES: tuple[str, ...] = (
    "cli.ask",
    "cli.feedback",
    "cli.why",
    "cli.controllers",
    "cli.tickets",
    "cli.kb",
    "cli.eval",
    "cli.chat",
    "cli.run",
)


def build_parser() -> argparse.ArgumentParser:
    """The full parser with every available sub-command."""
    parser = argparse.ArgumentParser(
        prog="brain",
        description="Digital Employee Brain: routes operations messages to controllers.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue  # a surface not built yet
            raise
        module.register(subparsers)
    return parser


def _resolve(handler: str) -> object:
    module_name, _, attribute = handler.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def open_brain(settings: Settings | None = None) -> Brain | None:
    """`Brain.open(settings)`, or None after saying why on stderr (the store is locked)."""
    from brain.engine import Brain
    from knowledge.store import StoreLockedError

    try:
        return Brain.open(settings)
    except StoreLockedError as exc:
        print(f"brain: {exc}", file=sys.stderr)
        return None


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever sys.stderr is at the time (tests swap it), not the one at start."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


def show_progress() -> None:
    """Print the progress of slow first-use work (`core.progress`) on stderr, so that JSON
    on stdout stays clean."""
    progress = logging.getLogger(PROGRESS_LOGGER)
    if not progress.handlers:
        handler = _StderrHandler()
        handler.setFormatter(logging.Formatter("brain: %(message)s"))
        progress.addHandler(handler)
        progress.setLevel(logging.INFO)
        progress.propagate = False


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `brain` console script; returns the exit code."""
    show_progress()
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        function = _resolve(handler)
        code = function(args)  # type: ignore[operator]
    except ConfigError as exc:
        print(f"brain: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())
