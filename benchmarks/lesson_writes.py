"""What one lesson write costs as memory grows: `LessonRecall.add` appends to the
mirror, the scan and the index instead of re-sorting or rebuilding, so its p99 at 100k lessons
stays near its p99 at 1k.

For each size the lesson store of a fresh home is filled with synthetic lessons (random unit
vectors, distinct texts) in one write and folded into its buckets (as a home that gathered
them one at a time holds them), the mirror and its scan are built once (a look-up),
then `--writes` corrections are added one at a time and timed. Prints p50/p99 per size and
the ratio of the largest size's p99 to the smallest's. Figures are reported, never asserted.

Run: `nice -n 10 .venv/bin/python benchmarks/lesson_writes.py [--sizes 1000,100000]`
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import numpy as np

from brain.memory.lessons import LessonRecall
from core.config import Settings
from core.stores import open_stores
from tests.records import make_decision

DIM = 384


def _fill(store: LessonRecall, count: int, rng: np.random.Generator) -> None:
    entries = []
    for i in range(count):
        vector = rng.standard_normal(DIM).astype(np.float32)
        vector /= np.linalg.norm(vector)
        decision = make_decision(text=f"synthetic lesson {i} about thing {uuid.uuid4().hex[:8]}")
        entries.append(
            store.lesson(
                controller="ticket",
                weight=0.1,
                kind="correction-right",
                decision=decision,
                vector=vector,
                ids=[],
            )
        )
    store.write_many(entries)


def measure(size: int, writes: int, seed: int = 7) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        stores = open_stores(Settings(home=Path(tmp)))
        store = LessonRecall(stores.lessons)
        _fill(store, size, rng)
        # A home holds its lessons in the buckets, its journal at most a checkpoint's worth
        # (lessons arrive one correction at a time); the fill's one write of `size` lines is
        # folded in first, or every timed write would re-read a 100k-line journal.
        fold = getattr(stores.lessons, "flush", None)  # the TinyDB journal's checkpoint
        if callable(fold):
            fold()
        probe = rng.standard_normal(DIM).astype(np.float32)
        store.similar("warm the scan", vector=probe / np.linalg.norm(probe), ids=[])
        times = []
        for i in range(writes):
            vector = rng.standard_normal(DIM).astype(np.float32)
            decision = make_decision(text=f"a new correction number {i}")
            start = time.perf_counter()
            store.add(
                controller="coding",
                weight=0.1,
                kind="correction-right",
                decision=decision,
                vector=vector / np.linalg.norm(vector),
                ids=[],
            )
            times.append((time.perf_counter() - start) * 1000)
        stores.close()
    times.sort()
    return {
        "size": size,
        "p50_ms": statistics.median(times),
        "p99_ms": times[max(0, int(len(times) * 0.99) - 1)],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,100000")
    parser.add_argument("--writes", type=int, default=200)
    args = parser.parse_args()
    rows = []
    for size in args.sizes.split(","):
        row = measure(int(size), args.writes)
        rows.append(row)
        p50, p99 = row["p50_ms"], row["p99_ms"]
        print(f"{row['size']:>7} lessons: write p50 {p50:.2f} ms, p99 {p99:.2f} ms", flush=True)
    ratio = rows[-1]["p99_ms"] / rows[0]["p99_ms"]
    print(f"p99 ratio {rows[-1]['size']} / {rows[0]['size']}: {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
