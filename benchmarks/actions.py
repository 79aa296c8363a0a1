"""What the brain *does*: duplicate tickets and multi-intent parts handled.

    python benchmarks/actions.py [--home HOME] [--devset FILE] [--devset-tickets FILE]
        [--multi FILE]

HOME is a fitted brain home (default: $BRAIN_HOME); it is copied, never changed. Two copies
run side by side: this build, and a baseline with the issue-11 steps switched off (no look-up
before create, no multi-intent split).

- duplicate tickets: dev-set messages that name a ticket the store holds, asked with
  `Brain.ask`: every new ticket filed for one of them is a duplicate (target 0); and messages
  asking about an id the store does not hold ("please check CHG-12345"): tickets filed for them;
- multi-intent: benchmarks/data/multi_intent.jsonl (written apart from the router's training
  data; the router does not learn from it): a multi-part row counts as handled when each wanted
  controller took a part and ran without failing; a one-request row when it was not split.

Figures are printed; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from brain.chain import route as route_step  # noqa: E402
from brain.chain.lookup import asks_about_ticket, named_tickets  # noqa: E402
from brain.engine import Brain  # noqa: E402
from controllers import requests  # noqa: E402
from controllers.tickets import TicketStore  # noqa: E402
from core.config import Settings  # noqa: E402
from core.files import copy_tree  # noqa: E402
from core.records import Decision, Message  # noqa: E402


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@contextmanager
def _baseline(on: bool) -> Iterator[None]:
    """Switch the issue-11 steps off (the build before them) while `on`."""
    if not on:
        yield
        return
    saved = (
        route_step.prefer_existing,
        Brain._decide_parts,
        requests.waiting_ticket,
        requests.named_open_ticket,
    )
    route_step.prefer_existing = lambda plan, *a, **k: plan  # type: ignore[assignment]
    Brain._decide_parts = lambda self, *a, **k: None  # type: ignore[assignment,method-assign]
    requests.waiting_ticket = lambda *a, **k: None  # type: ignore[assignment]
    requests.named_open_ticket = lambda *a, **k: None  # type: ignore[assignment]
    try:
        yield
    finally:
        (
            route_step.prefer_existing,
            Brain._decide_parts,  # type: ignore[method-assign]
            requests.waiting_ticket,
            requests.named_open_ticket,
        ) = saved


def duplicates(brain: Brain, rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    store = TicketStore.open(brain.settings)
    asked = dup = lookups = filed = 0
    for i, row in enumerate(rows):
        named = named_tickets(row["text"], {}, lambda t: store.get(t) is not None)
        stored = any(store.get(t) is not None for t in named)
        lookup = bool(named) and not stored and asks_about_ticket(row["text"])
        if not stored and not lookup:
            continue
        before = {t.id for t in store.all()}
        brain.ask(Message(row["text"], user=f"bench{i}", channel="bench"))
        new = len({t.id for t in store.all()} - before)
        if stored:  # a duplicate is a second ticket for one the store holds
            asked, dup = asked + 1, dup + new
        else:  # "please check CHG-12345" for an id the store does not hold
            lookups, filed = lookups + 1, filed + new
    return {
        "messages_naming_a_stored_ticket": asked,
        "duplicate_tickets": dup,
        "look_ups_of_unknown_ids": lookups,
        "tickets_filed_for_look_ups": filed,
    }


def _handled(decision: Decision, wanted: list[str]) -> bool:
    if len(wanted) == 1:
        return not decision.parts
    result = decision.result
    if result is None:
        return False
    ran = result.parts or [result]
    # Handled: the part ran without failing (a controller asking for a missing detail, such
    # as the code to review, has handled its part).
    good = {p.controller for p in ran if not p.error}
    took = {p.controller for p in decision.parts} or {decision.controller, *decision.supporting}
    return set(wanted) <= took and set(wanted) <= good


def multi_intent(brain: Brain, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    multi = [r for r in rows if len(r["parts"]) > 1]
    single = [r for r in rows if len(r["parts"]) == 1]
    ok_multi = sum(
        _handled(brain.ask(Message(r["text"], "bench", "bench")), r["parts"]) for r in multi
    )
    ok_single = sum(
        _handled(brain.ask(Message(r["text"], "bench", "bench")), r["parts"]) for r in single
    )
    return {
        "multi_rows": len(multi),
        "multi_all_parts_handled": ok_multi / len(multi) if multi else None,
        "single_rows": len(single),
        "single_not_split": ok_single / len(single) if single else None,
    }


def action_figures(
    settings: Settings,
    devset: Sequence[dict[str, Any]],
    multi: Sequence[dict[str, Any]],
    tickets: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """Duplicate tickets and multi-intent parts handled, asked with `Brain.ask` in the home of
    `settings` (changed: tickets are filed there); `tickets` are imported first unless the
    store already holds them. Shared with `benchmarks/routing.py`'s dev-set section."""
    store = TicketStore.open(settings)
    try:
        for record in tickets:
            if store.get(record["id"]) is None:
                store.import_records([record])
    finally:
        store.release()
    with Brain(settings) as brain:
        return {**duplicates(brain, devset), **multi_intent(brain, multi)}


def print_action_figures(figures: dict[str, Any]) -> None:
    """One line each, as `benchmarks/routing.py` prints them."""
    multi, single = figures["multi_all_parts_handled"], figures["single_not_split"]
    print(
        f"duplicate tickets: {figures['duplicate_tickets']} for "
        f"{figures['messages_naming_a_stored_ticket']} messages naming a stored ticket; "
        f"tickets filed for {figures['look_ups_of_unknown_ids']} look-ups of unknown ids: "
        f"{figures['tickets_filed_for_look_ups']}"
    )
    print(
        f"multi-intent: every part handled in {_share(multi)} of {figures['multi_rows']} "
        f"multi-request messages; {_share(single)} of {figures['single_rows']} one-request "
        "messages not split"
    )


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def run(home: Path, args: argparse.Namespace, baseline: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-actions-") as tmp:
        copy = Path(tmp) / "home"
        copy_tree(home, copy)
        with _baseline(baseline):
            return action_figures(
                Settings(home=copy),
                _rows(args.devset),
                _rows(args.multi),
                _rows(args.devset_tickets),
            )


def main(argv: Sequence[str] | None = None) -> int:
    data = REPO / "benchmarks" / "data"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, default=Path(os.environ.get("BRAIN_HOME", "")))
    parser.add_argument("--devset", type=Path, default=data / "devset.jsonl")
    parser.add_argument("--devset-tickets", type=Path, default=data / "devset_tickets.jsonl")
    parser.add_argument("--multi", type=Path, default=data / "multi_intent.jsonl")
    args = parser.parse_args(argv)
    if not (args.home / "models").is_dir():
        print("benchmarks/actions.py: --home must be a fitted brain home", file=sys.stderr)
        return 2
    ours = run(args.home, args, baseline=False)
    base = run(args.home, args, baseline=True)
    print(f"{'figure':32} {'this build':>12} {'baseline':>12}")
    for key in ours:
        a, b = ours[key], base[key]
        fa = f"{a:.1%}" if isinstance(a, float) else str(a)
        fb = f"{b:.1%}" if isinstance(b, float) else str(b)
        print(f"{key:32} {fa:>12} {fb:>12}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
