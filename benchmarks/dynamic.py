"""The dynamic tier: how unknown messages end, what DCR costs, how fast repeats learn.

    python benchmarks/dynamic.py [--clinc ../shared/data/clinc150]
        [--devset benchmarks/data/devset.jsonl] [--llm-rows 60] [--skip-repeat] [--json OUT]

One fresh home (sample KB, built-in controllers, the dev set's tickets), no real LLM:

1. **Unknown rows**: CLINC150 val out-of-scope rows and the dev set's `oos` and `vague` rows,
   each decided once by a different user. Share ending in an honest boundary, a clarification,
   a DCR plan (routed or composed by the dynamic tier, or answered by the capability hook),
   and a wrong route (any route: none of these rows has a right controller); rows routed with
   confidence >= 0.8; DCR rounds used; latency of the decisions the dynamic tier handled.
2. **With the fake LLM** (tests/fakes/anthropic_server.py): the first `--llm-rows` of the same
   rows, the fake proposing a plan and approving it; same shares and latency.
3. **Repeat-unknown run**: ten unknown office requests (none is IT), four phrasings each, a
   capability hook that answers them (tests/fakes/capability_hook.py). Occurrence k of all ten
   is decided, then each asker confirms; after which occurrence each reaches the fast path on
   an evolved controller. Targets (reported, not asserted): >= 90% of CLINC oos rows end in a
   clarification or boundary, none routed at >= 0.8; fast path on the 4th occurrence for >= 9
   of 10; a DCR decision without the LLM p99 <= 200 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from brain.engine import Brain  # noqa: E402
from core.config import load_settings  # noqa: E402
from core.records import Decision, Message  # noqa: E402
from tests.fakes.anthropic_server import FakeAnthropic, FakeReply, RecordedRequest  # noqa: E402
from tests.fakes.capability_hook import FakeHook  # noqa: E402

#: Ten unknown problems: the hook's topic word, then four phrasings by four people.
REPEATS: list[tuple[str, list[str]]] = [
    (
        "room",
        [
            "book the large meeting room on floor 5 for Friday 3pm",
            "reserve the big conference room on the 5th floor friday at 15:00",
            "I need the big meeting room, 5th floor, Friday 3 pm",
            "can I get the large room on level five this Friday afternoon at 3",
        ],
    ),
    (
        "parking",
        [
            "I need a parking spot in the garage for next week",
            "can I get a parking space in the company garage next week",
            "please reserve me a garage parking place for next week",
            "is there a free parking spot in our garage for me next week",
        ],
    ),
    (
        "locker",
        [
            "can I rent a locker in the gym changing room",
            "I would like a gym locker in the changing room",
            "how do I get a locker at the office gym",
            "please assign me a locker in the gym",
        ],
    ),
    (
        "shuttle",
        [
            "what time does the shuttle bus to the train station leave",
            "when is the next shuttle to the station",
            "shuttle bus timetable to the railway station please",
            "at what times does the company shuttle go to the station",
        ],
    ),
    (
        "canteen",
        [
            "what is on the canteen menu today",
            "today's canteen lunch menu please",
            "what does the canteen serve for lunch today",
            "show me the canteen menu for today",
        ],
    ),
    (
        "parcel",
        [
            "is there a parcel for me at reception",
            "did a parcel arrive for me at the front desk reception",
            "can you check if reception has a parcel for me",
            "I am expecting a parcel, has reception received it",
        ],
    ),
    (
        "letter",
        [
            "I need an employment letter for my visa application",
            "please issue an employment confirmation letter for my visa",
            "can HR give me an employment letter for the visa",
            "how do I get an employment letter for a visa application",
        ],
    ),
    (
        "holiday",
        [
            "how many holiday days do I have left this year",
            "what is my remaining holiday balance for this year",
            "check my holiday days left for the year",
            "how much holiday allowance is left for me this year",
        ],
    ),
    (
        "plant",
        [
            "the office plant near my desk needs watering",
            "can someone water the office plant by my desk",
            "who waters the office plants, the one by my desk is dry",
            "please have the dry office plant next to my desk watered",
        ],
    ),
    (
        "bike",
        [
            "where can I park my bike at the office",
            "is there bike storage at the office building",
            "where is the bike parking for the office",
            "can I store my bike somewhere at the office",
        ],
    ),
]


def log(message: str) -> None:
    print(f"[dynamic] {message}", file=sys.stderr, flush=True)


def _percentiles(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"p50": 0.0, "p99": 0.0, "n": 0}
    array = np.asarray(values)
    return {
        "p50": round(float(np.percentile(array, 50)), 1),
        "p99": round(float(np.percentile(array, 99)), 1),
        "n": len(values),
    }


def ending(decision: Decision) -> str:
    """boundary | clarification | dcr plan | wrong route, for a row no controller should take."""
    dcr = decision.dcr
    if dcr is not None and dcr.result == "hook":
        return "dcr plan"
    if decision.outcome == "fallback":
        return "boundary"
    if decision.outcome == "clarify":
        return "clarification"
    if decision.tier == "dynamic" and dcr is not None and dcr.result in ("plan", "downgraded"):
        return "dcr plan (routed)"
    return "wrong route"


def unknown_rows(clinc: Path, devset: Path) -> list[tuple[str, str]]:
    rows = []
    for line in (clinc / "val.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("intent") == "oos":
            rows.append(("clinc oos", record["text"]))
    for line in devset.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("kind") in ("oos", "vague"):
            rows.append((f"dev {record['kind']}", record["text"]))
    return rows


def run_rows(brain: Brain, rows: Sequence[tuple[str, str]], tag: str) -> dict[str, Any]:
    by_set: dict[str, Counter[str]] = {}
    rounds: Counter[int] = Counter()
    latency: list[float] = []
    own: list[float] = []
    all_latency: list[float] = []
    confident = 0
    llm_calls = 0
    routed: list[dict[str, Any]] = []
    for index, (kind, text) in enumerate(rows):
        started = time.perf_counter()
        decision = brain.decide(Message(text, user=f"{tag}{index}", channel=f"C{tag}{index}"))
        elapsed = (time.perf_counter() - started) * 1000
        all_latency.append(elapsed)
        end = ending(decision)
        by_set.setdefault(kind, Counter())[end] += 1
        if end in ("wrong route", "dcr plan (routed)"):
            routed.append(
                {
                    "set": kind,
                    "text": text,
                    "controller": decision.controller,
                    "confidence": decision.confidence,
                    "tier": decision.tier,
                    "by": "dcr" if end == "dcr plan (routed)" else "router",
                }
            )
        if decision.controller is not None and decision.confidence >= 0.8:
            confident += 1
        if decision.dcr is not None:
            rounds[len(decision.dcr.rounds)] += 1
            latency.append(elapsed)
            own.append(decision.dcr.latency_ms)
            llm_calls += decision.dcr.llm.calls
    return {
        "endings": {k: dict(v) for k, v in by_set.items()},
        "routed_at_0.8": confident,
        "dcr_rounds": dict(sorted(rounds.items())),
        "dcr_latency_ms": _percentiles(latency),
        "dcr_own_ms": _percentiles(own),
        "all_latency_ms": _percentiles(all_latency),
        "dcr_llm_calls": llm_calls,
        "routed_rows": routed,
    }


def print_rows(title: str, result: dict[str, Any]) -> None:
    print(f"\n## {title}")
    kinds = ("boundary", "clarification", "dcr plan", "dcr plan (routed)", "wrong route")
    print(f"{'rows':<12} {'n':>4} " + " ".join(f"{k:>17}" for k in kinds))
    for name, counts in result["endings"].items():
        total = sum(counts.values())
        cells = " ".join(f"{100 * counts.get(k, 0) / total:>16.1f}%" for k in kinds)
        print(f"{name:<12} {total:>4} {cells}")
    print(
        f"routed with confidence >= 0.8: {result['routed_at_0.8']}; DCR rounds used "
        f"(rounds: decisions) {result['dcr_rounds']}; DCR LLM calls {result['dcr_llm_calls']}"
    )
    print(
        f"latency ms, decisions the dynamic tier handled: {result['dcr_latency_ms']} "
        f"(the dynamic tier's own part: {result['dcr_own_ms']}); all rows: "
        f"{result['all_latency_ms']}"
    )


def _llm_responder(request: RecordedRequest) -> FakeReply:
    """The fake proposes the controller the request names first, and approves every plan."""
    if request.system.startswith("You plan how"):
        return FakeReply.json({"steps": [{"controller": "consultation"}], "topology": "single"})
    if request.system.startswith("You check whether"):
        return FakeReply.json({"covers": True, "reason": "fine"})
    return FakeReply.text("not json")


def repeat_run(home: str) -> dict[str, Any]:
    """After which occurrence each repeated unknown problem takes the fast path."""
    topics = [topic for topic, _ in REPEATS]
    first_fast: dict[str, int | None] = dict.fromkeys(topics)
    endings: dict[str, list[str]] = {t: [] for t in topics}
    with FakeHook(topics) as hook:
        settings = load_settings({**os.environ, "BRAIN_HOME": home})
        settings.dynamic.hook_url = hook.url
        with Brain(settings) as brain:
            for occurrence in range(4):
                log(f"repeat run: occurrence {occurrence + 1} of ten problems")
                decided = []
                for number, (topic, phrasings) in enumerate(REPEATS):
                    user = f"r{number}-{occurrence}"
                    message = Message(phrasings[occurrence], user=user, channel=f"R{number}")
                    decision = brain.ask(message)
                    evolved = (decision.controller or "").startswith("evolved_")
                    if evolved and decision.tier == "fast" and first_fast[topic] is None:
                        first_fast[topic] = occurrence + 1
                    endings[topic].append(
                        f"{decision.tier}/{decision.outcome}/"
                        f"{decision.controller or (decision.dcr.result if decision.dcr else '-')}"
                    )
                    decided.append((decision, user))
                for decision, user in decided:  # the askers confirm afterwards
                    brain.feedback(decision.decision_id, "confirm", user=user)
            evolved_names = [n for n in brain.registry.names() if n.startswith("evolved_")]
    return {"first_fast": first_fast, "endings": endings, "evolved": evolved_names}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    shared = next(
        (p / "shared" for p in (REPO.parent, REPO.parent.parent) if (p / "shared").is_dir()),
        REPO.parent / "shared",
    )
    parser.add_argument("--clinc", type=Path, default=shared / "data/clinc150")
    parser.add_argument("--devset", type=Path, default=REPO / "benchmarks/data/devset.jsonl")
    parser.add_argument(
        "--tickets", type=Path, default=REPO / "benchmarks/data/devset_tickets.jsonl"
    )
    parser.add_argument("--llm-rows", type=int, default=60)
    parser.add_argument("--skip-repeat", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    from routing import import_tickets

    rows = unknown_rows(args.clinc, args.devset)
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="dynamic-bench-") as home:
        settings = load_settings({**os.environ, "BRAIN_HOME": home})
        if args.tickets.is_file():
            log(f"{import_tickets(args.tickets, settings)} dev-set tickets imported")
        with Brain(settings) as brain:
            log("warming the brain (KB ingest, semantic fit) ...")
            brain.warm()
            brain.decide(Message("warm up: VPN error 691", user="warm"))
            log(f"{len(rows)} unknown rows without an LLM")
            report["no_llm"] = run_rows(brain, rows, "n")
        print_rows("Unknown rows, no LLM", report["no_llm"])
        if args.llm_rows:
            with FakeAnthropic() as fake:
                fake.responder = _llm_responder
                llm_env = {
                    **os.environ,
                    "BRAIN_HOME": home,
                    "ANTHROPIC_API_KEY": "sk-bench-not-a-real-key",
                    "ANTHROPIC_BASE_URL": fake.url,
                    "BRAIN_LLM_TIMEOUT": "2",
                    "BRAIN_DCR_LLM": "1",
                }
                with Brain(load_settings(llm_env)) as brain:
                    log(f"{args.llm_rows} unknown rows with the fake LLM")
                    report["fake_llm"] = run_rows(brain, rows[: args.llm_rows], "l")
            print_rows(f"Unknown rows (first {args.llm_rows}), fake LLM", report["fake_llm"])
    if not args.skip_repeat:
        with tempfile.TemporaryDirectory(prefix="dynamic-repeat-") as home:
            report["repeat"] = repeat_run(home)
        print("\n## Repeat-unknown run (ten problems, four phrasings, capability hook)")
        for topic, first in report["repeat"]["first_fast"].items():
            trail = " | ".join(report["repeat"]["endings"][topic])
            print(f"{topic:<10} fast path at occurrence {first or 'never'}: {trail}")
        fourth = sum(1 for f in report["repeat"]["first_fast"].values() if f is not None and f <= 4)
        print(f"fast path by the 4th occurrence: {fourth} of {len(REPEATS)}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
