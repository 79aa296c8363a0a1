"""Do people read the same replies after a change that should not move them?

Writes every reply of the looked-at conversation splits (`conversations.jsonl`: tune to tune5,
each conversation in a thread of its own) and of the development set (`devset.jsonl`, one
message a thread) as a person reads it: the reply's text and result lines, its kind, the
controller, the rationale, the result's summary and details. Run it on two trees (one
checked out with `git worktree add --detach`) and compare the files. The held-out splits are
not read.

Two runs of one tree differ in what is not wording: decision ids, the order in which the two
parts of a composed filing take their ticket numbers (they run at once), and the last digit of
a probability in a rationale. `--compare` masks exactly these (ids, `ABC-000123` numbers,
two-decimal probabilities) and prints the rows that still differ.

    PYTHONPATH=<tree> BRAIN_HOME=$(mktemp -d) nice -n 10 python benchmarks/reply_parity.py OUT
    python benchmarks/reply_parity.py --compare BEFORE AFTER
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
#: The conversation splits that were looked at (`conversation.py`'s docstring).
LOOKED_AT = ("tune", "tune2", "tune3", "tune4", "tune5")
_STAMP = re.compile(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?: UTC|\+00:00)?")
_MASKS = (
    (re.compile(r"\bd-[0-9a-f]{12}\b"), "d-<id>"),
    (re.compile(r"\b[A-Z]{2,4}-\d{6}\b"), "<ticket>"),
    (re.compile(r"\b\d\.\d\d\b"), "<p>"),
)


def conversations() -> list[list[str]]:
    """The turns of every looked-at conversation, then each development-set message alone."""
    found: list[list[str]] = []
    for line in (DATA / "conversations.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["split"] in LOOKED_AT:
            found.append([turn["text"] for turn in row["turns"]])
    for line in (DATA / "devset.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            found.append([json.loads(line)["text"]])
    return found


def write(out: Path) -> int:
    """Every reply, one JSON line a turn, stored times masked."""
    from brain.conversation.turns import Conversation
    from brain.engine import Brain
    from core.records import Message

    turns = 0
    with Brain.open() as brain, out.open("w", encoding="utf-8") as f:
        conversation = Conversation(brain, brain.conversations)
        for number, texts in enumerate(conversations()):
            for text in texts:
                reply = conversation.handle(Message(text, f"u{number}", "C1", thread=f"T{number}"))
                decision = reply.decision
                result = decision.result if decision is not None else None
                shown = {
                    "asked": text,
                    "text": reply.text,
                    "lines": list(reply.result_lines),
                    "kind": reply.kind,
                    "controller": decision.controller if decision is not None else None,
                    "rationale": decision.rationale if decision is not None else None,
                    "summary": result.summary if result is not None else None,
                    "details": result.details if result is not None else None,
                }
                line = json.dumps(shown, ensure_ascii=False, default=str)
                f.write(_STAMP.sub("<time>", line) + "\n")
                turns += 1
    print(f"{turns} replies written to {out}")
    return 0


def _masked(line: str) -> str:
    for pattern, mask in _MASKS:
        line = pattern.sub(mask, line)
    return line


def compare(before: Path, after: Path) -> int:
    """The rows that differ once ids, ticket numbers and probabilities are masked."""
    old = before.read_text(encoding="utf-8").splitlines()
    new = after.read_text(encoding="utf-8").splitlines()
    if len(old) != len(new):
        print(f"{len(old)} replies before, {len(new)} after")
        return 1
    differ = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if _masked(a) != _masked(b)]
    for i in differ[:20]:
        print(f"row {i}:\n  before {old[i][:400]}\n  after  {new[i][:400]}")
    print(f"{len(differ)} of {len(old)} replies differ")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", nargs="?", type=Path, help="write the replies here")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    if args.out is None:
        parser.error("give OUT, or --compare BEFORE AFTER")
    return write(args.out)


if __name__ == "__main__":
    sys.exit(main())
