"""Learning people can feel: how corrections change later answers, and what memory costs.

1. Correction curve (dev set): a simulated user U1 wants each class's messages routed to
   another controller (a fixed cycle: ticket -> consultation -> alarm -> ... ), asks k of
   the class's teaching rows and corrects each to that controller once. Held-out rows of the
   class are then asked by U1 and by U9 (who taught nothing): the share routed to the wanted
   controller, after 0, 1, 3 and 10 corrections per class. "near" counts only held-out rows
   the memory finds similar to one of U1's lessons; "paraphrases" only those similar to a
   lesson that moved a message *of the same class* to its wanted controller (the issue's "near
   paraphrases" of a corrected message; a row near another class's lesson is not one).
2. Agreement: U2, U3, ... each make U1's first correction of each class again (same message,
   asked by themselves); after each, U9 asks those messages and the held-out rows, until the
   lesson is the organisation's (default: 3 distinct users).
3. Latency: decision p50 with 0, 10k and 100k lessons in the store (synthetic lessons from
   CLINC150 train texts, with their embeddings), and feedback recording p50 / p99.

Run: `.venv/bin/python benchmarks/learning.py --home FITTED_HOME [--sizes 0,10000,100000]`
(FITTED_HOME: a brain home with the KB ingested and the model fitted; it is copied, never
changed). Figures are reported, never asserted.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from core.files import copy_tree  # noqa: E402 (after the path is set)

CYCLE = ["ticket", "consultation", "alarm", "coding", "access", "incident", "change"]
TEACH = 10
STEPS = (0, 1, 3, 10)
#: Corrections timed per size (one each, on distinct decisions).
FEEDBACKS = 100


def _wanted(label: str) -> str:
    return CYCLE[(CYCLE.index(label) + 1) % len(CYCLE)]


def _pct(hits: int, total: int) -> str:
    return f"{100 * hits / total:5.1f}%" if total else "   n/a"


def correction_curve(brain: Any, rows: list[Any], held_per_class: int = 0) -> dict[str, Any]:
    from brain.memory.lessons import decision_ids_mentioned
    from core.records import Message

    by_class: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        if row.label in CYCLE:
            by_class[row.label].append(row.text)
    held = {c: texts[TEACH:] for c, texts in by_class.items()}
    if held_per_class:
        held = {c: texts[:held_per_class] for c, texts in held.items()}
    taught = 0
    curve: dict[str, Any] = {}
    threshold = brain.settings.memory.preference_similarity
    for step in STEPS:
        while taught < step:
            for label, texts in by_class.items():
                decision = brain.decide(Message(texts[taught], user="U1", channel="teach"))
                brain.feedback(
                    decision.decision_id, "correct", controller=_wanted(label), user="U1"
                )
            taught += 1
        result: dict[str, Any] = {}
        for user in ("U1", "U9"):
            moved = total = near_moved = near_total = same_moved = same_total = 0
            for label, texts in held.items():
                for text in texts:
                    decision = brain.decide(Message(text, user=user, channel=f"held-{user}"))
                    hit = decision.controller == _wanted(label)
                    total += 1
                    moved += hit
                    if step:
                        vector = brain.parts.embed_if_loaded(text)
                        similar = [
                            entry
                            for entry, factor in brain.memory.similar(
                                text, vector=vector, ids=decision_ids_mentioned(decision.entities)
                            )
                            if factor >= threshold and entry.user == "U1"
                        ]
                        near = bool(similar)
                        near_total += near
                        near_moved += hit and near
                        # a paraphrase of a message U1 corrected for this class: near a
                        # lesson that moved such a message to this class's wanted controller
                        same = any(
                            e.kind == "correction-right" and e.controller == _wanted(label)
                            for e in similar
                        )
                        same_total += same
                        same_moved += hit and same
            result[user] = {
                "moved": moved,
                "total": total,
                "near_moved": near_moved,
                "near_total": near_total,
                "paraphrase_moved": same_moved,
                "paraphrase_total": same_total,
            }
        curve[str(step)] = result
        u1, u9 = result["U1"], result["U9"]
        print(
            f"  {step:>2} corrections/class: U1 {_pct(u1['moved'], u1['total'])} "
            f"(near {_pct(u1['near_moved'], u1['near_total'])} of {u1['near_total']}; "
            f"paraphrases {_pct(u1['paraphrase_moved'], u1['paraphrase_total'])} of "
            f"{u1['paraphrase_total']}), U9 {_pct(u9['moved'], u9['total'])} "
            f"(near {_pct(u9['near_moved'], u9['near_total'])}; paraphrases "
            f"{_pct(u9['paraphrase_moved'], u9['paraphrase_total'])})",
            flush=True,
        )
    return curve


def agreement(
    brain: Any, rows: list[Any], users: int = 5, held_per_class: int = 0
) -> list[dict[str, Any]]:
    """Users U2, U3, ... each ask the message U1 corrected first in each class and correct it
    the same way; after each, U9 (who taught nothing) asks those messages and the held-out
    rows: how many users it takes until the lesson is the organisation's."""
    from core.records import Message

    by_class: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        if row.label in CYCLE:
            by_class[row.label].append(row.text)
    out = []
    for extra in range(2, users + 2):
        for label, texts in by_class.items():
            decision = brain.decide(Message(texts[0], user=f"U{extra}", channel="teach"))
            brain.feedback(
                decision.decision_id, "correct", controller=_wanted(label), user=f"U{extra}"
            )
        agreed = moved = total = 0
        for label, texts in by_class.items():
            decision = brain.decide(Message(texts[0], user="U9", channel=f"agree-{extra}"))
            agreed += decision.controller == _wanted(label)
            for text in texts[TEACH:][: held_per_class or None]:
                decision = brain.decide(Message(text, user="U9", channel="held-U9b"))
                moved += decision.controller == _wanted(label)
                total += 1
        out.append(
            {
                "users": extra,
                "agreed": agreed,
                "classes": len(by_class),
                "moved": moved,
                "total": total,
            }
        )
        print(
            f"  {extra} users corrected: U9 on the corrected messages {agreed}/{len(by_class)}"
            f", on held-out rows {_pct(moved, total)}",
            flush=True,
        )
    return out


