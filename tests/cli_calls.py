"""The `brain` command line called in-process (`cli.main`), for tests whose point is what one
command answers, not that its state reaches another process (`tests/cli_process.py`)."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from cli import exit_codes, main
from tests.records import DECISION_CONTRACT


def brain_call(
    capsys: pytest.CaptureFixture[str], *args: str, stdin: str | None = None, code: int = 0
) -> str:
    """What `brain ARGS` printed on stdout, called in-process; it must return `code`. Every
    command opens its own Brain on BRAIN_HOME and closes it (which waits for the stores'
    background writes), so a call reads what the last one wrote from the stores, as a new
    process would, without a process's start-up and model loads (about a second each)."""
    capsys.readouterr()  # what the test printed before is not this command's output
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    try:
        returned = main(list(args))
    finally:
        sys.stdin = saved
    captured = capsys.readouterr()
    assert returned == code, captured.err[-2000:]
    return captured.out


def ask_json(capsys: pytest.CaptureFixture[str], text: str, *options: str) -> dict[str, Any]:
    """`brain ask TEXT --json OPTIONS...`: the decision, checked against the JSON contract."""
    assert main(["ask", text, "--json", *options]) == exit_codes.OK
    decision: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert set(decision) >= DECISION_CONTRACT
    return decision


def all_tickets(capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    """`brain tickets list --all --json`."""
    assert main(["tickets", "list", "--all", "--json"]) == exit_codes.OK
    tickets: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    return tickets


def comments(ticket: dict[str, Any]) -> list[str]:
    """The texts of a listed ticket's comments, oldest first."""
    return [comment["text"] for comment in ticket["comments"]]
