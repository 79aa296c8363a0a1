"""Corrections made in English reach the same problem asked in Chinese, through the brain API:
the author's own Chinese wording moves after one correction and a stranger's does not; once
three people agree, a fourth person's Chinese wordings move; Chinese messages about something
else stay where they were. MiniLM is English-only and character n-grams do not cross scripts,
so before the multilingual measure (`brain.memory.example_pool`) none of them moved."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from brain.engine import Brain
from core.records import Decision, Message

#: Three people's own words for one problem; the brain does not send them to `consultation`.
TAUGHT = [
    ("U1", "the money for order 88231 has still not arrived"),
    ("U2", "money for order 31337 has still not arrived"),
    ("U3", "the funds for order 42424 still have not arrived"),
]
#: The same problem in Chinese (none shares a character sequence with the English).
CHINESE = ["钱没到，订单 77102", "我的订单款项还没收到"]
#: Chinese messages about other things.
UNRELATED = ["打印机又卡纸了", "我的电脑连不上无线网络"]


def _ask(brain: Brain, text: str, user: str, channel: str) -> Decision:
    return brain.decide(Message(text, user=user, channel=channel))


def _teach(brain: Brain, user: str, text: str) -> None:
    decision = brain.ask(Message(text, user=user, channel=f"C-teach-{user}"))
    assert decision.controller != "consultation", decision.rationale  # the mistake corrected
    brain.feedback(decision.decision_id, "correct", controller="consultation", user=user)


def _routes(brain: Brain, texts: list[str], user: str) -> list[str | None]:
    return [_ask(brain, t, user, f"C-{user}-{i}").controller for i, t in enumerate(texts)]


def test_english_corrections_reach_chinese_wordings_of_the_same_problem(brain: Brain) -> None:
    unrelated_before = _routes(brain, UNRELATED, "U4")
    assert "consultation" not in _routes(brain, CHINESE, "U4")

    _teach(brain, *TAUGHT[0])
    assert _routes(brain, CHINESE, "U1") == ["consultation"] * len(CHINESE)
    assert "consultation" not in _routes(brain, CHINESE, "U9")  # one person's lesson is theirs

    for user, text in TAUGHT[1:]:
        _teach(brain, user, text)
    fourth = [_ask(brain, t, "U4", f"C-fourth-{i}") for i, t in enumerate(CHINESE)]
    assert [d.controller for d in fourth] == ["consultation"] * len(CHINESE)
    assert all("3 people moved messages like this" in d.rationale for d in fourth)
    assert _routes(brain, UNRELATED, "U4") == unrelated_before


def test_a_warmed_brain_with_corrections_has_the_multilingual_encoder_loaded(home: Path) -> None:
    """The bot warms its brain before its first event: with corrections to compare with, the
    encoder is loaded then, not by the first Chinese message (1.5 s). A process of its own:
    the encoder is process-wide."""
    with Brain.open() as brain:
        _teach(brain, *TAUGHT[0])
    script = (
        "from brain.engine import Brain\n"
        "from core.text import multilingual\n"
        "brain = Brain.open()\n"
        "before = multilingual.loaded()\n"
        "brain.warm()\n"
        "print(before, multilingual.loaded())\n"
        "brain.close()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False", "True"]
