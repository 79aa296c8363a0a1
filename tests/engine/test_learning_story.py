"""The learning story through the CLI, each step a command of its own (which opens the stores
afresh): one correction changes the corrector's next answers, not other people's, until enough
people agree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli_calls import brain_call
from tests.cli_process import brain_out

ORIGINAL = "the money for order 88231 has still not arrived"
PARAPHRASES = [
    "order 99127: funds still not received",
    "钱没到，订单 77102",
    "still haven't received the money for order 55123",
    "payment for order 40211 not arrived yet",
]

Capsys = pytest.CaptureFixture[str]


def ask(capsys: Capsys, text: str, user: str, channel: str) -> dict[str, Any]:
    decision: dict[str, Any] = json.loads(
        brain_call(capsys, "ask", text, "--json", "--user", user, "--channel", channel)
    )
    return decision


def _lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def ask_all(capsys: Capsys, texts: list[str], user: str, channel: str) -> list[dict[str, Any]]:
    return _lines(
        brain_call(
            capsys,
            "ask",
            "--json",
            "-",
            "--user",
            user,
            "--channel",
            channel,
            stdin="\n".join(texts),
        )
    )


def correct(capsys: Capsys, decision: dict[str, Any], controller: str, user: str) -> None:
    brain_call(capsys, "feedback", decision["decision_id"], "--correct", controller, "--user", user)


@pytest.mark.slow
@pytest.mark.usefixtures("home")
def test_one_correction_moves_the_correctors_paraphrases_and_agreement_moves_everyones(
    home: Path, capsys: Capsys
) -> None:
    """The corrector's next messages are asked in a `brain` process of their own: a personal
    lesson must reach a process that did not make it, reading the stores alone. The other
    steps are commands called in-process."""
    first = ask(capsys, ORIGINAL, "U1", "C1")
    assert first["controller"] == "ticket"
    correct(capsys, first, "consultation", "U1")

    mine = _lines(
        brain_out(
            "ask", "--json", "-", "--user", "U1", "--channel", "C2", stdin="\n".join(PARAPHRASES)
        )
    )
    moved = [d for d in mine if d["controller"] == "consultation"]
    assert len(moved) >= 3, [(d["text"], d["controller"], d["tier_path"]) for d in mine]
    for decision in moved:
        assert decision["tier"] in ("verify", "fast")
        assert "you moved a message like this" in decision["rationale"]
        assert "to consultation on " in decision["rationale"]
        assert decision["preference"]
    why = json.loads(brain_call(capsys, "why", moved[0]["decision_id"], "--json"))
    assert "you moved a message like this" in json.dumps(why, ensure_ascii=False)

    others = ask_all(capsys, PARAPHRASES, "U9", "C3")
    # Not moved: decided as before the lesson (ticket, or a question when it says too little).
    assert all(d["controller"] != "consultation" for d in others), [d["tier_path"] for d in others]
    assert not any(d["preference"] for d in others)

    for user, text in (
        ("U2", "money for order 31337 has still not arrived"),
        ("U3", "the funds for order 42424 still have not arrived"),
    ):
        theirs = ask(capsys, text, user, f"C-{user}")
        correct(capsys, theirs, "consultation", user)

    agreed = ask_all(capsys, PARAPHRASES, "U9", "C4")
    moved = [d for d in agreed if d["controller"] == "consultation"]
    assert len(moved) >= 3, [(d["text"], d["controller"], d["tier_path"]) for d in agreed]
    assert all("people moved messages like this" in d["rationale"] for d in moved)
