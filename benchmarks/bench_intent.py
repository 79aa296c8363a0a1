"""Step 1 benchmark: intent recognition without an LLM, ours vs seed 002's method, side by side.

Measures on a labelled development set (rows with ``text``, ``controller``, ``urgent``):
- escalation: a message escalates when urgency is critical or the intent is escalation /
  human_handoff (seed 002's rule); precision and recall against ``urgent``;
- intent group vs the labelled controller (the group is only a routing hint);
- latency per recognition, cold (first sight) and warm (cache hit), p50 / p99.

"seed002" is seed 002's method as written: the same vote, its urgency cue list
(紧急/urgent/p0/全公司, 今天/马上/尽快/影响业务) and no similarity floor on the semantic
recognizer; "ours" is `brain.intent.IntentRecognizer`.

    python benchmarks/bench_intent.py benchmarks/data/devset.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from brain.intent import IntentRecognizer
from brain.intent.entities import extract_entities
from brain.intent.recognizers import KeywordRecognizer, SemanticRecognizer, Vote
from brain.intent.taxonomy import intent_group
from brain.intent.vote import vote
from core.records import Message

Recognize = Callable[[str], tuple[str, str, str]]  # text -> (intent, urgency, group)


def seed002_urgency(text: str, intent: str) -> str:
    """Seed 002's `urgency`, verbatim."""
    msg = text.lower()
    if any(cue in msg for cue in ("紧急", "urgent", "p0", "全公司")) or intent == (
        "security_incident"
    ):
        return "critical"
    if any(cue in msg for cue in ("今天", "马上", "尽快", "影响业务")) or intent in (
        "escalation",
        "human_handoff",
    ):
        return "high"
    return "medium" if intent == "complaint" else "low"


def seed002() -> Recognize:
    semantic = SemanticRecognizer(min_similarity=1e-9)
    keyword = KeywordRecognizer()
    failed = Vote("other", 0.0, failed=True, status="disabled")

    def recognize(text: str) -> tuple[str, str, str]:
        result = vote(failed, semantic.recognize(text), keyword.recognize(text))
        return result.intent, seed002_urgency(text, result.intent), intent_group(result.intent)

    return recognize


def ours() -> Recognize:
    recognizer = IntentRecognizer(None, None, cache_size=10_000)

    def recognize(text: str) -> tuple[str, str, str]:
        result = recognizer.recognize(Message(text), use_llm=False)
        return result.intent, result.urgency, result.group

    return recognize


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def evaluate(name: str, recognize: Recognize, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    cold: list[float] = []
    tp = fp = fn = group_ok = in_scope = 0
    for row in rows:
        started = time.perf_counter()
        intent, urgency, group = recognize(row["text"])
        cold.append((time.perf_counter() - started) * 1000)
        escalate = urgency == "critical" or intent in ("escalation", "human_handoff")
        tp += escalate and row["urgent"]
        fp += escalate and not row["urgent"]
        fn += row["urgent"] and not escalate
        if row["controller"] != "oos":
            in_scope += 1
            group_ok += group == row["controller"]
    warm: list[float] = []
    for row in rows:
        started = time.perf_counter()
        recognize(row["text"])
        warm.append((time.perf_counter() - started) * 1000)
    return {
        "method": name,
        "escalation_precision": round(tp / max(tp + fp, 1), 3),
        "escalation_recall": round(tp / max(tp + fn, 1), 3),
        "wrong_escalations": fp,
        "missed_escalations": fn,
        "group_accuracy": round(group_ok / max(in_scope, 1), 3),
        "cold_ms_p50": round(statistics.median(cold), 3),
        "cold_ms_p99": round(_pct(cold, 0.99), 3),
        "warm_ms_p50": round(statistics.median(warm), 3),
        "warm_ms_p99": round(_pct(warm, 0.99), 3),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("devset", type=Path, help="JSONL with text, controller, urgent")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    rows = [json.loads(line) for line in args.devset.read_text("utf-8").splitlines() if line]

    results = [evaluate("seed002", seed002(), rows), evaluate("ours", ours(), rows)]
    started = time.perf_counter()
    for row in rows:
        extract_entities(row["text"])
    entity_ms = (time.perf_counter() - started) * 1000 / len(rows)

    if args.json:
        print(json.dumps({"n": len(rows), "results": results, "entities_ms_mean": entity_ms}))
        return 0
    base, mine = results
    print(f"intent recognition without LLM on {args.devset} (n={len(rows)})")
    print(f"{'metric':<22}{'seed002':>12}{'ours':>12}{'ours/seed':>12}")
    for key in base:
        if key == "method":
            continue
        ratio = f"{mine[key] / base[key]:.2f}" if base[key] else "-"
        print(f"{key:<22}{base[key]:>12}{mine[key]:>12}{ratio:>12}")
    print(f"entity extraction mean {entity_ms:.3f} ms per message")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
