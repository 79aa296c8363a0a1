"""The scripted conversations of `benchmarks/conversation.py`: the stranger and tune2 splits
keep the sizes their figures are reported at (30 conversations and at least 100 turns; 40 and at
least 130, a third in Chinese), every turn with a kind the benchmark scores, and the benchmark
refuses to print a held-out split's failed turns, so that nobody reads them by accident."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "benchmarks" / "data" / "conversations.jsonl"
KINDS = {"follow", "question", "files", "new", "no_answer", "answer"}


def _benchmark() -> ModuleType:
    """`benchmarks/conversation.py` as a module: its column order (`SPLITS`) and the splits
    whose failures it never prints (`HELD_OUT`)."""
    spec = importlib.util.spec_from_file_location(
        "conversation_benchmark", REPO / "benchmarks" / "conversation.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _split(name: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """One split's conversations, their turns, and how many conversations open in Chinese."""
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    split = [row for row in rows if row["split"] == name]
    turns = [turn for row in split for turn in row["turns"]]
    opening = sum(_chinese(row["turns"][0]["text"]) for row in split)
    return split, turns, opening


def _chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_the_stranger_split_has_thirty_conversations_in_both_languages() -> None:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    stranger = [row for row in rows if row["split"] == "stranger"]
    turns = [turn for row in stranger for turn in row["turns"]]
    assert len(stranger) == 30
    assert len(turns) >= 100
    assert {turn["expect"] for turn in turns} == KINDS
    assert any("\u4e00" <= ch <= "\u9fff" for turn in turns for ch in turn["text"])


def test_failures_of_a_held_out_split_are_not_printed() -> None:
    for split in ("holdout", "stranger"):
        shown = subprocess.run(
            [sys.executable, str(REPO / "benchmarks" / "conversation.py"), "--failures", split],
            capture_output=True,
            text=True,
            cwd=REPO,
            env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
        )
        assert shown.returncode == 2
        assert "held out" in shown.stderr


def test_the_tune2_split_is_forty_conversations_a_third_in_chinese() -> None:
    """The second tuning split is the size its figure is reported at, a third of its turns in
    Chinese, and has a column of its own between holdout and stranger."""
    tune2, turns, _ = _split("tune2")
    chinese = [turn for turn in turns if _chinese(turn["text"])]
    assert len(tune2) == 40
    assert len(turns) >= 130
    assert 3 * len(chinese) >= len(turns)
    assert {turn["expect"] for turn in turns} <= KINDS
    assert _benchmark().SPLITS[:4] == ("tune", "holdout", "tune2", "stranger")


def test_the_tune3_split_opens_half_its_conversations_in_chinese_and_is_tuned_on() -> None:
    """The third tuning split: sixty conversations, half of them opening in Chinese, every kind
    of turn, a column of its own, and its failures may be printed (it is not held out)."""
    tune3, turns, chinese = _split("tune3")
    assert len(tune3) == 60
    assert len(turns) >= 150
    assert 2 * chinese >= len(tune3)
    assert {turn["expect"] for turn in turns} == KINDS
    benchmark = _benchmark()
    assert benchmark.SPLITS.index("tune3") == benchmark.SPLITS.index("stranger3") + 1
    assert "tune3" not in benchmark.HELD_OUT


def test_the_tune4_split_is_forty_conversations_in_both_languages_and_is_tuned_on() -> None:
    """The fourth tuning split: forty conversations, a third of them opening in Chinese,
    follow-ups, answers and refusals, a column of its own, and not held out."""
    tune4, turns, chinese = _split("tune4")
    assert len(tune4) == 40
    assert len(turns) >= 100
    assert 3 * chinese >= len(tune4)
    assert {turn["expect"] for turn in turns} >= {"files", "follow", "answer", "no_answer", "new"}
    benchmark = _benchmark()
    assert benchmark.SPLITS.index("tune4") == benchmark.SPLITS.index("tune3") + 1
    assert "tune4" not in benchmark.HELD_OUT


def test_the_tune5_split_is_thirty_conversations_in_both_languages_and_is_tuned_on() -> None:
    """The fifth tuning split (the lead's): thirty conversations, a third of them opening in
    Chinese, follow-ups, new problems and answers, the last column, and not held out."""
    tune5, turns, chinese = _split("tune5")
    assert len(tune5) == 30
    assert len(turns) >= 90
    assert 3 * chinese >= len(tune5)
    assert {turn["expect"] for turn in turns} >= {"files", "follow", "answer", "new"}
    benchmark = _benchmark()
    assert benchmark.SPLITS[-1] == "tune5"
    assert "tune5" not in benchmark.HELD_OUT
