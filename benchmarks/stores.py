"""Record stores: cost per write as a store grows, and durable vs write-behind throughput.

1. Write cost at 100 / 1k / 10k / 100k records, side by side: a ticket record inserted in
   the earlier one-file TinyDB layout (every write rewrote the whole file) and in today's
   sharded store, a ticket created the way the ticket controller does (`TicketStore.create`:
   next id from the shared sequence, look-up, insert), a memory lesson (with its change feed),
   a decision appended and a feedback item added. The stores are bulk-loaded through their
   own write calls (`put_many`, and the decision log's `append_many`, one journal write per
   10k decisions applied by one checkpoint) with fsync switched off (`unsynced`), then
   everything is flushed to disk (`os.sync`) so the kernel's write-back of the load does not
   land in the timed writes; every timed write syncs as usual. Each row's writes alternate
   with the same writes on a 100-record store loaded beside it, and the row shows its p50 over
   that store's (x): load from elsewhere on the machine slows both alike, so a ratio near 1.0
   means the write costs the same at that size as at 100.
2. Decisions and feedback per second with durable acknowledgement (every call returns after
   its journal line is fsynced; writers arriving together share one fsync) against write-behind
   (acknowledged before it is on disk: the journal line is not fsynced, as the earlier log's
   background writer did not wait either), with 1 and 4 writer threads, each until the shards
   hold everything.

Measures, never asserts. Run:
`.venv/bin/python benchmarks/stores.py [--sizes 100,1000,10000,100000]`
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from controllers.tickets import TicketStore  # noqa: E402
from core.config import Settings  # noqa: E402
from core.records import Decision, FeedbackRecord, IntentResult, SignalScores  # noqa: E402
from core.stores import open_backend, open_stores  # noqa: E402
from core.stores.kinds import SEQUENCE_KEY, field_key  # noqa: E402
from core.stores.tinydb.collection import TinyCollection  # noqa: E402
from core.stores.tinydb.decisions import TinyDecisionStore  # noqa: E402

_ids = iter(range(1, 10**9))
SIGNALS = {"keyword": 0.1, "semantic": 0.2, "knowledge": 0.3, "session": 0.5, "memory": 0.5}


def decision(user: str = "u1") -> Decision:
    """A decision of typical size (signals for seven controllers, a rationale)."""
    names = ["ticket", "consultation", "alarm", "coding", "access", "incident", "change"]
    return Decision(
        decision_id=f"d-{next(_ids):012x}",
        text="VPN 连不上，报错 691, since this morning on my laptop",
        user=user,
        channel="C1",
        thread=None,
        controller="incident",
        supporting=[],
        confidence=0.83,
        tier="fast",
        outcome="routed",
        escalate=False,
        urgency="medium",
        intent=IntentResult.from_dict(
            {"intent": "network_issue", "confidence": 0.9},
            urgency="medium",
            entities={"error_code": ["691"]},
        ),
        entities={"error_code": ["691"]},
        signals={name: SignalScores(dict(SIGNALS), total=0.3) for name in names},
        rationale="incident 0.83 (fast): keyword vpn, semantic 0.91, knowledge runbook vpn-691",
    )


def ticket(index: int) -> dict[str, Any]:
    stamp = "2026-01-01T00:00:00+00:00"
    return {
        "id": f"INC-{index:06d}", "kind": "incident", "title": f"laptop {index} will not boot",
        "requester": f"U{index % 50}", "status": "open", "fields": {"description": "x" * 300},
        "assignee": None, "created_at": stamp, "updated_at": stamp, "comments": [],
        "urge_count": 0, "urged_at": [], "history": [{"at": stamp, "by": "U1", "event": "created"}],
    }  # fmt: skip


def lesson(index: int) -> dict[str, Any]:
    return {
        "memory_id": f"m-{index}", "controller": "access", "weight": 0.1, "kind": "confirmation",
        "text": f"reset my password {index}", "decision_id": f"d-{index}", "user": "u1",
        "created_at": "2026-01-01T00:00:00+00:00", "ids": [], "vector": "A" * 1024,
    }  # fmt: skip


@contextmanager
def unsynced() -> Iterator[None]:
    """Seeding only: the stores' own write calls, with `os.fsync` a no-op meanwhile."""
    real = os.fsync
    os.fsync = lambda fd: None
    try:
        yield
    finally:
        os.fsync = real


#: Decisions per checkpoint while seeding (one batch rewrites each shard and bucket once).
SEED_BATCH = 10_000


def fill_decisions(root: Path, count: int) -> TinyDecisionStore:
    """A decision log of `count` decisions: appended through the log in bulk, applied by a
    checkpoint per batch (one rewrite of each shard and bucket per batch)."""
    with unsynced():
        loader = TinyDecisionStore(root, durable=False)
        for start in range(0, count, SEED_BATCH):
            loader.append_many(decision() for _ in range(min(SEED_BATCH, count - start)))
            loader.flush()
        loader.close()
    return TinyDecisionStore(root)


