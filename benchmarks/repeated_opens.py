"""A brain opened again and again in one process, as the tests and in-process CLI calls do:
the CPU of one `brain ask` in a fresh copy of a fitted home, and of one bot warm-up, for two
source trees in turn.

    python benchmarks/repeated_opens.py [--baseline /work/main] [--repeat 20] [--rounds 2]

Every test of `tests/engine` copies the run's fitted home and runs `brain ask` in it through
`cli.main`; every bot test opens a brain on a copy and warms it (`Brain.warm`, then
`gc.collect` as `bot.app.warm_up` does). What a process pays again for each of them, after
its first, is what this measures: a child process per tree and round (which tree goes first
alternates), timing `--repeat` asks and warm-ups after an untimed first one (and the
incident category model, fitted once a process, fitted before). CPU time of the
child (all its threads) is given beside wall time: on a shared machine CPU moves little with
the load, wall does. One fitted home, built first by the tree under test, is copied by both.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

TREE = Path(__file__).resolve().parent.parent
TEXTS = (
    "VPN error 691 when I connect from home",
    "the payments database is down for everyone",
    "how do I reset my password",
    "数据库连不上了",
    "please deploy release 4.2 tonight",
)

CHILD = r"""
import contextlib, gc, io, json, os, sys, time
from pathlib import Path
template, work, repeat = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
texts = json.loads(sys.argv[4])
from cli import main
from core.config import load_settings
from core.files import copy_tree
from brain.engine import Brain

def ask(i):
    home = work / f"ask-{i}"
    copy_tree(template, home)
    os.environ["BRAIN_HOME"] = str(home)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["ask", texts[i % len(texts)], "--json"]) == 0

def warm(i):
    home = work / f"warm-{i}"
    copy_tree(template, home)
    brain = Brain.open(load_settings({"BRAIN_HOME": str(home)}))
    brain.warm()
    gc.collect()
    brain.close()

from controllers import incident_categories
incident_categories.MODEL.get()  # fitted once a process, on the first incident: not timed
out = {}
for name, run in (("ask", ask), ("warm", warm)):
    run(0)
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(1, repeat + 1):
        run(i)
    out[name] = {
        "cpu_ms": (time.process_time() - cpu) / repeat * 1000,
        "wall_ms": (time.perf_counter() - wall) / repeat * 1000,
    }
print(json.dumps(out))
"""


def _env(tree: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(tree), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    for name in ("BRAIN_TORCH_THREADS", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        env.setdefault(name, "1")
    return env


def fitted_template(root: Path) -> Path:
    """A home with the sample knowledge base ingested and the models opened (one ask)."""
    home = root / "template"
    code = (
        "import sys; from cli import main; "
        "sys.exit(main(['ask', 'warm up: VPN error 691', '--json']))"
    )
    env = dict(_env(TREE), BRAIN_HOME=str(home))
    subprocess.run([sys.executable, "-c", code], env=env, check=True, stdout=subprocess.DEVNULL)
    return home


def measure(tree: Path, template: Path, root: Path, repeat: int) -> dict[str, dict[str, float]]:
    with tempfile.TemporaryDirectory(dir=root) as work:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(template), work, str(repeat), json.dumps(TEXTS)],
            env=_env(tree),
            cwd=tree,
            check=True,
            capture_output=True,
            text=True,
        )
    result: dict[str, dict[str, float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, help="another source tree, measured in turn")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    trees = {"this": TREE, **({"baseline": args.baseline.resolve()} if args.baseline else {})}
    with tempfile.TemporaryDirectory(prefix="repeated-opens-") as scratch:
        root = Path(scratch)
        template = fitted_template(root)
        for round_ in range(args.rounds):
            order = list(trees.items())
            for name, tree in order if round_ % 2 == 0 else order[::-1]:
                result = measure(tree, template, root, args.repeat)
                cells = ", ".join(
                    f"{kind} {v['cpu_ms']:.0f} ms CPU ({v['wall_ms']:.0f} wall)"
                    for kind, v in result.items()
                )
                print(f"round {round_ + 1} {name:8s} {cells}", flush=True)


if __name__ == "__main__":
    main()
