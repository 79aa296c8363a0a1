"""With `[memory] learned_reach`, a learned pair model (`brain.memory.reach_model`) decides who
agreed corrections reach instead of the hand-set gates; people who disagree still move no one,
and one correction still moves its author and not a stranger. (Three people reaching a fourth
user's wordings, and a look-alike staying, run with both in
`tests/engine/test_org_agreement_classes.py`.) Through the `brain` command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_calls import brain_call
from tests.engine.test_org_agreement_classes import WIFI, WIFI_FOURTH, _teach
from tests.engine.test_org_agreement_hub import _ask


@pytest.fixture(autouse=True)
def _learned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRAIN_MEMORY_LEARNED_REACH", "1")


def test_people_who_disagree_move_no_one(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _teach(capsys, WIFI, "access")
    # Three others move the same requests to another controller.
    _teach(capsys, [(f"U{int(user[1:]) + 4}", text) for user, text in WIFI], "ticket")

    after = [_ask(capsys, text, "U4") for text in WIFI_FOURTH]

    assert [d["controller"] for d in after if d["controller"] in ("access", "ticket")] == [], after
    for decision in after:
        assert "people moved messages like this" not in str(decision["rationale"])


def test_one_correction_moves_its_author_and_not_a_stranger(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    user, text = WIFI[0]
    first = _ask(capsys, text, user)
    brain_call(capsys, "feedback", str(first["decision_id"]), "--correct", "access", "--user", user)

    author = _ask(capsys, "I have a client visiting tomorrow, can I get a guest wifi code", user)
    stranger = _ask(capsys, "I have a client visiting tomorrow, can I get a guest wifi code", "U9")

    assert author["controller"] == "access", author
    assert stranger["controller"] != "access", stranger