#: The kinds of write timed in table 1, in column order.
KINDS = ("ticket 1-file", "ticket sharded", "ticket create", "lesson", "decision", "feedback")
#: Records in the small store every row is compared with, timed alongside (interleaved).
BASELINE = 100


class Loaded:
    """Stores under `home` already holding `size` records, and one timed write of each kind
    (only the stores `kinds` writes are loaded)."""

    def __init__(self, home: Path, size: int, kinds: tuple[str, ...] = KINDS) -> None:
        self.home = home
        settings = Settings(home=home)
        backend = open_backend(settings)
        self.stores = open_stores(settings)
        self.one_file = TinyCollection(home / "one-file.json", key=field_key("id"), table="tickets")
        with unsynced():
            self.stores.tickets.insert(ticket(0))  # the sharded tickets' folder, as a home has it
            sharded = backend.collection(
                "tickets", key=field_key("id"), table="tickets", sharded=True
            )
            sharded.put_many(ticket(i) for i in range(size))
            sharded.flush()  # into the buckets (the journal in front holds the last writes only)
            sequence = backend.collection("ticket_sequence", key=field_key("key"))
            sequence.put_many([{"key": SEQUENCE_KEY, "value": size}])  # as `size` creates left it
            if "ticket 1-file" in kinds:
                self.one_file.put_many(ticket(i) for i in range(size))
            self.stores.lessons.put_many(lesson(i) for i in range(size))
            # Folded in now: a checkpoint of the load left running in the background rewrote
            # every bucket while the writes below were timed (it outlasted the 10k row).
            self.stores.lessons.flush()
        wants_log = "decision" in kinds or "feedback" in kinds
        self.log = fill_decisions(home / "decisions", size if wants_log else 0)
        self.tickets = TicketStore(self.stores.tickets)
        self.counter = iter(range(size + 500_000, size + 10**6))  # apart from created ids
        self.appended: list[str] = []

    def write(self, kind: str) -> None:
        if kind == "ticket 1-file":
            self.one_file.insert(ticket(next(self.counter)))
        elif kind == "ticket sharded":
            self.stores.tickets.insert(ticket(next(self.counter)))
        elif kind == "ticket create":
            self.tickets.create("incident", title="laptop", requester="U1")
        elif kind == "lesson":
            self.stores.lessons.put_many([lesson(next(self.counter))])
        elif kind == "decision":
            made = decision()
            self.log.append(made)
            self.appended.append(made.decision_id)
        else:  # feedback, on the decisions appended above
            entry = {"kind": "confirm", "controller": None, "user": "u1", "source": "bench"}
            self.log.add_feedback(self.appended.pop(0), entry)

    def close(self) -> None:
        self.log.close()
        self.stores.close()


#: One cell of table 1: wall p50, wall p99, the 100-record store's wall p50, then the CPU
#: p50 of the writing thread for both (`time.thread_time`: what load elsewhere cannot inflate).
Cell = tuple[float, float, float, float, float]


#: Journals folded into their buckets after the acknowledged write (file, store, kinds).
FOLDED = (
    ("tickets.journal.jsonl", "tickets", ("ticket sharded", "ticket create")),
    ("memory_journal.jsonl", "lessons", ("lesson",)),
)


def fold_costs(big: Loaded, small: Loaded, kinds: tuple[str, ...]) -> list[tuple[str, Cell]]:
    """The background work the timed writes left: each journal's fold into its buckets, per
    line (wall and CPU of the folding thread), for both stores; the big store folds first."""
    folds = []
    for name, store, writers in FOLDED:
        if not set(writers) & set(kinds):
            continue
        per_line: dict[str, tuple[float, float]] = {}
        for label, loaded in (("big", big), ("small", small)):
            lines = len((loaded.home / name).read_bytes().splitlines())
            started, started_cpu = time.perf_counter(), time.thread_time()
            getattr(loaded.stores, store).flush()
            per_line[label] = (
                (time.perf_counter() - started) * 1000 / max(lines, 1),
                (time.thread_time() - started_cpu) * 1000 / max(lines, 1),
            )
        wall, cpu = per_line["big"]
        folds.append((store, (wall, wall, per_line["small"][0], cpu, per_line["small"][1])))
    return folds


