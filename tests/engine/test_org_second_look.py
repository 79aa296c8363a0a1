"""Where the gates find no agreed group for a fourth person's wording, the second look
(`brain.memory.second_look`, a model fitted on the looked-at correction stories over the
multilingual and MiniLM readings and the semantic model's own probability) decides whether
three people's lesson reaches it; look-alikes with the lesson's words and another problem
stay where the model puts them. Through the `brain` command line.

The texts are the `stranger` set's desk-move story (benchmarks/data/org_stories_stranger.json,
a looked-at set): before the second look, "i switched desks ..." stayed with `change`, the
nearest shipped example (by MiniLM) being nearer than the three people's wordings."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_calls import brain_call
from tests.engine.test_org_agreement_hub import _ask

#: Three people's own desk moves, each moved to `ticket` (one in Chinese).
DESKS = [
    ("U1", "our team is moving to the 5th floor next week, who moves our desks and pcs?"),
    ("U2", "I got a new seat by the window, need my monitor and dock carried over"),
    ("U3", "下个月部门要搬到B座，电脑怎么搬"),
]
#: A fourth user's desk move the gates did not reach.
FOURTH = "i switched desks with a colleague, our phones and screens need swapping"
#: The lesson's words about other problems: a fault, and a question about booking a desk.
LOOK_ALIKES = ["my monitor is flickering on my new desk", "how do I book a desk in the office"]


def _teach(capsys: pytest.CaptureFixture[str]) -> None:
    for user, text in DESKS:
        decision = _ask(capsys, text, user)
        assert decision["controller"] != "ticket"  # the mistake each person corrects
        brain_call(
            capsys, "feedback", str(decision["decision_id"]), "--correct", "ticket", "--user", user
        )


def test_three_people_reach_a_wording_the_gates_did_not(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _ask(capsys, FOURTH, "U4")["controller"] != "ticket"  # the model alone
    _teach(capsys)

    after = _ask(capsys, FOURTH, "U4")

    assert after["controller"] == "ticket", after
    assert "3 people moved messages like this to ticket" in str(after["rationale"])


def test_look_alikes_stay_where_the_model_puts_them(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = [_ask(capsys, text, "U4")["controller"] for text in LOOK_ALIKES]
    _teach(capsys)

    after = [_ask(capsys, text, "U4")["controller"] for text in LOOK_ALIKES]

    assert after == before
    assert "ticket" not in after


def test_one_correction_moves_no_stranger(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    user, text = DESKS[1]
    first = _ask(capsys, text, user)
    brain_call(capsys, "feedback", str(first["decision_id"]), "--correct", "ticket", "--user", user)

    assert _ask(capsys, FOURTH, "U9")["controller"] != "ticket"
