"""The seeded desk of `benchmarks/ticket_search.py`: the stranger queries keep the shape its
figure is reported at (15 queries in English and Chinese, 4 of them about topics no ticket
covers, every listed ticket on the desk)."""

from __future__ import annotations

import json
from pathlib import Path

DESK = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "ticket_search_desk.json"


def test_the_stranger_queries_name_tickets_of_the_desk() -> None:
    desk = json.loads(DESK.read_text(encoding="utf-8"))
    queries = desk["stranger"]
    assert len(queries) == 15
    assert sum(not wanted for _, wanted in queries) == 4
    assert all(ticket in desk["tickets"] for _, wanted in queries for ticket in wanted)
    chinese = [any("\u4e00" <= ch <= "\u9fff" for ch in topic) for topic, _ in queries]
    assert any(chinese) and not all(chinese)
