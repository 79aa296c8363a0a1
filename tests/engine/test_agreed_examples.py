"""Corrections as examples, through the CLI (each step a command of its own, which opens the
stores afresh): three people who moved their own, differently worded build failures to `alarm`
move a fourth person's build failures worded otherwise; a disagreeing correction moves no one
and `brain memory conflicts` reports it; one correction moves its author's paraphrases and no
one else's; a forgotten user's corrections stop counting in the running brain."""

from __future__ import annotations

import json
from typing import Any

import pytest

from brain.engine import Brain
from core.records import Message
from tests.cli_calls import brain_call

#: Three people's build failures; the brain sends them to `coding` (or asks), they want `alarm`.
TAUGHT = [
    ("U1", "the jenkins build for the payments repo fails at the unit test stage"),
    ("U2", "our CI pipeline breaks on npm install since this morning"),
    ("U3", "gitlab pipeline red on main, compile error in the api module"),
]
#: Build failures in other words (none shares a sentence with the three).
PARAPHRASES = [
    "build is broken after the latest commit, can someone look at the log",
    "github actions workflow exits with code 1 during the test step",
    "maven build can't resolve a dependency in our ci run",
    "tests pass locally but the CI runner reports failures",
]
#: Near the lessons' words, but one of the model's own examples is nearer.
UNRELATED = [
    ("install Slack on my laptop", "access"),
    ("my pull request checks are failing with a linker error", "coding"),
]


Capsys = pytest.CaptureFixture[str]


def _teach(capsys: Capsys, user: str, text: str, controller: str) -> None:
    decision = json.loads(
        brain_call(capsys, "ask", "--json", text, "--user", user, "--channel", f"C-{user}")
    )
    assert decision["controller"] != controller  # the mistake the user corrects
    brain_call(capsys, "feedback", decision["decision_id"], "--correct", controller, "--user", user)


def _ask_all(capsys: Capsys, texts: list[str], user: str) -> list[dict[str, Any]]:
    out = brain_call(
        capsys,
        "ask",
        "--json",
        "-",
        "--user",
        user,
        "--channel",
        f"C-ask-{user}",
        stdin="\n".join(texts),
    )
    return [json.loads(line) for line in out.splitlines() if line.strip()]


@pytest.mark.usefixtures("home")
def test_three_people_agreeing_move_a_fourth_persons_other_wordings(capsys: Capsys) -> None:
    before = _ask_all(capsys, PARAPHRASES, "U4")
    assert not any(d["controller"] == "alarm" for d in before), before
    for user, text in TAUGHT:
        _teach(capsys, user, text, "alarm")

    decided = _ask_all(capsys, PARAPHRASES + [text for text, _ in UNRELATED], "U4")

    moved, kept = decided[: len(PARAPHRASES)], decided[len(PARAPHRASES) :]
    assert [d["controller"] for d in moved] == ["alarm"] * len(PARAPHRASES), [
        (d["text"], d["controller"], d["tier_path"]) for d in moved
    ]
    for decision in moved:
        assert "3 people moved messages like this to alarm" in decision["rationale"]
    assert [d["controller"] for d in kept] == [name for _, name in UNRELATED], kept
    org = json.loads(brain_call(capsys, "memory", "show", "--org", "--json"))
    assert [(g["controller"], g["users"]) for g in org["examples"]] == [
        ("alarm", ["U1", "U2", "U3"])
    ], org["examples"]
    assert sorted(org["examples"][0]["texts"]) == sorted(text for _, text in TAUGHT)


@pytest.mark.usefixtures("home")
def test_a_disagreeing_correction_moves_no_one(capsys: Capsys) -> None:
    before = _ask_all(capsys, PARAPHRASES, "U4")
    for (user, text), controller in zip(TAUGHT, ("alarm", "alarm", "change"), strict=True):
        _teach(capsys, user, text, controller)

    after = _ask_all(capsys, PARAPHRASES, "U4")

    assert [d["controller"] for d in after] == [d["controller"] for d in before], [
        (d["text"], d["controller"], d["tier_path"]) for d in after
    ]
    assert not any("people moved messages like this" in d["rationale"] for d in after)
    reported = json.loads(brain_call(capsys, "memory", "conflicts", "--json"))
    assert {"alarm": ["U1", "U2"], "change": ["U3"]} in [c["targets"] for c in reported], reported


@pytest.mark.usefixtures("home")
def test_one_correction_moves_its_authors_other_wordings_and_no_one_elses(capsys: Capsys) -> None:
    user, text = TAUGHT[0]
    _teach(capsys, user, text, "alarm")

    mine = _ask_all(capsys, PARAPHRASES, user)
    theirs = _ask_all(capsys, PARAPHRASES, "U9")

    moved = [d for d in mine if d["controller"] == "alarm"]
    assert len(moved) >= 3, [(d["text"], d["controller"], d["tier_path"]) for d in mine]
    assert all("you moved a message like this" in d["rationale"] for d in moved)
    assert not any(d["controller"] == "alarm" for d in theirs), theirs


def test_a_forgotten_users_corrections_stop_counting_at_once(brain: Brain) -> None:
    for user, text in TAUGHT:
        decision = brain.ask(Message(text, user=user, channel=f"C-{user}"))
        brain.feedback(decision.decision_id, "correct", controller="alarm", user=user)
    agreed = [brain.decide(Message(t, user="U4", channel="C4")) for t in PARAPHRASES]
    assert [d.controller for d in agreed] == ["alarm"] * len(PARAPHRASES)

    brain.forget_user("U3")  # two people left: no longer the organisation's lesson

    after = [brain.decide(Message(t, user="U4", channel="C5")) for t in PARAPHRASES]
    assert not any(d.controller == "alarm" for d in after), [d.tier_path for d in after]
    mine = [brain.decide(Message(t, user="U1", channel="C6")) for t in PARAPHRASES]
    assert any(d.controller == "alarm" for d in mine)  # U1's own examples still count for U1


def test_an_agreement_in_one_workspace_moves_no_one_in_another(brain: Brain) -> None:
    for user, text in TAUGHT:
        decision = brain.ask(Message(text, user=user, channel=f"C-{user}", team="T1"))
        brain.feedback(decision.decision_id, "correct", controller="alarm", user=user)

    same = [brain.decide(Message(t, user="U4", channel="C4", team="T1")) for t in PARAPHRASES]
    other = [brain.decide(Message(t, user="U4", channel="C4", team="T2")) for t in PARAPHRASES]

    assert [d.controller for d in same] == ["alarm"] * len(PARAPHRASES)
    assert not any(d.controller == "alarm" for d in other), [d.tier_path for d in other]


def test_a_question_follows_where_people_moved_messages_like_it(brain: Brain) -> None:
    """ "How do I ..." is answered by the knowledge desk by default; people who moved such
    requests to a filing controller overruled that default for messages like them."""
    for user, text in (
        ("U1", "please add me to the finance shared mailbox"),
        ("U2", "I can't open the support@ team inbox, I need to be given rights"),
        ("U3", "grant me send-as on the hr shared mailbox"),
    ):
        decision = brain.ask(Message(text, user=user, channel=f"C-{user}"))
        assert decision.controller != "incident"
        brain.feedback(decision.decision_id, "correct", controller="incident", user=user)

    asked = brain.decide(
        Message("how do I get into the invoices mailbox our team uses", user="U4", channel="C4")
    )

    assert asked.controller == "incident", asked.tier_path
    assert "3 people moved messages like this to incident" in asked.rationale
