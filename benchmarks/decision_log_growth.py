"""Does the cost of one message grow with the number of decisions already made?

One brain in a fresh home answers dev-set messages (cycled; 200 users in 20 channels, so
sessions, the decision log, lessons and tickets all grow as in a workspace) through
`Brain.ask`, the whole of one message's handling. For each window of 1,000 messages it
prints p50 / p99 latency and the bytes the home grew by per message, beside the first window
(the baseline). It stops at `--messages` or after `--max-seconds`, whichever comes first, and
then states a linear extrapolation of p50, p99 and bytes per message to `--target` decisions.

Run: `nice .venv/bin/python benchmarks/decision_log_growth.py [--messages 100000]
[--max-seconds 840] [--window 1000]`
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def _home_bytes(home: Path) -> tuple[int, int]:
    """Bytes and files under the home."""
    sizes = [p.stat().st_size for p in home.rglob("*") if p.is_file()]
    return sum(sizes), len(sizes)


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
    args = parser.parse_args()

    from brain.engine import Brain
    from brain.learning.labelled import read_rows
    from core.config import load_settings
    from core.records import Message

    rows, _ = read_rows(args.devset, "controller")
    texts = [row.text for row in rows]
    started = time.monotonic()
    windows: list[tuple[int, float, float, float, int]] = []
    with tempfile.TemporaryDirectory(prefix="log-growth-") as folder:
        home = Path(folder)
        settings = load_settings({**os.environ, "BRAIN_HOME": str(home)})
        with Brain.open(settings) as brain:
            brain.prime(texts)
            brain.ask(Message("warm-up: my vpn is broken", user="uwarm", channel="cwarm"))
            before, _ = _home_bytes(home)
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
                    size, files = _home_bytes(home)
                    p50, p99 = np.percentile(took, [50, 99])
                    windows.append(
                        (done, float(p50), float(p99), (size - before) / len(took), files)
                    )
                    before, took = size, []
                    print(
                        f"{done:>7} decisions: p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  "
                        f"{windows[-1][3]:8.0f} B/message  {files} files",
                        flush=True,
                    )
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
