"""The online layer (`[memory] online_layer`): the vote of the model's own examples, the
asker's own corrections and the ones people agree about, blended with the model's confidence,
moves a message when the blend puts another controller first.

On the fitted home, with the layer on and let speak by a history of other people's
corrections: a stranger's message like the ones eight people agreed about moves, the rationale
names the layer, and a brain opened afresh on the same home (another process, a replica) reads
the same layer from the stored corrections; the agreement rules still hold through the CLI: one
correction moves its author's paraphrases and no one else's, three agreeing people move a
fourth's, a disagreement moves no one.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from brain.engine import Brain
from brain.memory import online_layer
from core.files import copy_tree
from core.records import Message
from tests.conftest import isolate
from tests.engine.test_agreed_examples import (
    PARAPHRASES,
    TAUGHT,
    UNRELATED,
    Capsys,
    _ask_all,
    _teach,
)

#: Other people's corrections before the story: eight people moving their own HR paperwork
#: messages to `consultation`, three wordings each.
HISTORY = [
    f"{thing} {trouble}"
    for thing, trouble in itertools.product(
        ("the payroll export", "my holiday balance", "the expense claim form", "my pension letter"),
        ("shows last year's figures", "is missing this month", "has the wrong name on it"),
    )
]


@pytest.fixture(scope="module")
def calibrated_template(tmp_path_factory: pytest.TempPathFactory, fitted_home: Path) -> Path:
    """The fitted home with the layer on and calibrated by the history's corrections (the
    lessons learn these fast, so the history makes few tests: the layer is let speak after
    two, where a desk waits for MIN_TESTS; evolution off, so an unplaced message corrected is
    a lesson and makes no evolved controller; no background refit, whose timing would change
    which of the history's messages are misrouted). Built once per module (96 asks, about
    6 s) and copied by each test."""
    home = tmp_path_factory.mktemp("online-layer") / "brain-home"
    copy_tree(fitted_home, home)
    (home / "brain.toml").write_text(
        "[memory]\nonline_layer = true\norg_training = false\n\n[evolution]\nenabled = false\n",
        encoding="utf-8",
    )
    with pytest.MonkeyPatch.context() as patch:
        isolate(patch, home)
        patch.setattr(online_layer, "MIN_TESTS", 2)
        with Brain.open() as brain:
            for round_ in range(4):
                for index, text in enumerate(HISTORY):
                    user = f"H{(index + round_) % 8}"
                    decision = brain.ask(Message(f"{text} ({round_})", user=user, channel="C-h"))
                    if decision.controller != "consultation":
                        brain.feedback(
                            decision.decision_id, "correct", controller="consultation", user=user
                        )
            assert brain.parts.agreed_examples.online_tests() >= 2  # the layer speaks
    return home


@pytest.fixture
def calibrated(
    calibrated_template: Path, isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """This test's home: a copy of the calibrated one, the layer let speak after two tests."""
    monkeypatch.setattr(online_layer, "MIN_TESTS", 2)
    return copy_tree(calibrated_template, isolated_env, dirs_exist_ok=True)


def test_the_layer_moves_a_strangers_message_like_the_agreed_ones_in_every_process(
    calibrated: Path,
) -> None:
    text = "my holiday balance is wrong this month"
    with Brain.open() as brain:
        here = brain.decide(Message(text, user="U9", channel="C-1"))
    with Brain.open() as other:  # another process: the layer is made from the stored lessons
        there = other.decide(Message(text, user="U9", channel="C-2"))

    assert here.controller == "consultation", here.tier_path
    assert "the online layer" in here.preference, here.preference
    assert (there.controller, there.preference) == (here.controller, here.preference)


@pytest.mark.usefixtures("calibrated")
def test_with_the_layer_one_correction_moves_its_author_and_no_stranger(capsys: Capsys) -> None:
    user, text = TAUGHT[0]
    _teach(capsys, user, text, "alarm")

    mine = _ask_all(capsys, PARAPHRASES, user)
    theirs = _ask_all(capsys, PARAPHRASES, "U9")

    assert len([d for d in mine if d["controller"] == "alarm"]) >= 3, mine
    assert not any(d["controller"] == "alarm" for d in theirs), theirs


@pytest.mark.usefixtures("calibrated")
def test_with_the_layer_three_agreeing_people_move_a_fourth(capsys: Capsys) -> None:
    for user, text in TAUGHT:
        _teach(capsys, user, text, "alarm")

    decided = _ask_all(capsys, PARAPHRASES + [text for text, _ in UNRELATED], "U4")

    moved, kept = decided[: len(PARAPHRASES)], decided[len(PARAPHRASES) :]
    assert [d["controller"] for d in moved] == ["alarm"] * len(PARAPHRASES), moved
    assert [d["controller"] for d in kept] == [name for _, name in UNRELATED], kept


@pytest.mark.usefixtures("calibrated")
def test_with_the_layer_a_disagreement_moves_no_one(capsys: Capsys) -> None:
    before = _ask_all(capsys, PARAPHRASES, "U4")
    for (user, text), controller in zip(TAUGHT, ("alarm", "alarm", "change"), strict=True):
        _teach(capsys, user, text, controller)

    after = _ask_all(capsys, PARAPHRASES, "U4")

    assert [d["controller"] for d in after] == [d["controller"] for d in before], after
