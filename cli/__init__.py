"""The `brain` command line.

Sub-commands live in small modules that register their own parser. Registration imports
nothing heavy, so `brain --help` and other model-free commands answer fast; each handler
imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from cli import exit_codes
from core.errors import ConfigError, StorageError
from core.logs import FORMAT_ENV, StderrHandler
from core.logs import configure as configure_logs
from core.native_threads import prefer_one_blas_thread
from core.progress import PROGRESS_LOGGER

if TYPE_CHECKING:
    from brain.engine import Brain
    from core.config import Settings

#: Modules that expose `register(subparsers)`; each sets `handler="module:function"`.
COMMAND_MODULES: tuple[str, ...] = (
    "cli.ask",
    "cli.feedback",
    "cli.resolve",
    "cli.memory",
    "cli.why",
    "cli.controllers",
    "cli.evolution",
    "cli.tickets",
    "cli.stats",
    "cli.kb",
    "cli.eval",
    "cli.chat",
    "cli.run",
    "cli.replay",
    "cli.console",
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


def show_progress() -> None:
    """Print the progress of slow first-use work (`core.progress`) on stderr, so that JSON
    on stdout stays clean."""
    progress = logging.getLogger(PROGRESS_LOGGER)
    if not progress.handlers:
        handler = StderrHandler()
        handler.setFormatter(logging.Formatter("brain: %(message)s"))
        progress.addHandler(handler)
        progress.setLevel(logging.INFO)
        progress.propagate = False


def _tolerate_narrow_streams() -> None:
    """An ASCII (or other narrow) stdout, as in some cron and container locales, must not end a
    batch at the first Chinese answer: JSON output is ASCII already (`ensure_ascii`), and text
    output writes what the stream cannot encode as backslash escapes."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def stdin_lines() -> Iterator[str]:
    """Stdin's lines (line ends kept), read as bytes and decoded as UTF-8 with invalid bytes
    replaced: the locale's codec (ASCII under `PYTHONIOENCODING=ascii`, strict UTF-8 under
    `PYTHONIOENCODING=utf-8`) would end a batch or a chat at the first Chinese line or bad
    byte."""
    binary = getattr(sys.stdin, "buffer", None)
    lines: Iterator[bytes | str] = iter(binary if binary is not None else sys.stdin)
    for raw in lines:
        yield raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw


#: The lone surrogates Python decodes an argument's undecodable bytes to (`surrogateescape`).
_ESCAPED_BYTES = range(0xDC80, 0xDD00)


def _as_typed(arg: str) -> str:
    """An argument as the terminal typed it. Under an ASCII locale without Python's UTF-8 mode
    (`LC_ALL=C` with `PYTHONUTF8=0`, some cron and container setups) argv is decoded as ASCII,
    each other byte kept as a lone surrogate, and the message was stored as `???`; the bytes
    are the UTF-8 a terminal or script sends, so they are decoded again as such."""
    if not any(ord(char) in _ESCAPED_BYTES for char in arg):
        return arg
    try:
        return os.fsencode(arg).decode("utf-8", "replace")
    except UnicodeEncodeError:  # not bytes the locale decoded: leave it as given
        return arg


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `brain` console script; returns the exit code."""
    prefer_one_blas_thread()  # before a handler imports numpy
    _tolerate_narrow_streams()
    show_progress()
    if os.environ.get(FORMAT_ENV, "").strip().lower() == "json":
        # Asked for JSON logs: every command's lines too (progress, an LLM failure), one JSON
        # object each with the decision id, never a plain line beside them.
        configure_logs("json")
    parser = build_parser()
    args = parser.parse_args([_as_typed(arg) for arg in (sys.argv[1:] if argv is None else argv)])
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return exit_codes.USAGE
    try:
        function = _resolve(handler)
        code = function(args)  # type: ignore[operator]
        sys.stdout.flush()
    except ConfigError as exc:
        print(f"brain: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    except KeyboardInterrupt:
        return exit_codes.INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return exit_codes.BROKEN_PIPE
    except Exception as exc:
        if not _store_unavailable(exc):
            raise
        print(f"brain: {exc}", file=sys.stderr)
        return exit_codes.STORE_UNAVAILABLE
    return int(code or 0)


def _store_unavailable(exc: Exception) -> bool:
    """Is `exc` a store held by another process or unreadable? (Imported only on failure,
    so commands that never open a store stay fast.)"""
    from knowledge.store import StoreLockedError

    return isinstance(exc, StoreLockedError | StorageError)


def _silence_stdout() -> None:
    """The reader of stdout is gone (`brain why ID | head`): point stdout at /dev/null so the
    interpreter's last flush does not print a BrokenPipeError traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # stdout is not a real file (tests): nothing will flush to a closed pipe


if __name__ == "__main__":
    sys.exit(main())
