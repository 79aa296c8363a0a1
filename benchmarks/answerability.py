"""Answer verification on labelled questions: answered when answerable, "no answer"
when the knowledge base holds none, through the full routing path and the knowledge probe.

Rows: benchmarks/data/answerability.jsonl, `{"text", "answerable", "split"}`, English and
Chinese; `tune` rows were looked at while building the verification, `holdout` rows never.
Two readings of each question, per split:

- `path`: `Brain.ask` (routing, request type, the answering controller or the controller the
  question was routed to): answered = the result is ok and cites the knowledge base (a
  problem report phrased as a question, "VPN 报错 691 怎么处理？", files its incident with the
  verified guidance); an unanswerable one is read right when nothing cites and nothing is filed;
- `probe`: the answering controller alone (`consultation`'s handle on the sample KB).

    PYTHONPATH=. nice -n 10 python benchmarks/answerability.py [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

DATA = Path(__file__).with_name("data") / "answerability.jsonl"


def run() -> dict[str, dict[str, dict[str, list[int]]]]:
    """split -> reading -> "answerable" / "unanswerable" -> 1 per row read right."""
    os.environ.setdefault("BRAIN_HOME", tempfile.mkdtemp(prefix="brain-answer-"))
    from brain.engine import Brain
    from controllers.base import ControllerContext
    from core.records import Message

    scores: dict[str, dict[str, dict[str, list[int]]]] = {}
    with Brain.open() as brain:
        store = brain.services.tickets
        assert store is not None
        answering = brain.registry.get("consultation")
        for number, line in enumerate(DATA.read_text(encoding="utf-8").splitlines()):
            row = json.loads(line)
            kind = "answerable" if row["answerable"] else "unanswerable"
            split = scores.setdefault(row["split"], {"path": {}, "probe": {}})
            before = len(store.all())
            decision = brain.ask(Message(row["text"], f"a{number}", "CANSWER"))
            filed = len(store.all()) - before
            result = decision.result
            answered = result is not None and result.ok and bool(result.citations)
            right = answered if row["answerable"] else not answered and filed == 0
            split["path"].setdefault(kind, []).append(int(right))
            context = ControllerContext(
                text=row["text"], user="probe", channel="CANSWER", thread=None,
                decision_id="", intent="", urgency="low", entities={},
                services=brain.services,
            )  # fmt: skip
            probed = answering.handle(context).ok
            split["probe"].setdefault(kind, []).append(int(probed == row["answerable"]))
    return scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    table = {
        split: {
            reading: {k: {"n": len(v), "rate": round(sum(v) / len(v), 3)} for k, v in kinds.items()}
            for reading, kinds in readings.items()
        }
        for split, readings in run().items()
    }
    if args.json:
        print(json.dumps(table, indent=2))
        return 0
    for split, readings in table.items():
        for reading, kinds in readings.items():
            rates = " ".join(f"{k} {v['rate']:.0%} (n={v['n']})" for k, v in kinds.items())
            print(f"{split} {reading}: {rates}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
