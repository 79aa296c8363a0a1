"""Messages that name business applications the product has probably never seen, held out.

`benchmarks/data/unfamiliar_apps.jsonl` (split `fresh`) was written by a tester who had read
neither the product's code nor its training or benchmark data: SaaS, finance, trading, HR and
Chinese enterprise software and invented internal tools, slow, down, erroring or crashing;
incidents of other kinds worded without their obvious keyword; vague incidents; requests to the
other controllers that name such apps; and everyday non-IT complaints that only sound like
problems (`oos`). Each row is decided by `brain ask --json`, called in-process on a fresh copy of
one warmed brain home, so no row learns from another. Printed: the right controller (by
controller and by language), oos rows not routed, and for incidents the ticket's category: filed
with the row's category without asking (`missing` empty; apps' `software` rows and the other
kinds apart; `category_asked`: routed right but asked), or asked for when the row is vague.
Failed rows are never printed: the set is held out, nobody tunes on it.

    PYTHONPATH=. nice -n 10 python benchmarks/unfamiliar_apps.py [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("data") / "unfamiliar_apps.jsonl"


def _brain(*args: str) -> str:
    """What `brain ARGS` printed, called in-process on the current BRAIN_HOME."""
    from cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(args))
    if code != 0:
        raise RuntimeError(f"brain {args[0]} exited {code}")
    return out.getvalue()


def _decide(text: str, template: Path, scratch: Path) -> tuple[dict[str, Any], list[Any]]:
    """The decision on `text` in a fresh copy of the warm home, and the tickets it filed."""
    shutil.copytree(template, scratch)
    os.environ["BRAIN_HOME"] = str(scratch)
    decision = json.loads(_brain("ask", text, "--json"))
    return decision, json.loads(_brain("tickets", "list", "--all", "--json"))


def score(row: dict[str, Any], decision: dict[str, Any], tickets: list[Any]) -> dict[str, int]:
    """The measures one row takes part in, each 1 (met) or 0."""
    routed = decision.get("controller")
    if row["controller"] == "oos":
        return {"oos_not_routed": int(routed is None)}
    right = int(routed == row["controller"])
    marks = {"right": right, f"right_{row['controller']}": right, f"right_{row['lang']}": right}
    if row["controller"] == "incident":
        missing = (decision.get("result") or {}).get("missing") or []
        if row["category"] is None:
            marks["vague_asked_category"] = int(right and "category" in missing)
        else:
            filed = [t.get("fields", {}).get("category") for t in tickets]
            ok = int(right and not missing and filed == [row["category"]])
            # Apps' own failures (software) apart from the other kinds worded without keyword.
            kind = "software" if row["category"] == "software" else "other_kinds"
            marks["category_without_asking"] = marks[f"category_{kind}"] = ok
            marks["category_asked"] = int(right and "category" in missing)
    return marks


def run() -> dict[str, list[int]]:
    """Every row decided on its own copy of one warm home; the marks by measure."""
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    marks: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory(prefix="brain-fresh-") as tmp:
        template = Path(tmp) / "home"
        os.environ["BRAIN_HOME"] = str(template)
        _brain("kb", "search", "printer")  # first use: the shipped knowledge base is ingested
        for number, row in enumerate(rows):
            scratch = Path(tmp) / f"row{number}"
            decision, tickets = _decide(row["text"], template, scratch)
            shutil.rmtree(scratch, ignore_errors=True)
            for name, mark in score(row, decision, tickets).items():
                marks.setdefault(name, []).append(mark)
    return marks


def print_totals(marks: dict[str, list[int]], as_json: bool) -> None:
    """Each mark's rate and count (totals only: a held-out set's rows are never printed),
    the "right" ones first; as one JSON object with `as_json`."""
    table = {k: {"n": len(v), "rate": round(sum(v) / len(v), 3)} for k, v in marks.items()}
    if as_json:
        print(json.dumps(table, indent=2))
        return
    for name in sorted(table, key=lambda k: (not k.startswith("right"), k)):
        v = table[name]
        print(f"{name:28}{v['rate']:>7.0%}  ({round(v['rate'] * v['n'])} of {v['n']})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    print_totals(run(), parser.parse_args().json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
