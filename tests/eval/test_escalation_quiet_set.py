"""The quiet split kept beside the benchmark (ordinary Slack messages that must not page beside
live events that must, written without opening the escalation data) keeps the shape its
figures assume, shares no text with the product's labelled data (or it would measure what was
trained on), and is read as an unread split whose figures are totals only, on the benchmark's
path and on the product's (`benchmarks/quiet_pages.py`)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from tests.benchmark_scripts import load_benchmark

REPO = Path(__file__).resolve().parents[2]
SPLIT = REPO / "benchmarks" / "data" / "escalation_quiet.jsonl"
#: The product's labelled rows: the escalation model's and the routing model's.
TRAINED = (REPO / "brain" / "data" / "escalation.jsonl", REPO / "brain" / "data" / "training.jsonl")


def _rows(path: Path) -> list[dict]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _key(text: str) -> str:
    return " ".join(text.casefold().split())


def _chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_the_split_has_its_shape() -> None:
    rows = _rows(SPLIT)
    assert sum(r["escalate"] is False for r in rows) >= 320
    assert sum(r["escalate"] is True for r in rows) >= 80
    assert len({_key(r["text"]) for r in rows}) == len(rows)
    langs = Counter(r["lang"] for r in rows)
    assert set(langs) == {"en", "zh", "mixed"}
    assert 0.40 <= langs["en"] / len(rows) <= 0.50
    assert 0.35 <= langs["zh"] / len(rows) <= 0.45
    assert 0.10 <= langs["mixed"] / len(rows) <= 0.20
    for lang in langs:  # recall and wrong pages are measured in every language
        assert {r["escalate"] for r in rows if r["lang"] == lang} == {True, False}
    for row in rows:
        assert set(row) == {"text", "escalate", "kind", "lang"}
        assert (row["lang"] != "en") == _chinese(row["text"]), row["kind"]
        assert row["kind"] and row["text"].strip() == row["text"]
    assert len({r["kind"] for r in rows if not r["escalate"]}) >= 20


def test_no_row_is_a_trained_text() -> None:
    trained = {_key(str(r["text"])) for path in TRAINED for r in _rows(path)}
    assert trained
    shared = [r["kind"] for r in _rows(SPLIT) if _key(r["text"]) in trained]
    assert not shared


def test_the_benchmark_reads_it_unread_and_by_totals_only() -> None:
    module = load_benchmark("escalation")
    assert "holdout_quiet" in module.UNREAD
    assert "holdout_quiet" in module.TOTALS_ONLY
    assert len(module._rows("holdout_quiet")) == len(_rows(SPLIT))


def test_the_product_path_figures_are_counts_by_language() -> None:
    module = load_benchmark("quiet_pages")
    rows = [
        {"text": "how do i merge two dataframes", "escalate": False, "kind": "k", "lang": "en"},
        {"text": "全公司邮箱都挂了", "escalate": True, "kind": "k", "lang": "zh"},
        {"text": "my laptop is slow", "escalate": False, "kind": "k", "lang": "en"},
        {"text": "SSO 挂了 for everyone", "escalate": True, "kind": "k", "lang": "mixed"},
    ]
    report = module.figures(rows, [True, True, False, False])
    assert (report["wrong_pages"], report["must_not_page"]) == (1, 2)
    assert (report["paged"], report["must_page"], report["recall"]) == (1, 2, 0.5)
    assert report["by_language"]["zh"]["recall"] == 1.0
    assert report["by_language"]["mixed"]["recall"] == 0.0
    assert report["by_language"]["en"]["wrong_pages"] == 1
    assert not any(r["text"] in json.dumps(report, ensure_ascii=False) for r in rows)
