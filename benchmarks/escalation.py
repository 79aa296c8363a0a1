"""Escalation precision and recall, by language and by kind, and the page rate on real desk
e-mails.

- the labelled escalation set (`brain/data/escalation.jsonl`): the "train" split, which the
  model is fitted and its threshold chosen on, beside the "holdout" split, which nothing is
  tuned on (the honest figure), and "holdout_security", the held-out wordings of the security
  and company-wide outage families (`scripts/escalation_families_security.py`);
- "stranger" (`benchmarks/data/escalation_stranger.jsonl`, 60 to page and 90 not): written by a
  tester who read neither the escalation code nor its data; only its totals are printed, never
  its missed or wrong rows, so that it stays unread;
- "holdout_fresh2" (`benchmarks/data/escalation_fresh2.jsonl`, 70 to page and 82 not, 40%
  Chinese and 10% mixed): written before the escalation model, its families or its cue lists
  were read, in many registers; printed as totals and by language only, not even by kind;
- "holdout_fresh3" (`benchmarks/data/escalation_fresh3.jsonl`, 46 to page and 57 not, 44%
  Chinese and 8% mixed): written before the model's families or any split's rows were opened,
  weighted to the kinds that were weakest (an event told live beside the same event told as
  handled and past, outages named only by their scope, "is this legit?" asked while the
  attacker is still on the line, Chinese); totals and by language only, like holdout_fresh2;
- "holdout_fresh4" (`benchmarks/data/escalation_fresh4.jsonl`, 50 to page and 53 not, 37%
  Chinese and 9% mixed): written by another hand before the model's families, its training rows
  or any split's rows were opened: live security events of many kinds (data leaving the company,
  impersonation in progress, company-wide outages) beside their look-alikes (finished incidents,
  drills, training mail, policy questions, one person's problem, normal readings); totals and
  by language only;
- "holdout_quiet" (`benchmarks/data/escalation_quiet.jsonl`, 101 to page and 380 not, 40%
  Chinese and 15% mixed): written by a helper who opened none of the escalation data, cue
  lists, families or other splits, in its own words as people type in Slack, and measured once,
  with no row picked or dropped after: ordinary messages from many desks (how-to, one person's
  device or password, access and software requests, planned and production changes, code and
  data, HR, payroll, finance, facilities, travel, procurement) and their hard look-alikes
  (policy questions, phishing training, past incidents, drills, test alerts, normal readings,
  "urgent" requests, deadlines, angry complaints) that must not page, beside live security
  events and company-wide outages that must; totals and by language only
  (`benchmarks/quiet_pages.py` reads it through `Brain.decide`, the product's path);
- the page rate on the 4,000 `val.jsonl` tickets of `../shared/data/it_tickets/` (real
  service-desk e-mails; the target is at most 1%), with the paged ones listed;
- `--rules-only`: the same without the model (the service-desk matrix and the rules alone).

The escalation decision is the product's own (`brain.chain.escalate.decide_with_report`: the
message, and the report before a closing plea), with the embedder the brain uses.
Run: `nice -n 10 python benchmarks/escalation.py [--json] [--limit N]`.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TICKETS = REPO.parent / "shared" / "data" / "it_tickets" / "val.jsonl"
SPLITS = ("train", "holdout", "holdout_security", "holdout_generated", "holdout_fresh")
#: Held-out sets kept beside the benchmark, not in the product's data: their rows' texts are
#: never printed.
UNREAD = {
    "stranger": REPO / "benchmarks" / "data" / "escalation_stranger.jsonl",
    "holdout_fresh2": REPO / "benchmarks" / "data" / "escalation_fresh2.jsonl",
    "holdout_fresh3": REPO / "benchmarks" / "data" / "escalation_fresh3.jsonl",
    "holdout_fresh4": REPO / "benchmarks" / "data" / "escalation_fresh4.jsonl",
    "holdout_quiet": REPO / "benchmarks" / "data" / "escalation_quiet.jsonl",
}
#: Sets kept beside the benchmark whose rows were read: "scope_talk", 62 general-knowledge
#: questions, trivia, personal-life and office chit-chat messages carrying scope words
#: ("everyone", "many people", "所有人", "全公司") beside 30 live company-wide events with the
#: same words, written before the thirteenth round was fitted, none of its rows trained on.
#: "scope_loss", 30 live company-wide events said as a loss or absence ("lost email", "no one
#: can sign in", "全员打不开") beside 30 trivia, statistics and personal-life messages with the
#: same scope words, written before the fourteenth round was fitted, none trained on.
BESIDE = {
    "scope_talk": REPO / "benchmarks" / "data" / "escalation_scope_talk.jsonl",
    "scope_loss": REPO / "benchmarks" / "data" / "escalation_scope_loss.jsonl",
}
#: Held-out sets whose figures are printed as totals and by language only: a recall by kind
#: would say which family to write more rows for, and the split would stop being unseen.
TOTALS_ONLY = frozenset({"holdout_fresh2", "holdout_fresh3", "holdout_fresh4", "holdout_quiet"})


def _rows(split: str) -> list[dict[str, Any]]:
    from brain.escalation.model import labelled_rows

    if split in UNREAD or split in BESIDE:
        lines = {**UNREAD, **BESIDE}[split].read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]
    return list(labelled_rows(split))


def _decide(texts: Sequence[str], model: Any, embedder: Any) -> list[Any]:
    from brain.chain.escalate import decide_with_report
    from core.records import IntentResult

    vectors = embedder.embed(list(texts)) if embedder is not None else [None] * len(texts)
    embed = embedder.embed_query if embedder is not None else None
    intent = IntentResult(
        intent="other", confidence=0.0, description="", urgency="low", entities={}
    )
    return [
        decide_with_report(t, intent, model=model, vector=v, embed=embed)
        for t, v in zip(texts, vectors, strict=True)
    ]


def figures(rows: Sequence[dict[str, Any]], records: Sequence[Any]) -> dict[str, Any]:
    """Recall, precision, by language and by kind (the `brain eval` metrics)."""
    from brain.evaluation.metrics import Outcome, escalation_metrics
    from brain.learning.labelled import LabelledRow

    outcomes = [
        Outcome(
            row=LabelledRow(str(r["text"]), None, bool(r["escalate"]), str(r.get("kind"))),
            controller=None,
            confidence=0.0,
            tier="fast",
            outcome="fallback",
            escalate=rec.escalate,
            latency_ms=0.0,
            llm_calls=0,
        )
        for r, rec in zip(rows, records, strict=True)
    ]
    return escalation_metrics(outcomes)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tickets", type=Path, default=TICKETS)
    parser.add_argument("--limit", type=int, default=4000, help="desk e-mails to read")
    parser.add_argument("--rules-only", action="store_true")
    parser.add_argument("--no-embedder", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from brain.escalation.model import load_or_fit
    from core.config import load_settings
    from core.text.embedder import get_dense_embedder

    embedder = None if args.no_embedder else get_dense_embedder(load_settings())
    embed = embedder.embed if embedder is not None else None
    with tempfile.TemporaryDirectory() as cache:
        model = None if args.rules_only else load_or_fit(Path(cache), embed)
    report: dict[str, Any] = {"model": None if model is None else model.key}
    if model is not None:
        report["threshold"] = round(model.threshold, 4)
        report["alone"] = round(model.alone, 4)
        report["veto"] = round(model.veto, 4)
    for split in (*SPLITS, *BESIDE, *UNREAD):
        rows = _rows(split)
        report[split] = figures(rows, _decide([str(r["text"]) for r in rows], model, embedder))
        if split in UNREAD:
            report[split]["missed_escalations"] = report[split]["wrong_escalations"] = []
        if split in TOTALS_ONLY:
            report[split]["escalation_by_kind"] = {}
    if args.tickets.is_file():
        lines = args.tickets.read_text(encoding="utf-8").splitlines()[: args.limit]
        texts = [json.loads(line)["text"] for line in lines if line.strip()]
        records = _decide(texts, model, embedder)
        paged = [t for t, r in zip(texts, records, strict=True) if r.escalate]
        report["desk_emails"] = {
            "n": len(texts),
            "paged": len(paged),
            "page_rate": round(len(paged) / max(1, len(texts)), 4),
            "paged_texts": [t[:160] for t in paged[:40]],
        }
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    print(
        f"model {report['model']} threshold {report.get('threshold')} "
        f"alone {report.get('alone')} veto {report.get('veto')}"
    )
    for split in (*SPLITS, *BESIDE, *UNREAD):
        fig = report[split]
        print(
            f"{split:8s} n={fig['escalation_labelled']} recall={fig['escalation_recall']} "
            f"precision={fig['escalation_precision']} wrong pages={fig['wrong_pages']}"
        )
        for group in ("escalation_by_language", "escalation_by_kind"):
            for name, g in fig[group].items():
                print(
                    f"    {name:16s} n={g['n']:4d} paged={g['paged']:4d} "
                    f"recall={g['recall']} precision={g['precision']}"
                )
        for text in fig["missed_escalations"]:
            print(f"    MISSED {text[:100]!r}")
        for text in fig["wrong_escalations"]:
            print(f"    WRONG  {text[:100]!r}")
    if "desk_emails" in report:
        desk = report["desk_emails"]
        print(
            f"desk e-mails: {desk['paged']} of {desk['n']} paged ({100 * desk['page_rate']:.2f}%)"
        )
        for text in desk["paged_texts"]:
            print(f"    PAGED  {text!r}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    raise SystemExit(main())
