"""The stranger escalation set that `benchmarks/escalation.py` reports beside the product's
splits keeps the shape its figures assume (60 messages to page, 90 not to, a language tag that
matches the text), and the benchmark reads it as one of its splits without printing its rows."""

from __future__ import annotations

import json
from pathlib import Path

from tests.benchmark_scripts import load_benchmark

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "benchmarks" / "data" / "escalation_stranger.jsonl"


def test_the_set_has_sixty_to_page_and_ninety_not() -> None:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    assert sum(r["escalate"] is True for r in rows) == 60
    assert sum(r["escalate"] is False for r in rows) == 90
    assert len({r["text"] for r in rows}) == len(rows)
    for row in rows:
        chinese = any("\u4e00" <= ch <= "\u9fff" for ch in row["text"])
        assert row["lang"] == ("zh" if chinese else "en"), row["kind"]
        assert row["kind"]


def test_the_benchmark_reads_it_as_an_unread_split() -> None:
    module = load_benchmark("escalation")
    assert "stranger" in module.UNREAD
    rows = module._rows("stranger")
    assert len(rows) == 150
    assert {"text", "escalate", "kind"} <= set(rows[0])
