"""Ticket search on a seeded desk: is the right ticket in the top 3, by words alone and with
meaning (`controllers.ticket_search`), side by side in one run.

The desk and its topic queries are `benchmarks/data/ticket_search_desk.json`: 25 tickets in
English and Chinese; `tune` queries (mostly a word of the ticket; the former fixed cosine floor
was chosen on them) and `held_out` ones (synonyms, paraphrases, the other language; never tuned
on); `unrelated` topics no ticket is about (a hit there is a wrong answer); `stranger` queries,
written by a tester who read neither the search nor the other queries, where a query listing
no ticket is an unrelated topic and counted as one. Whether a ticket is shown at all is the
bar of `controllers.ticket_relevance`, fitted on its own data
(`controllers/data/ticket_relevance.json`), none of these splits; its fit is printed last.

Run: `PYTHONPATH=. .venv/bin/python benchmarks/ticket_search.py`
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from controllers.ticket_relevance import relevance  # noqa: E402
from controllers.ticket_search import search, tokens, units  # noqa: E402
from core.stores.records import Ticket  # noqa: E402
from core.text.multilingual import multilingual_vectors  # noqa: E402

DESK = REPO / "benchmarks" / "data" / "ticket_search_desk.json"


def main() -> None:
    data = json.loads(DESK.read_text(encoding="utf-8"))
    tickets = [
        Ticket(id=key, kind="incident", title=title, requester="U1", created_at="2026-12-01")
        for key, title in data["tickets"].items()
    ]
    print(f"{'set':<10}{'queries':>8}{'words: top 3':>14}{'with meaning: top 3':>22}")
    for name in ("tune", "held_out", "stranger"):
        rows = [(topic, wanted) for topic, wanted in data[name] if wanted]
        found = {False: 0, True: 0}
        for topic, wanted in rows:
            for meaning in (False, True):
                hits = search(tickets, topic, limit=3, by_meaning=meaning)
                found[meaning] += any(h.ticket.id in wanted for h in hits)
        print(f"{name:<10}{len(rows):>8}{found[False]:>14}{found[True]:>22}")
    unrelated = {
        "unrelated": data["unrelated"],
        "stranger": [topic for topic, wanted in data["stranger"] if not wanted],
    }
    for name, topics in unrelated.items():
        wrong = {
            meaning: sum(bool(search(tickets, t, by_meaning=meaning)) for t in topics)
            for meaning in (False, True)
        }
        print(f"{name} topics answered with tickets: words {wrong[False]} of {len(topics)}, "
              f"with meaning {wrong[True]} of {len(topics)}")  # fmt: skip
    for meaning in (True, False):
        model, _ = relevance(units, tokens, multilingual_vectors if meaning else None)
        print(f"bar {'with meaning' if meaning else 'words alone'}: p >= {model.bar:.2f}; its "
              f"training topics out of fold: related found {model.related:.0%}, unrelated "
              f"refused {model.unrelated:.0%}")  # fmt: skip


if __name__ == "__main__":
    main()
