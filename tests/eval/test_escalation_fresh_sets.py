"""The fresh escalation sets kept beside the benchmark, written before the escalation model's
families or cue lists (fresh2) or any split's or training rows (fresh3, fresh4) were read, keep
the shape their figures assume (so many to page and not, at least 35% Chinese, some mixed), and
the benchmark reads each as an unread split whose figures are printed as totals only, never by
kind, so that no family is tuned to it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.benchmark_scripts import load_benchmark

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "benchmarks" / "data"
#: split -> (file, rows to page, rows not to page)
SETS = {
    "holdout_fresh2": ("escalation_fresh2.jsonl", 70, 82),
    "holdout_fresh3": ("escalation_fresh3.jsonl", 46, 57),
    "holdout_fresh4": ("escalation_fresh4.jsonl", 50, 53),
}


def _chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


@pytest.mark.parametrize("split", sorted(SETS))
def test_the_set_has_its_shape(split: str) -> None:
    name, page, not_page = SETS[split]
    rows = [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]
    assert sum(r["escalate"] is True for r in rows) == page
    assert sum(r["escalate"] is False for r in rows) == not_page
    assert len({r["text"] for r in rows}) == len(rows)
    assert sum(r["lang"] == "zh" for r in rows) >= 0.35 * len(rows)
    assert any(r["lang"] == "mixed" for r in rows)
    for row in rows:
        assert row["lang"] in {"en", "zh", "mixed"}
        assert (row["lang"] != "en") == _chinese(row["text"]), row["kind"]
        assert row["kind"]


@pytest.mark.parametrize("split", sorted(SETS))
def test_the_benchmark_reads_it_unread_and_by_totals_only(split: str) -> None:
    module = load_benchmark("escalation")
    _, page, not_page = SETS[split]
    assert split in module.UNREAD
    assert split in module.TOTALS_ONLY
    assert len(module._rows(split)) == page + not_page
