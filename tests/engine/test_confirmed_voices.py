"""A person whose message the brain routed right and who says so (`brain feedback --confirm`,
a 👍) has said where messages like it belong, as a correction does: it counts for its author
at once, it is one more voice in a group that people corrected (what the organisation agreed
on, and the refit's training rows, hold the confirmed message too), and a confirmation of
another controller is a disagreement, reported and applied to no one. Before, a confirmation
was nobody's example and no group's voice: two corrections and a confirmation were nothing
the organisation agreed on. Through the `brain` command line, each step a process of its own."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from tests.cli_calls import brain_call

Capsys = pytest.CaptureFixture[str]

#: Two people's build failures, which the brain sends elsewhere and they move to `alarm`.
CORRECTED = [
    ("U1", "the jenkins build for the payments repo fails at the unit test stage"),
    ("U2", "our CI pipeline breaks on npm install since this morning"),
]
#: A third person's build failure the brain already sends to `alarm`.
CONFIRMED_RIGHT = ("U3", "monitoring alert: nightly build job failed on jenkins")
#: A third person's build failure the brain sends to `coding`, which they say is right.
CONFIRMED_OTHER = ("U3", "gitlab pipeline red on main, compile error in the api module")
#: A fourth person's build failures in other words.
PARAPHRASES = [
    "build is broken after the latest commit, can someone look at the log",
    "github actions workflow exits with code 1 during the test step",
]

_ASKED = itertools.count()


def _ask(capsys: Capsys, text: str, user: str) -> dict[str, Any]:
    """`brain ask --json` in a channel of its own (no conversation carries over)."""
    channel = f"C-{user}-{next(_ASKED)}"
    decision: dict[str, Any] = json.loads(
        brain_call(capsys, "ask", "--json", text, "--user", user, "--channel", channel)
    )
    return decision


def _correct(capsys: Capsys, user: str, text: str, controller: str) -> None:
    decision = _ask(capsys, text, user)
    assert decision["controller"] != controller  # the mistake the user corrects
    brain_call(capsys, "feedback", decision["decision_id"], "--correct", controller, "--user", user)


def _confirm(capsys: Capsys, user: str, text: str, controller: str) -> None:
    decision = _ask(capsys, text, user)
    assert decision["controller"] == controller  # the route the user says is right
    brain_call(capsys, "feedback", decision["decision_id"], "--confirm", "--user", user)


@pytest.mark.usefixtures("home")
def test_two_corrections_and_a_confirmation_are_three_people_agreeing(capsys: Capsys) -> None:
    for user, text in CORRECTED:
        _correct(capsys, user, text, "alarm")
    _confirm(capsys, *CONFIRMED_RIGHT, "alarm")

    moved = [_ask(capsys, text, "U4") for text in PARAPHRASES]

    assert [d["controller"] for d in moved] == ["alarm"] * len(PARAPHRASES), moved
    for decision in moved:
        assert "3 people moved messages like this to alarm" in decision["rationale"]
    org = json.loads(brain_call(capsys, "memory", "show", "--org", "--json"))
    assert [(g["controller"], g["users"]) for g in org["examples"]] == [
        ("alarm", ["U1", "U2", "U3"])
    ], org["examples"]
    # The confirmed message is a training row of the refit, as the corrected ones are.
    rows = {(row["text"], row["controller"]) for row in org["rows"]}
    assert (CONFIRMED_RIGHT[1], "alarm") in rows, org["rows"]
    assert {(text, "alarm") for _, text in CORRECTED} <= rows, org["rows"]


@pytest.mark.usefixtures("home")
def test_a_confirmation_of_another_controller_is_a_reported_disagreement(
    capsys: Capsys,
) -> None:
    before = [_ask(capsys, text, "U4")["controller"] for text in PARAPHRASES]
    for user, text in CORRECTED:
        _correct(capsys, user, text, "alarm")
    _confirm(capsys, *CONFIRMED_OTHER, "coding")

    after = [_ask(capsys, text, "U4") for text in PARAPHRASES]

    assert [d["controller"] for d in after] == before, after
    reported = json.loads(brain_call(capsys, "memory", "conflicts", "--json"))
    assert {"alarm": ["U1", "U2"], "coding": ["U3"]} in [c["targets"] for c in reported], reported
    org = json.loads(brain_call(capsys, "memory", "show", "--org", "--json"))
    assert org["examples"] == [] and org["rows"] == [], org


#: A request the brain sends to `change`, and the same request in other words (English and
#: Chinese) that it asks about instead (the routing model without the multilingual view).
BOOKED = "can we get a staging environment reserved for the release testing on thursday"
REWORDED = [
    "I'd like to book the staging env for friday's demo",
    "我们组想借用集成环境三天",
]


@pytest.mark.usefixtures("home")
def test_a_confirmation_counts_for_its_author_at_once_and_for_no_one_else(
    capsys: Capsys,
) -> None:
    routed = {text: _ask(capsys, text, "U9")["controller"] for text in REWORDED}
    # The rewordings the model alone does not send to `change` (the English one on every
    # model; a model that reads Chinese too may route the Chinese one right by itself).
    reworded = [text for text in REWORDED if routed[text] != "change"]
    before = [routed[text] for text in reworded]
    assert REWORDED[0] in reworded, routed
    _confirm(capsys, "U1", BOOKED, "change")

    mine = [_ask(capsys, text, "U1") for text in reworded]
    theirs = [_ask(capsys, text, "U9")["controller"] for text in reworded]

    assert [d["controller"] for d in mine] == ["change"] * len(reworded), mine
    for decision in mine:
        assert "you confirmed a message like this" in decision["rationale"], decision
    assert theirs == before
