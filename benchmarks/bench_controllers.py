"""Controller benchmark: dry-run agreement with the labels, dry-run/handle latency, ticket lookups.

Side by side in one run, each with its baseline:
- dry-run agreement on a labelled development set (rows with ``text`` and ``controller``;
  the tickets that ticket rows name are imported first, as open tickets):
  share of a controller's own rows whose dry-run passes, and share of out-of-scope rows it
  would wrongly accept (what the verify tier relies on); baseline: "accept everything", the
  behaviour of a controller without a real dry-run;
- dry-run latency per controller, cold vs after the brain's shared `confirm_many` retrieval;
- ticket-store lookup latency at N tickets: ours (sharded) vs a plain one-file TinyDB query.

    python benchmarks/bench_controllers.py benchmarks/data/devset.jsonl [--tickets 2000]

Uses a throwaway BRAIN_HOME; the knowledge base is the shipped sample (MiniLM unless
BRAIN_EMBEDDER=none).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tinydb import Query, TinyDB


def _percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ordered):7.2f} ms  p99 {p99:7.2f} ms"


def _context(text: str, services: Any, entities: dict[str, list[str]]) -> Any:
    from controllers.base import ControllerContext

    return ControllerContext(
        text=text,
        user="U0BENCH",
        channel="C0BENCH",
        thread=None,
        decision_id="bench",
        intent="other",
        urgency="medium",
        entities=entities,
        services=services,
    )


def bench_dry_runs(rows: list[dict[str, Any]]) -> None:
    from brain.intent.entities import extract_entities
    from controllers.registry import ControllerRegistry
    from controllers.services import build_services
    from core.config import load_settings
    from knowledge import open_knowledge

    settings = load_settings()
    registry = ControllerRegistry.load(settings)
    knowledge = open_knowledge(settings)
    services = build_services(settings, knowledge, None)
    names = registry.names()
    # The tickets the ticket rows name exist (imported open, owned by someone else), so the
    # ticket dry-run measures id recognition and action checks, not an empty store.
    for row in rows:
        if row["controller"] == "ticket":
            for ticket_id in extract_entities(row["text"], knowledge).get("ticket_id", []):
                if services.tickets is not None and services.tickets.get(ticket_id) is None:
                    services.tickets.create(
                        "ticket", title="imported", requester="U0OTHER", ticket_id=ticket_id
                    )
    passed: Counter[tuple[str, str]] = Counter()
    totals: Counter[str] = Counter()
    cold: dict[str, list[float]] = {name: [] for name in names}
    warm: dict[str, list[float]] = {name: [] for name in names}
    for row in rows:
        label = row["controller"]
        totals[label] += 1
        entities = extract_entities(row["text"], knowledge)
        context = _context(row["text"], services, entities)
        for name in names:
            controller = registry.get(name)
            started = time.perf_counter()
            result = controller.dry_run(context)
            cold[name].append((time.perf_counter() - started) * 1000)
            if result.ok:
                passed[(name, label)] += 1
        knowledge.confirm_many(row["text"], names)  # what the brain does for its KB signal
        for name in names:
            started = time.perf_counter()
            registry.get(name).dry_run(context)
            warm[name].append((time.perf_counter() - started) * 1000)
    knowledge.close()
    oos = totals.get("oos", 0)
    print(f"dry-run agreement on {len(rows)} rows ({oos} out of scope); baseline accepts all")
    print(f"{'controller':13s} {'own rows pass':>14s} {'oos accepted':>13s} {'baseline':>9s}")
    for name in names:
        own = totals.get(name, 0)
        own_rate = passed[(name, name)] / own if own else float("nan")
        oos_rate = passed[(name, "oos")] / oos if oos else float("nan")
        print(f"{name:13s} {own_rate:13.0%} {oos_rate:13.0%} {1:9.0%}")
    print("\ndry-run latency: cold | after the shared confirm_many retrieval")
    for name in names:
        print(f"{name:13s} {_percentiles(cold[name])} | {_percentiles(warm[name])}")


def bench_ticket_lookups(count: int) -> None:
    from controllers.tickets import TicketStore
    from core.config import Settings
    from core.stores import open_backend
    from core.stores.kinds import field_key

    rows = [
        {
            "id": f"20250603{index:011d}",
            "kind": "ticket",
            "title": f"disbursement {index} not received",
            "requester": f"U{index % 50}",
            "status": "open",
            "fields": {"description": "x" * 300},
            "comments": [],
            "urged_at": [],
            "history": [],
        }
        for index in range(count)
    ]
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(home=Path(folder))
        backend = open_backend(settings)
        # bulk load; create() writes one by one
        backend.collection("tickets", key=field_key("id"), table="tickets", sharded=True).put_many(
            rows
        )
        store = TicketStore.open(settings)
        single = TinyDB(Path(folder) / "single.json")
        single.table("tickets").insert_multiple(rows)
        wanted = f"20250603{count - 1:011d}"
        ours, plain = [], []
        for _ in range(30):
            started = time.perf_counter()
            store.get(wanted)
            ours.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            single.table("tickets").get(Query().id == wanted)
            plain.append((time.perf_counter() - started) * 1000)
        single.close()
        ratio = statistics.median(plain) / max(statistics.median(ours), 1e-9)
        print(f"\nticket lookup at {count} tickets")
        print(f"  ours (sharded)    {_percentiles(ours)}")
        print(f"  plain TinyDB get  {_percentiles(plain)}   ratio {ratio:.0f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("devset", type=Path, help="JSONL rows with text and controller")
    parser.add_argument("--tickets", type=int, default=2000, help="tickets for the lookup test")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.devset.read_text("utf-8").splitlines() if line]
    with tempfile.TemporaryDirectory() as home:
        os.environ["BRAIN_HOME"] = home
        bench_dry_runs(rows)
    bench_ticket_lookups(args.tickets)


if __name__ == "__main__":
    main()
