"""Fast-path decision against one ONNX query embedding, two source trees interleaved.

    python benchmarks/fast_path.py [--baseline /work/main] [--rows 60] [--rounds 2] [--json OUT]

The target: a fast-path decision's p50 at most 2.5x one query embedding's. The machine is
shared and noisy, so a change is measured against a baseline in one run: one worker process
per source tree (this one and `--baseline`, each importing its own `brain`), both warm in a
fresh home of their own, are handed the same dev-set message in turn, alternating which goes
first. Each worker does what `routing.end_to_end` does per message (one uncached query
embedding, then `Brain.decide` with the embedding uncached, a short gap before each) and
answers with the wall and CPU milliseconds of both, the milliseconds spent in the decision
record's durable write (`DecisionLog.append`: redaction, the store's append and its fsync),
and the decision itself, so the driver also checks that both trees decided alike
(tier, outcome, controller, confidence). The worker uses only the public API that both trees
have; it runs this file with the tree first on `sys.path`.

Both homes ingest the same copy of the sample knowledge base (its shipped vectors are keyed
by text, so nothing is embedded): a chunk's point id is derived from its file's absolute path,
and Qdrant breaks ties in the fused ranking by point id, so the sample KB read from two
source trees ranks some tied chunks differently and a few confidences differ by a few
thousandths for that reason alone.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DEVSET = ROOT / "benchmarks" / "data" / "devset.jsonl"
#: What each worker says about a decision (both trees must agree on it).
SAME = ("tier", "outcome", "controller", "confidence")


def worker(gap_s: float, kb: Path) -> int:
    """Serve decisions on stdin/stdout, one JSON line each (the tree is on sys.path)."""
    os.environ.pop("ANTHROPIC_API_KEY", None)
    import knowledge

    knowledge.SAMPLE_DIR = kb  # the shared copy (see the module docstring)
    from brain.engine import Brain
    from core.config import load_settings
    from core.records import Message

    out = sys.stdout
    with tempfile.TemporaryDirectory(prefix="fast-path-") as home:
        settings = load_settings({**os.environ, "BRAIN_HOME": home})
        with Brain.open(settings) as brain:
            brain.warm()
            brain.decide(Message("warm up", user="warm", channel="warm"))
            embedder = brain.embedder
            assert embedder is not None, "the fast path is measured with the dense model"
            log = brain.log
            append = log.append
            written = [0.0]

            def timed_append(decision: Any) -> None:
                began = time.perf_counter()
                append(decision)
                written[0] += time.perf_counter() - began

            log.append = timed_append  # type: ignore[method-assign]
            out.write(json.dumps({"ready": True}) + "\n")
            out.flush()
            for line in sys.stdin:
                ask = json.loads(line)
                embedder.clear_cache()
                time.sleep(gap_s)
                cpu, began = time.process_time(), time.perf_counter()
                embedder.embed_query(ask["text"])
                embed = (time.perf_counter() - began) * 1000, (time.process_time() - cpu) * 1000
                embedder.clear_cache()
                time.sleep(gap_s)
                written[0] = 0.0
                cpu, began = time.process_time(), time.perf_counter()
                decision = brain.decide(Message(ask["text"], user=ask["user"], channel=ask["user"]))
                wall, cpu = (time.perf_counter() - began) * 1000, (time.process_time() - cpu) * 1000
                answer = {
                    "embed_ms": embed[0],
                    "embed_cpu_ms": embed[1],
                    "decide_ms": wall,
                    "decide_cpu_ms": cpu,
                    "write_ms": written[0] * 1000,
                    **{key: getattr(decision, key) for key in SAME},
                }
                out.write(json.dumps(answer) + "\n")
                out.flush()
    return 0


class Worker:
    """One worker process on one source tree."""

    def __init__(self, name: str, tree: Path, gap_s: float, kb: Path) -> None:
        self.name = name
        env = {**os.environ, "PYTHONPATH": str(tree)}
        script = str(Path(__file__).resolve())
        self.process = subprocess.Popen(
            [sys.executable, script, "--worker", "--gap", str(gap_s), "--kb", str(kb)],
            cwd=tree,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.answers: list[dict[str, Any]] = []

    def read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.name} worker exited")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def ask(self, text: str, user: str) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"text": text, "user": user}) + "\n")
        self.process.stdin.flush()
        answer = self.read()
        self.answers.append(answer)
        return answer

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def summary(answers: list[dict[str, Any]]) -> dict[str, float]:
    """p50/p99 of the fast-path decisions and of the embeddings, their ratio, CPU and write."""
    fast = [a for a in answers if a["tier"] == "fast"]

    def pct(key: str, rows: list[dict[str, Any]], q: float) -> float:
        return round(float(np.percentile([r[key] for r in rows], q)), 2) if rows else 0.0

    figures = {
        "fast_n": float(len(fast)),
        "decide_p50_ms": pct("decide_ms", fast, 50),
        "decide_p99_ms": pct("decide_ms", fast, 99),
        "decide_cpu_p50_ms": pct("decide_cpu_ms", fast, 50),
        "write_p50_ms": pct("write_ms", fast, 50),
        "embed_p50_ms": pct("embed_ms", answers, 50),
        "embed_p99_ms": pct("embed_ms", answers, 99),
        "embed_cpu_p50_ms": pct("embed_cpu_ms", answers, 50),
        "decide_cpu_s": round(sum(a["decide_cpu_ms"] for a in fast) / 1000, 3),
    }
    embed = figures["embed_p50_ms"]
    figures["ratio"] = round(figures["decide_p50_ms"] / embed, 2) if embed else 0.0
    figures["ratio_without_write"] = (
        round(pct("decide_no_write_ms", _no_write(fast), 50) / embed, 2) if embed else 0.0
    )
    return figures


def _no_write(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"decide_no_write_ms": r["decide_ms"] - r["write_ms"]} for r in rows]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--baseline", type=Path, default=Path("/work/main"))
    parser.add_argument("--rows", type=int, default=60, help="dev-set messages")
    parser.add_argument("--rounds", type=int, default=2, help="passes over the messages")
    parser.add_argument("--gap", type=float, default=0.05, help="seconds before each timing")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument("--kb", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.gap, args.kb)
    with tempfile.TemporaryDirectory(prefix="fast-path-kb-") as tmp:
        kb = Path(tmp) / "sample"
        shutil.copytree(ROOT / "knowledge" / "sample", kb)
        return compare(args, kb)


def compare(args: argparse.Namespace, kb: Path) -> int:
    """Run both workers over the dev-set messages, alternating, and print the figures."""
    rows = [json.loads(line) for line in DEVSET.read_text().splitlines() if line.strip()]
    texts = [str(row["text"]) for row in rows[: args.rows]]
    load_before = os.getloadavg()
    trees = {"baseline": args.baseline.resolve(), "this": ROOT}
    workers = {name: Worker(name, tree, args.gap, kb) for name, tree in trees.items()}
    for w in workers.values():
        w.read()  # ready
    differ: list[str] = []
    order = list(workers.values())
    for round_ in range(args.rounds):
        for i, text in enumerate(texts):
            user = f"r{round_}-{i}"
            answers = {w.name: w.ask(text, user) for w in order}
            order.reverse()
            base, ours = answers["baseline"], answers["this"]
            if round_ == 0 and any(base[k] != ours[k] for k in SAME):
                differ.append(f"{text!r}: {[base[k] for k in SAME]} vs {[ours[k] for k in SAME]}")
    for w in workers.values():
        w.close()
    load_after = os.getloadavg()
    figures = {name: summary(w.answers) for name, w in workers.items()}
    print(f"load average before {load_before[0]:.1f}, after {load_after[0]:.1f}")
    print(f"trees: baseline {trees['baseline']}, this {trees['this']}")
    print(f"{'figure':24}{'baseline':>12}{'this':>12}{'this/base':>12}")
    for key in figures["this"]:
        base, ours = figures["baseline"][key], figures["this"][key]
        ratio = f"{ours / base:>12.2f}" if base else f"{'':>12}"
        print(f"{key:24}{base:>12.2f}{ours:>12.2f}{ratio}")
    print(f"decisions that differ (first round): {len(differ)}")
    for line in differ:
        print("  " + line)
    if args.json:
        args.json.write_text(
            json.dumps(
                {"figures": figures, "differ": differ, "load": [load_before, load_after]},
                indent=2,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