def _synthetic_lessons(count: int, texts: list[str], vectors: Any) -> list[dict[str, Any]]:
    import numpy as np

    rng = random.Random(7)
    docs = []
    for i in range(count):
        j = rng.randrange(len(texts))
        controller = rng.choice(CYCLE)
        docs.append(
            {
                "memory_id": str(uuid.uuid4()),
                "controller": controller,
                "weight": rng.choice([0.10, -0.15, 0.10, -0.10]),
                "kind": rng.choice(["correction-right", "correction-wrong", "confirmation"]),
                "text": texts[j],
                "decision_id": f"d-synthetic{i}",
                "user": f"S{rng.randrange(2000)}",
                "created_at": f"2026-{rng.randrange(1, 12):02d}-01T00:00:00+00:00",
                "ids": [],
                "vector": base64.b64encode(
                    np.asarray(vectors[j], dtype=np.float16).tobytes()
                ).decode(),
                "moved_from": "",
                "moved_to": controller,
            }
        )
    return docs


@contextlib.contextmanager
def _counting_fsyncs() -> Iterator[list[int]]:
    """Count `os.fsync` calls (any thread) in the block: what a durable write costs on any
    disk, where the milliseconds depend on the disk and on what else writes to it."""
    count = [0]
    real = os.fsync

    def counted(fd: Any) -> None:
        count[0] += 1
        real(fd)

    os.fsync = counted
    try:
        yield count
    finally:
        os.fsync = real


def _timed_open(settings: Any) -> float:
    """Seconds to open a brain and answer its first message (the lesson index and the
    correction groups are built or caught up on this first decision)."""
    from brain.engine import Brain
    from core.records import Message

    began = time.perf_counter()
    with Brain.open(settings) as brain:
        brain.decide(Message("warm up: vpn error 691", user="W", channel="warm"))
    return time.perf_counter() - began


