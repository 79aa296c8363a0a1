"""An LLM API that answers HTTP 200 with a body that is no Messages response (a proxy's HTML
page, truncated JSON, JSON of another shape, an error body) is a failed LLM, not a crash:
through `brain ask --json -`, every message of a batch that asks the LLM at every stage
(intent vote, Draft-Critique-Refine, knowledge answers, coding) gets its decision, the same one
as without an LLM, its controllers run, and no traceback is printed or logged."""

from __future__ import annotations

import io
import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli import main
from core.files import copy_tree
from tests.fakes.anthropic_server import FakeAnthropic, FakeReply, brain_llm

#: Messages that reach the LLM at different stages: a vague one (intent vote, dynamic tier), a
#: follow-up with nothing to follow, a knowledge question (answer, verification), a coding
#: request (the coding controller's answer) and a Chinese incident.
MESSAGES = [
    "help me, it's stuck",
    "it is broken again",
    "how do I set up the VPN on a new laptop?",
    "write a python script that renames files by their date",
    "我的电脑蓝屏了，怎么办",
]
SHAPES = {
    "html": FakeReply.raw("<html><body><h1>502 Bad Gateway</h1></body></html>", "text/html"),
    "truncated": FakeReply.raw('{"id": "msg_1", "type": "message", "content": [{"type": "te'),
    "wrong-shape": FakeReply.raw('{"result": {"text": "incident"}}'),
    "error-body": FakeReply.raw(
        '{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}'
    ),
}


@pytest.fixture
def api(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropic]:
    with brain_llm(monkeypatch, timeout_s=3, dcr=True) as fake:
        yield fake


def _batch(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> list[dict[str, Any]]:
    data = "\n".join(MESSAGES) + "\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data.encode()), "utf-8"))
    capsys.readouterr()
    code = main(["ask", "--json", "-"])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err, captured.err[-2000:]
    assert code == 0, captured.err[-2000:]
    return [json.loads(line) for line in captured.out.splitlines()]


def _outcome(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["controller"], row["outcome"], row["tier"], row["escalate"])


@pytest.mark.parametrize("shape", SHAPES, ids=list(SHAPES))
def test_a_200_that_is_no_messages_response_degrades_to_the_no_llm_path(
    api: FakeAnthropic,
    shape: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    fitted_home: Path,
    tmp_path: Path,
) -> None:
    api.default = SHAPES[shape]
    with caplog.at_level(logging.INFO):
        rows = _batch(capsys, monkeypatch)

    assert [row.get("error") for row in rows] == [None] * len(MESSAGES), rows
    assert len(api.requests) >= len(MESSAGES) - 1  # the LLM was asked, at several stages
    assert any("error" in row["llm_status"] for row in rows), [r["llm_status"] for r in rows]
    assert [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()] == []

    # The same messages in a home of the same start, with no LLM at all.
    plain = tmp_path / "plain-home"
    copy_tree(fitted_home, plain)
    monkeypatch.setenv("BRAIN_HOME", str(plain))
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    without = _batch(capsys, monkeypatch)
    assert [_outcome(row) for row in rows] == [_outcome(row) for row in without]
