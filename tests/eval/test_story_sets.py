"""The correction stories of `benchmarks/org_agreement_story.py` keep the shape its figures
assume: three users' own messages and twelve paraphrases (8 English, 4 Chinese) per story,
no wording shared between stories (a shared one would count for two stories), and each set
can be run alone (`--set`), so a fresh set is measured without re-running the tuned ones. The
stranger set is read from its JSON file, the only place its stories are written. The second
fresh set is half Chinese or mixed, split into a half to look at and a half only measured, and
carries messages with similar words that must not move."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.benchmark_scripts import load_benchmark

REPO = Path(__file__).resolve().parents[2]


def _sets(module: object) -> tuple[tuple[Any, ...], ...]:
    names = ("TUNE", "HELD_OUT", "FRESH", "STRANGER")
    return tuple(getattr(module, name) for name in names)


def _chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_every_story_has_three_taught_messages_and_twelve_paraphrases() -> None:
    module = load_benchmark("org_agreement_stories")
    for stories in _sets(module):
        for story in stories:
            assert len(set(story.taught)) == 3, story.name
            assert len(set(story.paraphrases)) == 12, story.name
            assert sum(map(_chinese, story.paraphrases)) == 4, story.name


def test_no_wording_belongs_to_two_stories() -> None:
    module = load_benchmark("org_agreement_stories")
    fresh2 = (module.FRESH2, module.FRESH2_HOLD, module.FRESH3)  # type: ignore[attr-defined]
    texts = [
        text
        for stories in _sets(module) + fresh2
        for story in stories
        for text in story.taught + story.paraphrases + story.must_not
    ]
    assert len(texts) == len(set(texts))


def test_the_benchmark_runs_one_set_alone() -> None:
    shown = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "org_agreement_story.py"), "--help"],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    ).stdout
    assert "--set" in shown and "fresh" in shown and "stranger" in shown
    assert "fresh2_hold" in shown


def test_the_second_fresh_set_is_half_chinese_with_a_half_held_out() -> None:
    module = load_benchmark("org_agreement_stories")
    tune, hold = module.FRESH2, module.FRESH2_HOLD  # type: ignore[attr-defined]
    assert len(tune) == len(hold) >= 4
    stories = tune + hold
    for story in stories:
        assert len(set(story.taught)) == 3, story.name
        assert len(set(story.paraphrases)) == 12, story.name
        assert len(set(story.must_not)) >= 4, story.name
    chinese = [s for s in stories if sum(map(_chinese, s.paraphrases)) >= 6]
    assert len(chinese) * 2 >= len(stories)


def test_the_stranger_set_is_its_json_file() -> None:
    module = load_benchmark("org_agreement_stories")
    stories = module.STRANGER  # type: ignore[attr-defined]
    assert len(stories) == 6
    assert {story.target for story in stories} <= {
        "ticket",
        "consultation",
        "alarm",
        "coding",
        "access",
        "incident",
        "change",
    }