def latency(home: Path, sizes: list[int], clinc: Path, probe: list[str]) -> dict[str, Any]:
    """Per size: lessons written through the real lesson store (its bulk `put_many`, folded
    into its files), the first process's open (builds the Qdrant lesson index from the
    records and the correction groups), a later process's open, decision p50 and feedback
    recording p50/p99 (one correction each on distinct decisions, as people give them)."""
    from brain.engine import Brain
    from core.config import load_settings
    from core.records import Message

    texts = [json.loads(line)["text"] for line in clinc.open(encoding="utf-8")][:15000]
    figures: dict[str, Any] = {}
    vectors = None
    for size in sizes:
        run = Path(tempfile.mkdtemp(prefix="learning-latency-"))
        try:
            copy_tree(home, run, dirs_exist_ok=True, symlinks=True)
            settings = load_settings({**os.environ, "BRAIN_HOME": str(run)})
            wrote = 0.0
            if size:
                if vectors is None:
                    with Brain.open(settings) as brain:
                        assert brain.embedder is not None
                        vectors = brain.embedder.embed(texts)
                with Brain.open(settings) as brain:
                    began = time.perf_counter()
                    lessons = brain.memory.lessons
                    lessons.put_many(_synthetic_lessons(size, texts, vectors))
                    getattr(lessons, "flush", lambda: None)()  # folded into its files now
                    wrote = time.perf_counter() - began
            first = _timed_open(settings)
            later = _timed_open(settings)
            with Brain.open(settings) as brain:
                brain.decide(Message("warm up: vpn error 691", user="W", channel="warm"))
                took = []
                for index, text in enumerate(probe):
                    start = time.perf_counter()
                    brain.decide(Message(text, user=f"P{index % 7}", channel=f"p{index}"))
                    took.append((time.perf_counter() - start) * 1000)
                asked = [
                    brain.decide(Message(probe[i % len(probe)], user=f"F{i}", channel=f"f{i}"))
                    for i in range(FEEDBACKS)
                ]
                feedback = []
                with _counting_fsyncs() as fsyncs:
                    for index, decision in enumerate(asked):
                        target = CYCLE[index % len(CYCLE)]
                        start = time.perf_counter()
                        brain.feedback(
                            decision.decision_id, "correct", controller=target, user=decision.user
                        )
                        feedback.append((time.perf_counter() - start) * 1000)
                lessons_now = len(brain.memory)
            feedback.sort()
            figures[str(size)] = {
                "lessons": lessons_now,
                "decision_p50_ms": statistics.median(took),
                "first_open_s": first,
                "open_and_first_s": later,
                "write_s": wrote,
                "feedback_p50_ms": statistics.median(feedback),
                "feedback_p99_ms": feedback[max(0, int(len(feedback) * 0.99) - 1)],
                "fsyncs_per_feedback": fsyncs[0] / FEEDBACKS,
                "load": os.getloadavg()[0],
            }
            f = figures[str(size)]
            base = figures[str(sizes[0])]
            print(
                f"  {size:>6} lessons: decision p50 {f['decision_p50_ms']:.1f} ms "
                f"({f['decision_p50_ms'] / base['decision_p50_ms']:.2f}x), feedback p50 "
                f"{f['feedback_p50_ms']:.1f} ms / p99 {f['feedback_p99_ms']:.1f} ms "
                f"({f['fsyncs_per_feedback']:.1f} fsyncs each, any thread); lessons "
                f"written in {wrote:.1f} s, first open+answer {first:.1f} s, later "
                f"{later:.1f} s (load {f['load']:.1f})",
                flush=True,
            )
        finally:
            shutil.rmtree(run, ignore_errors=True)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, required=True, help="a fitted brain home (copied)")
    parser.add_argument("--devset", type=Path, default=REPO / "benchmarks/data/devset.jsonl")
    parser.add_argument(
        "--clinc", type=Path, default=REPO.parent.parent / "shared/data/clinc150/train.jsonl"
    )
    parser.add_argument("--sizes", default="0,10000,100000")
    parser.add_argument("--skip-curve", action="store_true")
    parser.add_argument(
        "--held", type=int, default=0, help="held-out rows asked per class (default: all)"
    )
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()

    from brain.engine import Brain
    from brain.learning.labelled import read_rows
    from core.config import load_settings

    rows, _ = read_rows(args.devset, "controller")
    report: dict[str, Any] = {}
    if not args.skip_curve:
        run = Path(tempfile.mkdtemp(prefix="learning-curve-"))
        try:
            copy_tree(args.home, run, dirs_exist_ok=True, symlinks=True)
            settings = load_settings({**os.environ, "BRAIN_HOME": str(run)})
            with Brain.open(settings) as brain:
                print("correction curve (dev set; share routed to the user's controller):")
                report["curve"] = correction_curve(brain, rows, args.held)
                print("agreement (U9's held-out share as more users correct once per class):")
                report["agreement"] = agreement(brain, rows, held_per_class=args.held)
        finally:
            shutil.rmtree(run, ignore_errors=True)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if sizes:
        probe = [row.text for row in rows][::9][:60]
        print("latency as memory grows:")
        report["latency"] = latency(args.home, sizes, args.clinc, probe)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
