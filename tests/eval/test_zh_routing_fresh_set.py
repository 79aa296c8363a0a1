"""The held-out Chinese routing set keeps the shape its figures assume: 20 rows for each of the
seven built-in controllers and for `oos`, every row Chinese, about 30% mixed with English words
(`lang` says which: `mixed` when an English word of two or more letters remains once tokens with
digits are dropped), no wording twice; and the benchmark reads that file."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from tests.benchmark_scripts import load_benchmark

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "zh_routing_fresh.jsonl"
LABELS = ("ticket", "consultation", "alarm", "coding", "access", "incident", "change", "oos")


def _rows() -> list[dict[str, str]]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]


def _lang(text: str) -> str:
    for token in re.findall(r"[\x21-\x7e]+", text):
        if not re.search(r"\d", token) and re.search(r"[A-Za-z]{2}", token):
            return "mixed"
    return "zh"


def test_the_set_has_its_shape() -> None:
    rows = _rows()
    assert Counter(r["controller"] for r in rows) == dict.fromkeys(LABELS, 20)
    assert len({r["text"] for r in rows}) == len(rows)
    for row in rows:
        assert set(row) == {"text", "controller", "lang"}
        assert any("\u4e00" <= ch <= "\u9fff" for ch in row["text"])
        assert row["lang"] == _lang(row["text"]), row["lang"]
    mixed = sum(r["lang"] == "mixed" for r in rows)
    assert 0.2 * len(rows) <= mixed <= 0.4 * len(rows)


def test_the_benchmark_reads_the_set() -> None:
    module = load_benchmark("zh_routing_fresh")
    assert module.rows() == _rows()
