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
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

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


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message, bound fields, exception."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            **_FIELDS.get(),
        }
        for name in ("event_id", "decision_id"):
            value = record.__dict__.get(name)
            if value is not None:
                line[name] = str(value)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure(fmt: str | None = None, level: int = logging.INFO) -> str:
    """Set up the root logger as text or JSON (`fmt`, else `BRAIN_LOG_FORMAT`); the format."""
    chosen = (fmt or os.environ.get(FORMAT_ENV) or "text").strip().lower()
    if chosen not in ("text", "json"):
        raise ValueError(f"{FORMAT_ENV} must be 'text' or 'json', not {chosen!r}")
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if chosen == "json" else logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level, handlers=[handler], force=True)
    return chosen
