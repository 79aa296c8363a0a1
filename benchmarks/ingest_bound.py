"""What `brain ingest` of large well-formed files costs: peak memory and time.

The inputs are `tests/fuzz/large_kb.py`'s: a 5 MiB Markdown manual (about 6,400 chunks) and a
glossary of 60,000 one-line entries, scaled by `--scale` for the dense runs (embedding them
whole takes a quarter of an hour on two cores). Each case runs `brain ingest` in a child
process, on a fresh home, for the baseline source tree (`--baseline DIR`, e.g. `git archive
ea4de98 | tar -x -C DIR`) and this one, interleaved A/B, `--runs` times. Peak memory is
wait4's ru_maxrss, shown above the same command's warm peak (one two-line note ingested with
the same embedder), as `tests/fuzz/test_memory_bound.py` bounds it. CPU is user + system.

Cases (`--cases`, default all three): `sparse` (the full inputs on the sparse channel, default
chunk limit), `sparse-all` (the same with the limit raised, so both trees ingest everything and
only streaming and the YAML loader differ), `dense` (MiniLM, inputs at `--scale`).

Run: `.venv/bin/python benchmarks/ingest_bound.py --baseline DIR [--scale 0.1] [--runs 1]`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from core.limits import MAX_KB_FILE_BYTES  # noqa: E402
from tests.fuzz.large_kb import GLOSSARY_ENTRIES, write_large_kb  # noqa: E402


@dataclass(frozen=True, slots=True)
class Run:
    """One child process: exit code, wall and CPU seconds, peak resident MiB, last line."""

    code: int
    wall: float
    cpu: float
    peak_mib: float
    summary: str


def ingest(
    tree: Path, home: Path, paths: list[Path], embedder: str, env_vars: dict[str, str]
) -> Run:
    """`brain ingest PATHS` from source `tree` on a fresh `home`."""
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    (home / "brain.toml").write_text(
        f'[knowledge]\ningest_sample = false\nembedder = "{embedder}"\n', encoding="utf-8"
    )
    env = {**os.environ, **env_vars, "BRAIN_HOME": str(home), "PYTHONPATH": str(tree)}
    env.pop("BRAIN_CONFIG", None)
    output = home / "output.txt"
    started = time.perf_counter()
    with output.open("wb") as sink:
        child = subprocess.Popen(
            [sys.executable, "-m", "cli", "ingest", "--quiet", *map(str, paths)],
            cwd=tree,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
        _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    lines = output.read_text(errors="replace").strip().splitlines() or [""]
    summary = next((line for line in reversed(lines) if line.startswith("added")), lines[-1])
    return Run(
        os.waitstatus_to_exitcode(status),
        wall,
        usage.ru_utime + usage.ru_stime,
        usage.ru_maxrss / 1024,
        summary,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="source tree to compare")
    parser.add_argument("--scale", type=float, default=0.1, help="input size of the dense runs")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--cases", default="sparse,sparse-all,dense")
    args = parser.parse_args()
    trees = {"before": args.baseline.resolve(), "after": HERE}
    with tempfile.TemporaryDirectory(prefix="ingest-bound-") as tmp:
        work = Path(tmp)
        note = work / "note"
        note.mkdir()
        (note / "note.md").write_text("# Printer\n\nClear the jam.\n", encoding="utf-8")
        full = write_large_kb(work / "full")
        scaled = write_large_kb(
            work / "scaled",
            manual_bytes=int(MAX_KB_FILE_BYTES * args.scale),
            entries=int(GLOSSARY_ENTRIES * args.scale),
        )
        unbounded = {"BRAIN_KB_MAX_FILE_CHUNKS": "1000000"}
        #: name -> embedder, inputs, environment (`sparse-all`: the chunk limit raised, so both
        #: trees do the same work and only streaming and the YAML loader differ)
        cases: dict[str, tuple[str, list[Path], dict[str, str]]] = {
            "sparse": ("none", full, {}),
            "sparse-all": ("none", full, unbounded),
            "dense": ("minilm", scaled, {}),
        }
        print(f"load average {os.getloadavg()[0]:.1f}; dense inputs at scale {args.scale}")
        print(
            f"{'case':<10} {'tree':<7} {'exit':>4} {'wall s':>8} {'CPU s':>8} "
            f"{'peak MiB':>9} {'warm MiB':>9} {'above warm':>10}  summary"
        )
        for name in args.cases.split(","):
            embedder, paths, env_vars = cases[name]
            for _ in range(args.runs):
                for label, tree in trees.items():  # interleaved A/B
                    warm = ingest(tree, work / "home", [note / "note.md"], embedder, env_vars)
                    run = ingest(tree, work / "home", paths, embedder, env_vars)
                    print(
                        f"{name:<10} {label:<7} {run.code:>4} {run.wall:>8.1f} {run.cpu:>8.1f} "
                        f"{run.peak_mib:>9.0f} {warm.peak_mib:>9.0f} "
                        f"{run.peak_mib - warm.peak_mib:>10.0f}  {run.summary}",
                        flush=True,
                    )
        print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
