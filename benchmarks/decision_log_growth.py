"""Does the cost of one message grow with the number of decisions already made?

One brain in a fresh home answers dev-set messages (cycled; 200 users in 20 channels, so
sessions, the decision log, lessons and tickets all grow as in a workspace) through
`Brain.ask`, the whole of one message's handling, after the warm-up the bot does
(`bot.app.warm_up`: the parts opened, then frozen out of the garbage collector). For each
window of 1,000 messages it prints p50 / p99 latency, the bytes (apparent and on disk) and
files the home grew by per message, and the garbage collector's full collections and their
pauses (what the slowest messages wait for as the live heap grows), beside the first window
(the baseline). It stops at `--messages` or after `--max-seconds`, whichever comes first, and
then states a linear extrapolation of p50, p99 and bytes per message to `--target` decisions.

Run: `nice .venv/bin/python benchmarks/decision_log_growth.py [--messages 100000]
[--max-seconds 840] [--window 1000] [--no-freeze]`
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def _home_bytes(home: Path) -> tuple[int, int, int]:
    """Bytes (apparent), bytes on disk and files under the home: a vector store's segment
    files are sparse, so their apparent size says hundreds of KB a message at its start."""
    stats = [p.stat() for p in home.rglob("*") if p.is_file()]
    return (
        sum(stat.st_size for stat in stats),
        sum(stat.st_blocks * 512 for stat in stats),
        len(stats),
    )


class Pauses:
    """The garbage collector's pauses in this process, by generation, since the last `take`."""

    def __init__(self) -> None:
        self._began = 0.0
        self._full: list[float] = []
        self._total = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        took = (time.perf_counter() - self._began) * 1000
        self._total += took
        if info["generation"] == 2:
            self._full.append(took)

    def take(self) -> tuple[int, float, float]:
        """(full collections, their longest pause in ms, every collection's ms in all)."""
        full, total = self._full, self._total
        self._full, self._total = [], 0.0
        return len(full), max(full, default=0.0), total


def _slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of ys over xs (0 with fewer than two points)."""
    return float(np.polyfit(xs, ys, 1)[0]) if len(xs) > 1 else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--max-seconds", type=float, default=840.0)
    parser.add_argument("--window", type=int, default=1_000)
    parser.add_argument("--target", type=int, default=100_000)
    parser.add_argument("--devset", type=Path, default=REPO / "benchmarks/data/devset.jsonl")
    parser.add_argument(
        "--no-freeze",
        action="store_true",
        help="warm up without freezing the parts out of the garbage collector (as before)",
    )
    args = parser.parse_args()

    from bot.app import warm_up
    from brain.engine import Brain
    from brain.learning.labelled import read_rows
    from core.config import load_settings
    from core.records import Message

    rows, _ = read_rows(args.devset, "controller")
    texts = [row.text for row in rows]
    started = time.monotonic()
    windows: list[tuple[int, float, float, float, int]] = []
    pauses = Pauses()
    with tempfile.TemporaryDirectory(prefix="log-growth-") as folder:
        home = Path(folder)
        settings = load_settings({**os.environ, "BRAIN_HOME": str(home)})
        with Brain.open(settings) as brain:
            brain.prime(texts)
            brain.ask(Message("warm-up: my vpn is broken", user="uwarm", channel="cwarm"))
            if not args.no_freeze:
                warm_up(brain)
            before, disk_before, files_before = _home_bytes(home)
            gc.callbacks.append(pauses)
            pauses.take()
            took: list[float] = []
            done = 0
            while done < args.messages and time.monotonic() - started < args.max_seconds:
                text = texts[done % len(texts)]
                message = Message(text, user=f"u{done % 200}", channel=f"c{done % 20}")
                began = time.perf_counter()
                brain.ask(message)
                took.append((time.perf_counter() - began) * 1000)
                done += 1
                if done % args.window == 0:
                    size, disk, files = _home_bytes(home)
                    p50, p99 = np.percentile(took, [50, 99])
                    full, longest, collecting = pauses.take()
                    windows.append(
                        (done, float(p50), float(p99), (size - before) / len(took), files)
                    )
                    print(
                        f"{done:>7} decisions: p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  "
                        f"{windows[-1][3]:8.0f} B/message ({(disk - disk_before) / len(took):.0f}"
                        f" on disk)  {(files - files_before) / len(took):.2f} files/message  "
                        f"{files} files  GC: {full} full, longest {longest:.0f} ms, "
                        f"{collecting:.0f} ms in all",
                        flush=True,
                    )
                    before, disk_before, files_before, took = size, disk, files, []
    if not windows:
        print("no full window in the time given")
        return 1
    base, last = windows[0], windows[-1]
    print(f"\n{last[0]} decisions in {time.monotonic() - started:.0f} s, windows of {args.window}")
    print(
        f"baseline (first {args.window}): p50 {base[1]:.1f} ms, p99 {base[2]:.1f} ms, "
        f"{base[3]:.0f} B/message"
    )
    print(
        f"last window: p50 {last[1]:.1f} ms ({last[1] / base[1]:.2f}x), p99 {last[2]:.1f} ms "
        f"({last[2] / base[2]:.2f}x), {last[3]:.0f} B/message"
    )
    xs = [w[0] / 1000 for w in windows[1:]]  # the baseline window holds the cold start
    for name, column in (("p50 ms", 1), ("p99 ms", 2), ("B/message", 3)):
        ys = [w[column] for w in windows[1:]]
        slope = _slope(xs, ys)
        at_target = ys[-1] + slope * (args.target - last[0]) / 1000 if ys else float("nan")
        print(
            f"{name}: slope {slope:+.3f} per 1,000 decisions; linear extrapolation to "
            f"{args.target:,}: {at_target:.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
