"""The `brain` command line called in-process (`cli.main`), for tests whose point is what one
command answers, not that its state reaches another process (`tests/cli_process.py`)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cli import exit_codes, main
from tests.records import DECISION_CONTRACT


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
