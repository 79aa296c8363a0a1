"""Write `brain/data/escalation.jsonl`: the hand-written families plus real desk e-mails.

Every fourth wording of each family is held out (split "holdout"), never fitted or tuned on
(`brain.escalation.model` reads split "train" only); the benchmark reports both. Real
service-desk e-mails (`../shared/data/it_tickets/train.jsonl`, never its val split) are the
hard negatives of routine requests, sampled with a fixed seed.

    python scripts/build_escalation_set.py [--tickets PATH] [--n 240]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from escalation_families import FAMILIES

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "brain" / "data" / "escalation.jsonl"
TICKETS = REPO.parent.parent / "shared" / "data" / "it_tickets" / "train.jsonl"
_CJK = re.compile(r"[\u3400-\u9fff]")
HOLDOUT_EVERY = 4


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tickets", type=Path, default=TICKETS)
    parser.add_argument("--n", type=int, default=402)
    args = parser.parse_args()
    rows = []
    for number, (kind, escalate, wordings) in enumerate(FAMILIES):
        for i, text in enumerate(wordings):
            rows.append(
                {
                    "text": text,
                    "escalate": escalate,
                    "kind": kind,
                    "family": number,
                    "lang": "zh" if _CJK.search(text) else "en",
                    "split": "holdout" if i % HOLDOUT_EVERY == HOLDOUT_EVERY - 1 else "train",
                }
            )
    lines = args.tickets.read_text(encoding="utf-8").splitlines()
    sample = random.Random(26).sample(lines, args.n)
    for i, line in enumerate(sample):
        text = json.loads(line)["text"][:600]
        rows.append(
            {
                "text": text,
                "escalate": False,
                "kind": "desk_email",
                "family": -1,
                "lang": "en",
                "split": "holdout" if i % HOLDOUT_EVERY == HOLDOUT_EVERY - 1 else "train",
            }
        )
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    print(f"{len(rows)} rows -> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
