"""`brain memory forget --user U` removes the words the brain read in the user's messages, not
only the messages: the parts of a message with two requests, the system and the service a
ticket was filed for, the host an alert's ticket keeps from the alarm controller's report, and
what a dry-run in the thread read ("permission on … dashboard") all stayed on disk after a
forget. The desk's own vocabulary (a ticket's category) stays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_calls import brain_call

#: Words that only these messages hold.
WORDS = (
    "pelicanmonitor",
    "gazellewiki",
    "tapirservice",
    "walrusboard",
    "narwhalreport",
    "jackalnode",
)


def _holding(home: Path) -> dict[str, list[str]]:
    """Each word of WORDS -> the files under `home` that hold it."""
    found: dict[str, list[str]] = {}
    for path in home.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            for word in WORDS:
                if word.encode() in data:
                    found.setdefault(word, []).append(str(path.relative_to(home)))
    return found


def _ask(capsys: pytest.CaptureFixture[str], text: str, *thread: str) -> dict:
    return json.loads(brain_call(capsys, "ask", "--json", text, "--user", "U5", *thread))


def test_forget_removes_the_values_read_in_the_users_messages(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    two = _ask(capsys, "my pelicanmonitor is flickering. also I need access to gazellewiki")
    change = _ask(capsys, "please deploy tapirservice 2.1 tonight 22:00")
    alert = _ask(capsys, "CPU 99% on host jackalnode-3 for 20 minutes")
    _ask(capsys, "need access to the walrusboard dashboard", "--thread", "T1")
    _ask(capsys, "it's for the narwhalreport", "--thread", "T1")
    # Preconditions: two requests were read, and records were filed with the values read.
    assert two["outcome"] == "composed", two["rationale"]
    assert change["controller"] == "change", change["rationale"]
    assert alert["controller"] == "alarm", alert["rationale"]
    held = _holding(home)
    assert set(held) == set(WORDS), held

    report = json.loads(brain_call(capsys, "memory", "forget", "--user", "U5", "--json"))

    assert report["tickets"] >= 3
    assert _holding(home) == {}
    tickets = json.loads(brain_call(capsys, "tickets", "list", "--json"))
    kinds = {t["kind"] for t in tickets}
    assert {"access", "change", "incident"} <= kinds  # the records stay for the desk's figures
    incidents = [t["id"] for t in tickets if t["kind"] == "incident"]
    shown = [json.loads(brain_call(capsys, "tickets", "show", i, "--json")) for i in incidents]
    assert {t["fields"]["category"] for t in shown} == {"hardware", "software"}, shown
