"""What kind of event the brain says a page is about, on the escalation set's held-out pages.

A page on a security event files a security incident and tells the asker to disconnect from
the network; a page on a failure must not. Every held-out row (never fitted on) that must page
and whose family is a security event (`page_kind.SECURITY_KINDS`) or a failure
(`page_kind.FAILURE_KINDS`) is decided by the brain (`Brain.decide`, a fresh home, no LLM), and
the pages are counted by the kind the decision gives them ("security" or "outage") against the
family's. Totals only: the held-out rows are never printed.

Run: `nice -n 10 .venv/bin/python benchmarks/page_kinds.py`
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter

from brain.escalation.model import labelled_rows
from brain.escalation.page_kind import FAILURE_KINDS, SECURITY_KINDS


def main() -> int:
    os.environ.setdefault("BRAIN_HOME", tempfile.mkdtemp(prefix="page-kinds-"))
    from brain.engine import Brain
    from core.records import Message

    rows = [
        r
        for r in labelled_rows(None)
        if r.get("split", "train") != "train"
        and r.get("escalate")
        and r.get("kind") in SECURITY_KINDS | FAILURE_KINDS
    ]
    counts: Counter[tuple[str, str]] = Counter()
    with Brain.open() as brain:
        for row in rows:
            decision = brain.decide(Message(text=str(row["text"]), user="u1", channel="c1"))
            truth = "security" if row["kind"] in SECURITY_KINDS else "failure"
            if not decision.escalate:
                counts[(truth, "not paged")] += 1
                continue
            record = decision.escalation
            kind = getattr(record, "kind", None) or "none"
            said = "security" if kind == "security" else "failure"
            counts[(truth, "right" if said == truth else "wrong")] += 1
    for truth in ("security", "failure"):
        right, wrong, missed = (counts[(truth, k)] for k in ("right", "wrong", "not paged"))
        print(
            f"{truth:9} pages: {right + wrong:4}  kind right {right:4}  wrong {wrong:4}"
            f"  (not paged {missed})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
