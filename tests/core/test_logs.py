"""JSON log lines carry the event and decision ids bound for the work in progress."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import sys

import pytest

from core.logs import JsonFormatter, bind, bound, configure


def _line(message: str) -> dict[str, str]:
    record = logging.LogRecord("bot.replies", logging.WARNING, __file__, 1, message, (), None)
    parsed: dict[str, str] = json.loads(JsonFormatter().format(record))
    return parsed


def test_a_json_line_carries_the_fields_bound_around_it() -> None:
    with bound(event_id="Ev1"):
        inside = _line("posting a reply")
        with bound(decision_id="d-1"):
            nested = _line("escalating")
    outside = _line("idle")
    assert inside["event_id"] == "Ev1" and "decision_id" not in inside
    assert nested["event_id"] == "Ev1" and nested["decision_id"] == "d-1"
    assert nested["level"] == "warning" and nested["message"] == "escalating"
    assert "event_id" not in outside


async def test_a_task_started_for_an_event_keeps_its_ids_and_does_not_leak_them() -> None:
    async def reply() -> dict[str, str]:
        bind(decision_id="d-2")
        return _line("replied")

    with bound(event_id="Ev2"):
        task = asyncio.get_running_loop().create_task(reply())
    line = await task
    assert (line["event_id"], line["decision_id"]) == ("Ev2", "d-2")
    assert "decision_id" not in _line("after")


def test_an_unknown_format_is_refused_with_its_name() -> None:
    with pytest.raises(ValueError, match="BRAIN_LOG_FORMAT"):
        configure("xml")


def test_the_default_stream_is_standard_error_as_it_is_at_each_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`brain run` configures logging on standard error; a caller that swaps standard error
    afterwards (and closes the old one) gets the lines, not a logging traceback."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    first, second = io.StringIO(), io.StringIO()
    try:
        monkeypatch.setattr(sys, "stderr", first)
        configure("text")
        first.close()
        monkeypatch.setattr(sys, "stderr", second)
        logging.getLogger("core.llm").warning("llm %s failed", "coding")
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    assert "llm coding failed" in second.getvalue()
    assert "Traceback" not in second.getvalue()
