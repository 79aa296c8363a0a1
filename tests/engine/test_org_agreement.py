"""Agreement by meaning: three users who each moved their own, differently worded
message to one controller make an organisation lesson that a fourth user's paraphrases follow,
decided in a process of their own; a correction moves only messages like it ("install Docker" ->
`coding` leaves "install Slack" with `access`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brain.engine import Brain
from core.records import Message
from tests.cli_calls import brain_call
from tests.cli_process import brain_out

#: Three people, three wordings of one request the brain routes elsewhere.
TAUGHT = [
    ("U1", "how do I install Docker on my laptop"),
    ("U2", "setting up docker desktop on my macbook"),
    ("U3", "docker installation keeps failing on my workstation"),
]
#: A fourth person's wordings, none of them a near-copy of the three.
FOURTH = [
    "can you help me get docker running locally",
    "I need the docker engine on my dev machine",
    "what's the way to put docker on my computer",
]
#: Requests that share words with the lesson but are about something else.
UNRELATED = ["install Slack on my laptop", "please install Zoom for me"]


def test_three_users_agreeing_move_a_fourth_users_paraphrases(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The corrections are made in-process, a command each; the fourth user's batch runs in a
    `brain` process of its own: the organisation lesson must reach a process that did not
    make it, reading the stores alone (and the batch is read from a real stdin)."""
    for user, text in TAUGHT:
        decision = json.loads(brain_call(capsys, "ask", "--json", text, "--user", user))
        assert decision["controller"] != "coding"  # the mistake the users correct
        brain_call(
            capsys,
            "feedback",
            decision["decision_id"],
            "--correct",
            "coding",
            "--user",
            user,
        )

    lines = brain_out("ask", "--json", "-", "--user", "U4", stdin="\n".join(FOURTH + UNRELATED))
    decided = [json.loads(line) for line in lines.splitlines() if line.strip()]

    moved, kept = decided[: len(FOURTH)], decided[len(FOURTH) :]
    assert [d["controller"] for d in moved] == ["coding"] * len(FOURTH), moved
    for decision in moved:
        assert decision["tier"] in ("verify", "fast")
        assert "3 people moved messages like this to coding" in decision["rationale"]
    assert [d["controller"] for d in kept] == ["access", "access"], kept
    org = json.loads(brain_call(capsys, "memory", "show", "--org", "--json"))
    assert sorted(row["user"] for row in org["rows"]) == ["U1", "U2", "U3"]
    assert {row["controller"] for row in org["rows"]} == {"coding"}


def test_a_correction_moves_the_correctors_paraphrases_not_what_shares_its_words(
    brain: Brain,
) -> None:
    first = brain.ask(Message(TAUGHT[0][1], user="U1", channel="C1"))
    assert first.controller != "coding"
    brain.feedback(first.decision_id, "correct", controller="coding", user="U1")

    own = [brain.decide(Message(t, user="U1", channel="C2")) for t in FOURTH]
    others = [brain.decide(Message(t, user="U9", channel="C3")) for t in FOURTH]
    unrelated = [brain.decide(Message(t, user="U1", channel="C4")) for t in UNRELATED]

    assert [d.controller for d in own] == ["coding"] * len(FOURTH), [d.tier_path for d in own]
    assert all("you moved a message like this" in d.rationale for d in own)
    assert not any(d.controller == "coding" for d in others)
    # Before agreement by meaning, the knowledge-base scenario both share made "install
    # Slack" alike.
    assert [d.controller for d in unrelated] == ["access", "access"], [
        d.tier_path for d in unrelated
    ]
