"""The second fresh escalation set (`holdout_fresh2`), written before the escalation model, its
families or its cue lists were read, keeps the shape its figures assume (70 to page, 82 not,
at least 35% Chinese, some mixed), and the benchmark reads it as an unread split whose figures
are printed as totals only, never by kind, so that no family is tuned to it."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "benchmarks" / "data" / "escalation_fresh2.jsonl"


def _benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "escalation_benchmark_fresh2", REPO / "benchmarks" / "escalation.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_the_set_has_seventy_to_page_and_eighty_two_not() -> None:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    assert sum(r["escalate"] is True for r in rows) == 70
    assert sum(r["escalate"] is False for r in rows) == 82
    assert len({r["text"] for r in rows}) == len(rows)
    assert sum(r["lang"] == "zh" for r in rows) >= 0.35 * len(rows)
    for row in rows:
        assert row["lang"] in {"en", "zh", "mixed"}
        assert (row["lang"] != "en") == _chinese(row["text"]), row["kind"]
        assert row["kind"]


def test_the_benchmark_reads_it_unread_and_by_totals_only() -> None:
    module = _benchmark()
    assert "holdout_fresh2" in module.UNREAD
    assert "holdout_fresh2" in module.TOTALS_ONLY
    assert len(module._rows("holdout_fresh2")) == 152