def write_cost_row(
    size: int, repeats: int, kinds: tuple[str, ...] = KINDS
) -> tuple[list[Cell], list[tuple[str, Cell]]]:
    """One row of table 1, a cell per kind, and the folds the writes left (`fold_costs`).
    The two stores' writes alternate, each going first every other time, so load from
    elsewhere on the machine hits both alike."""
    with tempfile.TemporaryDirectory(prefix="stores-bench-") as folder:
        big = Loaded(Path(folder) / "big", size, kinds)
        small = Loaded(Path(folder) / "small", BASELINE, kinds)
        os.sync()  # the load's write-back is done before anything is timed
        cells = []
        for kind in kinds:
            times = repeats if kind != "ticket 1-file" or size <= 10_000 else 3  # s each at 100k
            wall: dict[str, list[float]] = {"big": [], "small": []}
            cpu: dict[str, list[float]] = {"big": [], "small": []}
            pair = [("small", small), ("big", big)]
            for _ in range(times):
                pair.reverse()  # who writes second pays more (A/A at 100 vs 100: 1.2-1.4x)
                for name, store in pair:
                    started, started_cpu = time.perf_counter(), time.thread_time()
                    store.write(kind)
                    cpu[name].append((time.thread_time() - started_cpu) * 1000)
                    wall[name].append((time.perf_counter() - started) * 1000)
            p50, p99 = percentiles(wall["big"])
            cells.append(
                (
                    p50,
                    p99,
                    percentiles(wall["small"])[0],
                    percentiles(cpu["big"])[0],
                    percentiles(cpu["small"])[0],
                )
            )
        folds = fold_costs(big, small, kinds)
        big.close()
        small.close()
        return cells, folds


def percentiles(samples: list[float]) -> tuple[float, float]:
    """p50 and p99 in milliseconds (p99 is the maximum below 100 samples)."""
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, len(ordered) * 99 // 100)]


def write_costs(sizes: list[int], repeats: int, kinds: tuple[str, ...] = KINDS) -> None:
    print("1. write cost as the store grows: ms p50 / p99, and (x) the p50 over that of a")
    print(f"   {BASELINE}-record store written alternately in the same moments; then the")
    print("   writing thread's CPU ms p50 and its (x) over the 100-record store's")
    print("   records  " + "".join(f"{kind:>38}" for kind in kinds) + "   load s  load avg")
    for size in sizes:
        started = time.perf_counter()
        cells, folds = write_cost_row(size, repeats, kinds)
        took = time.perf_counter() - started
        print(
            f"   {size:>7,}  "
            + "".join(
                f"{p50:6.1f}/{p99:6.1f} ({p50 / base:4.2f}x) cpu {cpu:5.2f} "
                f"({cpu / max(base_cpu, 1e-6):4.2f}x)"
                for p50, p99, base, cpu, base_cpu in cells
            )
            + f"   {took:6.0f}  {os.getloadavg()[0]:.1f}"
        )
        if folds:
            print(
                "            then folded in the background, ms per journal line: "
                + "; ".join(
                    f"{store} {wall:.2f} ({wall / base:4.2f}x) cpu {cpu:.2f} "
                    f"({cpu / max(base_cpu, 1e-6):4.2f}x)"
                    for store, (wall, _, base, cpu, base_cpu) in folds
                )
            )


def throughput_run(*, durable: bool, threads: int, count: int) -> tuple[float, float]:
    """Decisions/s and feedback/s until everything is on disk."""
    entry = {"kind": "confirm", "controller": None, "user": "u1", "source": "bench"}
    with tempfile.TemporaryDirectory(prefix="stores-bench-") as folder:
        log = TinyDecisionStore(Path(folder) / "decisions", durable=durable)
        made = [decision(user=f"u{i % 20}") for i in range(count)]
        started = time.perf_counter()
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(log.append, made))
        log.flush()  # write-behind: count the time until it is really on disk
        decisions_s = count / (time.perf_counter() - started)

        def give(one: Decision) -> None:
            if durable:
                log.add_feedback(one.decision_id, entry)
            else:  # as before: feedback appended to the decision, queued as an update
                one.feedback.append(FeedbackRecord.from_dict(entry))
                log.update(one)

        started = time.perf_counter()
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(give, made))
        log.flush()
        feedback_s = count / (time.perf_counter() - started)
        log.close()
    return decisions_s, feedback_s


def throughput(count: int) -> None:
    print("\n2. decisions and feedback per second: durable (group commit) vs write-behind")
    print("   mode           threads   decisions/s   feedback/s   acknowledged = on disk")
    for durable in (False, True):
        for threads in (1, 4):
            decisions_s, feedback_s = throughput_run(durable=durable, threads=threads, count=count)
            mode = "durable" if durable else "write-behind"
            acknowledged = "yes" if durable else "no (queued)"
            print(
                f"   {mode:13s}  {threads:>7}   {decisions_s:11.0f}   {feedback_s:10.0f}   "
                f"{acknowledged}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000,100000")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument(
        "--throughput", type=int, default=400, help="decisions per run (0: skip table 2)"
    )
    parser.add_argument(
        "--kinds", default=",".join(KINDS), help=f"table 1's columns, of: {', '.join(KINDS)}"
    )
    args = parser.parse_args()
    kinds = tuple(kind.strip() for kind in args.kinds.split(","))
    unknown = [kind for kind in kinds if kind not in KINDS]
    if unknown:
        parser.error(f"unknown kinds {unknown}; expected some of {', '.join(KINDS)}")
    write_costs([int(s) for s in args.sizes.split(",")], args.repeats, kinds)
    if args.throughput:
        throughput(args.throughput)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
