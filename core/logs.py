"""Logging set-up: plain text by default, one JSON object a line with `BRAIN_LOG_FORMAT=json`.

JSON lines carry the fields bound for the work in progress (`bound(event_id=..., decision_id=
...)`), so an operator can follow one Slack event or one decision across replicas in a log
store. The fields live in a context variable: asyncio tasks started meanwhile inherit them,
and the bot copies the context into its worker threads.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import os
import sys
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from types import MappingProxyType
from typing import IO, Any

from core.progress import PROGRESS_LOGGER

FORMAT_ENV = "BRAIN_LOG_FORMAT"
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

_NONE: Mapping[str, str] = MappingProxyType({})
_FIELDS: contextvars.ContextVar[Mapping[str, str]] = contextvars.ContextVar(
    "brain_log_fields", default=_NONE
)


@contextlib.contextmanager
def bound(**fields: str | None) -> Iterator[None]:
    """Add fields (None values are skipped) to every log line written inside the block."""
    merged = {**_FIELDS.get(), **{k: str(v) for k, v in fields.items() if v is not None}}
    token = _FIELDS.set(merged)
    try:
        yield
    finally:
        _FIELDS.reset(token)


def bind(**fields: str | None) -> None:
    """Add fields for the rest of the current context (a task, a worker call)."""
    _FIELDS.set({**_FIELDS.get(), **{k: str(v) for k, v in fields.items() if v is not None}})


def current_fields() -> Mapping[str, str]:
    """The fields bound now."""
    return _FIELDS.get()


#: The ids every line of one message's handling carries (`ContextFilter`).
TRACE_FIELDS = ("event_id", "decision_id")


class ContextFilter(logging.Filter):
    """Copies the bound fields onto each record as it is emitted, in the emitting thread's
    context (the only place they are known): a handler that formats later or elsewhere (a
    queue, another thread) still writes them. Ids passed explicitly (`extra=`) are kept."""

    def filter(self, record: logging.LogRecord) -> bool:
        fields = _FIELDS.get()
        record.brain_fields = fields
        for name in TRACE_FIELDS:
            if record.__dict__.get(name) is None and name in fields:
                setattr(record, name, fields[name])
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message, bound fields, exception."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            **record.__dict__.get("brain_fields", _FIELDS.get()),
        }
        for name in TRACE_FIELDS:
            value = record.__dict__.get(name)
            if value is not None:
                line[name] = str(value)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class StderrHandler(logging.StreamHandler):
    """Writes to whatever `sys.stderr` is when a record is emitted, not the stream it was at
    set-up: a process that swaps standard error (an embedding program, a test capturing the
    command's output) would otherwise log into a closed stream and print a traceback."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


def configure(
    fmt: str | None = None, level: int = logging.INFO, *, stream: IO[str] | None = None
) -> str:
    """Set up the root logger as text or JSON (`fmt`, else `BRAIN_LOG_FORMAT`) on `stream`
    (standard error, as it is at each line, by default); the format."""
    chosen = (fmt or os.environ.get(FORMAT_ENV) or "text").strip().lower()
    if chosen not in ("text", "json"):
        raise ValueError(f"{FORMAT_ENV} must be 'text' or 'json', not {chosen!r}")
    handler = logging.StreamHandler(stream) if stream is not None else StderrHandler()
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter() if chosen == "json" else logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level, handlers=[handler], force=True)
    # Every line goes through this one handler: the command line's own printer of first-use
    # progress ("brain: ingesting ...", `cli.show_progress`) would write plain lines among the
    # JSON ones, without the ids bound for the work in progress; so would Python's warnings.
    progress = logging.getLogger(PROGRESS_LOGGER)
    progress.handlers.clear()
    progress.propagate = True
    logging.captureWarnings(chosen == "json")
    return chosen
