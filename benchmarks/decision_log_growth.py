"""Do decisions slow down as the decision log's current shard fills?

The same dev-set messages (every 8th row) are decided several times over in one brain, in a
fresh home. Caches are warm after the first round, so each decision's own work is small and
any cost from the log's background writer (which rewrites the current shard, up to 200
decisions, on every flush) would show as rounds get slower while the shard grows and rolls over.

Run: `.venv/bin/python benchmarks/decision_log_growth.py [--rounds 8]`
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--devset", type=Path, default=REPO / "benchmarks/data/devset.jsonl")
    args = parser.parse_args()

    from brain.engine import Brain
    from brain.learning.labelled import read_rows
    from core.config import load_settings
    from core.records import Message

    rows, _ = read_rows(args.devset, "controller")
    texts = [row.text for row in rows][::8]
    with tempfile.TemporaryDirectory(prefix="log-growth-") as home:
        settings = load_settings({**os.environ, "BRAIN_HOME": home})
        with Brain.open(settings) as brain:
            brain.prime(texts)
            for index, text in enumerate(texts):  # warm-up round, not measured
                brain.decide(Message(text, user=f"warm{index % 5}", channel="bench"))
            medians = []
            for _ in range(args.rounds):
                took = []
                for index, text in enumerate(texts):
                    began = time.perf_counter()
                    brain.decide(Message(text, user=f"user{index % 5}", channel="bench"))
                    took.append((time.perf_counter() - began) * 1000)
                medians.append(statistics.median(took))
        shards = sorted((Path(home) / "decisions" / "shards").glob("*.json"))
        sizes = [shard.stat().st_size // 1024 for shard in shards]
    print(f"{len(texts)} messages a round, {args.rounds} rounds after a warm-up round")
    print("decision p50 per round (ms): " + ", ".join(f"{m:.2f}" for m in medians))
    print(f"last round / first round: {medians[-1] / medians[0]:.2f}x")
    print(f"shard files (KB): {sizes}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
