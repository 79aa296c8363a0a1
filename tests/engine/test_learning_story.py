"""The learning story through the CLI, each step in a process of its own: one correction
changes the corrector's next answers, not other people's, until enough people agree."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ORIGINAL = "the money for order 88231 has still not arrived"
PARAPHRASES = [
    "order 99127: funds still not received",
    "钱没到，订单 77102",
    "still haven't received the money for order 55123",
    "payment for order 40211 not arrived yet",
]


def brain(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """`brain ARGS` in a new process (the environment's BRAIN_HOME)."""
    done = subprocess.run(
        [sys.executable, "-m", "brain", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def ask(text: str, user: str, channel: str) -> dict[str, Any]:
    decision: dict[str, Any] = json.loads(
        brain("ask", text, "--json", "--user", user, "--channel", channel).stdout
    )
    return decision


def ask_all(texts: list[str], user: str, channel: str) -> list[dict[str, Any]]:
    out = brain("ask", "--json", "-", "--user", user, "--channel", channel, stdin="\n".join(texts))
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def correct(decision: dict[str, Any], controller: str, user: str) -> None:
    brain("feedback", decision["decision_id"], "--correct", controller, "--user", user)


@pytest.mark.slow
@pytest.mark.usefixtures("home")
def test_one_correction_moves_the_correctors_paraphrases_and_agreement_moves_everyones(
    home: Path,
) -> None:
    first = ask(ORIGINAL, "U1", "C1")
    assert first["controller"] == "ticket"
    correct(first, "consultation", "U1")

    mine = ask_all(PARAPHRASES, "U1", "C2")
    moved = [d for d in mine if d["controller"] == "consultation"]
    assert len(moved) >= 3, [(d["text"], d["controller"], d["tier_path"]) for d in mine]
    for decision in moved:
        assert decision["tier"] in ("verify", "fast")
        assert "you moved a message like this" in decision["rationale"]
        assert "to consultation on " in decision["rationale"]
        assert decision["preference"]
    why = json.loads(brain("why", moved[0]["decision_id"], "--json").stdout)
    assert "you moved a message like this" in json.dumps(why, ensure_ascii=False)

    others = ask_all(PARAPHRASES, "U9", "C3")
    # Not moved: decided as before the lesson (ticket, or a question when it says too little).
    assert all(d["controller"] != "consultation" for d in others), [d["tier_path"] for d in others]
    assert not any(d["preference"] for d in others)

    for user, text in (
        ("U2", "money for order 31337 has still not arrived"),
        ("U3", "the funds for order 42424 still have not arrived"),
    ):
        theirs = ask(text, user, f"C-{user}")
        correct(theirs, "consultation", user)

    agreed = ask_all(PARAPHRASES, "U9", "C4")
    moved = [d for d in agreed if d["controller"] == "consultation"]
    assert len(moved) >= 3, [(d["text"], d["controller"], d["tier_path"]) for d in agreed]
    assert all("people moved messages like this" in d["rationale"] for d in moved)
