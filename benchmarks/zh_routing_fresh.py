"""Chinese and mixed Chinese-English messages to every controller, held out.

`benchmarks/data/zh_routing_fresh.jsonl` (160 rows, 20 for each of the seven built-in
controllers and 20 `oos`) was written on 2026-12-07 by the helper zhfresh as Chinese employees
of a company with IT operations and a fund-settlement back office would type in Slack: about
70% Chinese only and 30% Chinese with English product names, error codes or hosts (`lang`
`zh` or `mixed`), short and long, typos, little punctuation, colloquial; each row a different
situation, and `oos` rows about life, food, travel, weather, chit-chat and personal money with
no IT request. Rows genuinely ambiguous between two controllers were left out. Its writer read
only the product guide, `unfamiliar_apps.py` and the Chinese routing-words test (to avoid its
sentences), not the routing training rows, the development set, the built-in catalogue, the
family scripts or any other benchmark row file, so the set measures words the product was not
tuned on.

Each row is decided by `brain ask --json`, called in-process on a fresh copy of one warmed
brain home, so no row learns from another. Printed are totals only: the right controller
overall, by controller and by language; oos rows not routed; in-scope rows asked back; rows
escalated (none of these rows should page, so each is a wrong page). Rows are never printed:
the set is held out, nobody reads its failures or tunes on it.

    PYTHONPATH=. nice -n 10 python benchmarks/zh_routing_fresh.py [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

DATA = Path(__file__).with_name("data") / "zh_routing_fresh.jsonl"


def rows() -> list[dict[str, Any]]:
    """The set's rows, `{"text", "controller", "lang"}` each."""
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]


def score(row: dict[str, Any], decision: dict[str, Any]) -> dict[str, int]:
    """The measures one row takes part in, each 1 (met) or 0."""
    routed = decision.get("controller")
    marks = {"escalated": int(bool(decision.get("escalate")))}
    if row["controller"] == "oos":
        marks["oos_not_routed"] = int(routed is None)
        return marks
    right = int(routed == row["controller"])
    marks.update(
        {
            "right": right,
            f"right_{row['controller']}": right,
            f"right_{row['lang']}": right,
            "asked_back": int(decision.get("outcome") == "clarify"),
        }
    )
    return marks


def run() -> dict[str, list[int]]:
    """Every row decided on its own copy of one warm home; the marks by measure."""
    from unfamiliar_apps import _brain  # `brain ARGS` in-process, as that benchmark calls it

    marks: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory(prefix="brain-zhfresh-") as tmp:
        template = Path(tmp) / "home"
        os.environ["BRAIN_HOME"] = str(template)
        _brain("kb", "search", "printer")  # first use: the shipped knowledge base is ingested
        for number, row in enumerate(rows()):
            scratch = Path(tmp) / f"row{number}"
            shutil.copytree(template, scratch)
            os.environ["BRAIN_HOME"] = str(scratch)
            decision = json.loads(_brain("ask", row["text"], "--json"))
            shutil.rmtree(scratch, ignore_errors=True)
            for name, mark in score(row, decision).items():
                marks.setdefault(name, []).append(mark)
    return marks


def main() -> int:
    from unfamiliar_apps import print_totals

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    print_totals(run(), parser.parse_args().json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
