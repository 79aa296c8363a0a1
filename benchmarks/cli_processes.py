"""Whole `brain` processes of two source trees, interleaved in one run.

    python benchmarks/cli_processes.py [--baseline /work/main] [--repeat 7] [--json OUT]

The targets: a warm `brain ask` process <= 1.5 s wall, `brain why` <= 0.3 s. The machine is
shared and noisy, so both trees are measured in the same run, one process each in turn (which
tree goes first alternates), and CPU seconds (user + system of the child, from
`getrusage(RUSAGE_CHILDREN)`, all its threads) are given beside wall seconds: CPU moves little
with the load that other work puts on the machine, wall does.

Each tree gets a home of its own (its own model files and vector store), warmed by one
untimed `brain ask` and one `brain why`: the commands timed are then what a user runs every
day. Python's bytecode cache is on (`PYTHONDONTWRITEBYTECODE` is dropped, as an installed
package has its `.pyc` files), kept under a temporary `PYTHONPYCACHEPREFIX` so that neither
tree is written to. Both trees must decide alike: the controller, tier and confidence of every
`brain ask` are compared.

On a machine busy with other work, wall time is several times CPU time; run as root under
`chrt -f 10` (real-time priority, inherited by the timed processes) for the nearest to an idle
machine's wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
ASK = "my laptop won't boot"
#: What both trees' decisions must agree on.
SAME = ("controller", "tier", "confidence")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Tree:
    """One source tree, its home and its timings."""

    def __init__(self, name: str, path: Path, scratch: Path) -> None:
        self.name = name
        self.path = path
        env = {k: v for k, v in os.environ.items() if not k.startswith("BRAIN_")}
        env.pop("ANTHROPIC_API_KEY", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.update(
            PYTHONPATH=str(path),
            BRAIN_HOME=str(scratch / f"home-{name}"),
            PYTHONPYCACHEPREFIX=str(scratch / "pycache"),
        )
        if "BRAIN_INSTALL_CACHE" in os.environ:
            env["BRAIN_INSTALL_CACHE"] = os.environ["BRAIN_INSTALL_CACHE"]
        self.env = env
        self.times: dict[str, list[tuple[float, float]]] = {}
        self.decisions: list[dict[str, Any]] = []
        self.decision_id = ""

    def run(self, *args: str) -> tuple[float, float, str]:
        """Wall seconds, CPU seconds and stdout of `python -m cli ARGS` on this tree."""
        cpu = _children_cpu()
        began = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "cli", *args],
            cwd=self.path,
            env=self.env,
            capture_output=True,
            text=True,
        )
        wall = time.perf_counter() - began
        if result.returncode != 0:
            raise RuntimeError(f"{self.name}: brain {' '.join(args)}: {result.stderr[-2000:]}")
        return wall, _children_cpu() - cpu, result.stdout

    def warm(self) -> None:
        """The first ask (fits or loads the model, ingests the sample KB) and a why, untimed."""
        out = self.run("ask", ASK, "--json")[2]
        self.decision_id = json.loads(out)["decision_id"]
        self.run("why", self.decision_id)
        self.run("--help")

    def measure(self, command: str) -> None:
        args = {
            "warm ask": ("ask", ASK, "--json"),
            "why": ("why", self.decision_id),
            "why --json": ("why", self.decision_id, "--json"),
            "--help": ("--help",),
        }[command]
        wall, cpu, out = self.run(*args)
        self.times.setdefault(command, []).append((wall, cpu))
        if command == "warm ask":
            decision = json.loads(out)
            self.decisions.append({key: decision[key] for key in SAME})


COMMANDS = ("warm ask", "why", "why --json", "--help")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, default=Path("/work/main"))
    parser.add_argument("--repeat", type=int, default=7, help="runs of each command per tree")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="cli-processes-") as tmp:
        scratch = Path(tmp)
        trees = [
            Tree("baseline", args.baseline.resolve(), scratch),
            Tree("this", ROOT, scratch),
        ]
        for tree in trees:
            tree.warm()
        for round_ in range(args.repeat):
            for command in COMMANDS:
                for tree in trees if round_ % 2 == 0 else trees[::-1]:
                    tree.measure(command)
    load_after = os.getloadavg()
    figures: dict[str, dict[str, float]] = {}
    for tree in trees:
        for command, runs in tree.times.items():
            walls, cpus = zip(*runs, strict=True)
            figures.setdefault(command, {})[f"{tree.name}_wall_s"] = float(np.median(walls))
            figures[command][f"{tree.name}_cpu_s"] = float(np.median(cpus))
    base, this = trees
    differ = [f"{a} vs {b}" for a, b in zip(base.decisions, this.decisions, strict=True) if a != b]
    print(f"load average before {load_before[0]:.1f}, after {load_after[0]:.1f}")
    print(f"trees: baseline {base.path}, this {this.path}; {args.repeat} runs each, medians")
    print(f"{'command':14}" + "".join(f"{h:>12}" for h in ("base wall", "this wall", "ratio"))
          + "".join(f"{h:>12}" for h in ("base CPU", "this CPU", "ratio")))  # fmt: skip
    for command, row in figures.items():
        line = f"{command:14}"
        for kind in ("wall", "cpu"):
            ours, theirs = row[f"this_{kind}_s"], row[f"baseline_{kind}_s"]
            line += f"{theirs:>12.3f}{ours:>12.3f}{ours / theirs:>12.2f}"
        print(line)
    print(f"warm asks that decided differently: {len(differ)}")
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
