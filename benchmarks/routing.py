"""Routing benchmark: the brain vs seed 002's method vs semantic-router, side by side.

    python benchmarks/routing.py [--clinc DIR] [--devset FILE] [--devset-tickets FILE]
        [--multi FILE] [--levels intent,domain]
        [--tune-encoder on|off|both] [--skip-semantic-router] [--controllers-scaling 10,100,1000]
        [--datasets clinc150,clinc150:unseen,banking77,it_tickets] [--train-rows N] [--test-rows N]
        [--json OUT]

1. CLINC150 (train -> val), intent and domain level: our brain through exactly the code of
   `brain eval --train train --test val` (full `Brain.decide` per row; calibration and every
   threshold fitted on train only: a held-out 20% fold, then refitted on all of train), against
   (a) seed 002's character n-gram Jaccard + keyword vote and (b) semantic-router 1.1.1 over
   the same MiniLM. In-scope accuracy, out-of-scope recall / precision, latency, reliability.
   By default the brain fine-tunes MiniLM's top layers on train (`--tune-encoder`, the
   product's `[training] tune_encoder`): CLINC has 100 examples per intent.
2. The development set (benchmarks/data/devset.jsonl) on the seven built-in controllers in a
   fresh home (sample KB ingested, the tickets its messages refer to imported from
   benchmarks/data/devset_tickets.jsonl): right controller, out-of-scope + vague not routed, urgent
   escalated, wrongly escalated, escalation precision / recall, wrong pages per 1,000 messages,
   per-class accuracy and the misroutes; the same baselines built from the controllers' examples.
   Then what the brain does in that home (`benchmarks/actions.py`'s code, through `Brain.ask`):
   duplicate tickets for messages naming a stored ticket, tickets filed for look-ups of unknown
   ids, and multi-intent messages (benchmarks/data/multi_intent.jsonl) with every part handled.
3. Decision latency p50 / p99 per tier, and its growth with 10 / 100 / 1,000 synthesised
   controllers (CLINC intents, split into paraphrase groups for 1,000).

4. Real datasets (`benchmarks/routing_datasets.py`): this product, TF-IDF + linear SVM and logistic
   regression on MiniLM on CLINC150 (val), BANKING77 (a val carved from train) and the IT
   tickets (val), each beside a split carved from train that nothing was chosen on; where a
   split has out-of-scope rows, the product's out-of-scope recall and precision (not routed,
   and declared only) are printed beside its accuracy, so a trade between them shows in one run.

Figures are printed; ratios are against seed 002's method. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from routing_baselines import (  # noqa: E402
    JaccardVote,
    quality,
    score_baseline,
    semantic_router_baseline,
)
from routing_datasets import compare  # noqa: E402

from brain.evaluation.run import evaluate, trained_brain  # noqa: E402
from brain.learning.labelled import LabelledRow, normalise_label  # noqa: E402


def log(message: str) -> None:
    print(f"[routing] {message}", file=sys.stderr, flush=True)


def _percentiles(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"p50": 0.0, "p99": 0.0}
    return {
        "p50": round(float(np.percentile(values, 50)), 2),
        "p99": round(float(np.percentile(values, 99)), 2),
    }


def read_clinc(folder: Path, split: str, level: str) -> list[LabelledRow]:
    rows = []
    with (folder / f"{split}.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            rows.append(LabelledRow(record["text"], normalise_label(record[level])))
    return rows


def _embedder() -> Any:
    from core.text.embedder import get_dense_embedder

    return get_dense_embedder()


def _pct(value: float | None) -> str:
    return "   -  " if value is None else f"{value * 100:5.1f}%"


def _ratio(ours: float | None, base: float | None) -> str:
    if ours is None or not base:
        return "-"
    return f"{ours / base:.2f}x"


def print_quality_table(title: str, systems: dict[str, dict[str, Any]]) -> None:
    print(f"\n## {title}")
    print(
        f"{'system':<34} {'in-scope acc':>12} {'oos recall':>10} {'oos prec':>9} "
        f"{'p50 ms':>7} {'p99 ms':>7}"
    )
    for name, m in systems.items():
        latency = m.get("latency_ms", {})
        print(
            f"{name:<34} {_pct(m.get('in_scope_accuracy')):>12} {_pct(m.get('oos_recall')):>10} "
            f"{_pct(m.get('oos_precision')):>9} {latency.get('p50', 0):>7.2f} "
            f"{latency.get('p99', 0):>7.2f}"
        )
    base = systems.get("seed 002 (Jaccard + keyword vote)")
    for name, ours in systems.items():
        if not name.startswith("brain"):
            continue
        if ours.get("declared_oos_recall") is not None:
            # The baselines either route or say "none"; the brain may also ask back (clarify).
            print(
                f"{name}, counting only messages it declared out of scope (fallback, not the "
                f"{ours.get('in_scope_asked_back', 0)} in-scope ones it asked back): oos recall "
                f"{_pct(ours['declared_oos_recall'])}, oos precision "
                f"{_pct(ours.get('declared_oos_precision'))}"
            )
        if base:
            print(
                f"ratio {name} / seed 002: in-scope accuracy "
                f"{_ratio(ours['in_scope_accuracy'], base['in_scope_accuracy'])}, oos recall "
                f"{_ratio(ours['oos_recall'], base['oos_recall'])}"
            )


def baselines(
    train: Sequence[LabelledRow], test: Sequence[LabelledRow], skip_router: bool
) -> dict[str, dict[str, Any]]:
    systems: dict[str, dict[str, Any]] = {}
    log("seed 002 baseline: fitting")
    started = time.perf_counter()
    vote = JaccardVote.fit(train)
    fit_seconds = time.perf_counter() - started
    predictions, latencies = score_baseline(vote.route, test)
    systems["seed 002 (Jaccard + keyword vote)"] = {
        **quality(test, predictions),
        "latency_ms": _percentiles(latencies),
        "fit_seconds": round(fit_seconds, 1),
        "threshold": vote.threshold,
        "predictions": predictions,
    }
    if not skip_router:
        try:
            log("semantic-router baseline: indexing and calibrating")
            router, info = semantic_router_baseline(train, _embedder())
            predictions, latencies = score_baseline(
                lambda text: getattr(router(text), "name", None), test
            )
            systems["semantic-router 1.1.1 (MiniLM, Platt)"] = {
                **quality(test, predictions),
                "latency_ms": _percentiles(latencies),
                **info,
            }
        except Exception as exc:  # an optional baseline must not stop the benchmark
            log(f"semantic-router skipped: {type(exc).__name__}: {exc}")
    return systems


@contextmanager
def _tuned_encoder(on: bool) -> Iterator[None]:
    """BRAIN_TUNE_ENCODER for the brains built inside (eval homes inherit the environment)."""
    before = os.environ.get("BRAIN_TUNE_ENCODER")
    os.environ["BRAIN_TUNE_ENCODER"] = "1" if on else "0"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("BRAIN_TUNE_ENCODER", None)
        else:
            os.environ["BRAIN_TUNE_ENCODER"] = before


def clinc_level(
    folder: Path, level: str, skip_router: bool, tunings: Sequence[bool]
) -> dict[str, Any]:
    train = read_clinc(folder, "train", level)
    val = read_clinc(folder, "val", level)
    log(f"CLINC150 {level}: {len(train)} train rows, {len(val)} val rows")
    reports: dict[str, Any] = {}
    for tune in tunings:
        with _tuned_encoder(tune):
            name = "brain, tuned encoder (brain eval)" if tune else "brain (brain eval)"
            reports[name] = evaluate(val, train=train, progress=log)
    name, report = next(reversed(reports.items()))  # detailed below: the last one
    ours = report.metrics
    systems = {
        **{label: r.metrics for label, r in reports.items()},
        **baselines(train, val, skip_router),
    }
    for system in systems.values():
        system.pop("predictions", None)
    print_quality_table(f"CLINC150 val, {level} level (all tuned on train)", systems)
    print(
        f"{name}: tiers {ours['tiers']}, latency by tier {ours['latency_ms']['by_tier']}, "
        f"llm calls {ours['llm_calls']}, fit {report.setup.get('fit_seconds')} s, "
        f"whole run {report.setup.get('seconds')} s"
    )
    print_reliability(ours)
    return {
        "systems": systems,
        "setup": {k: v for k, v in report.setup.items() if k != "calibrator"},
    }


def print_reliability(metrics: dict[str, Any]) -> None:
    print(
        f"reliability of routed decisions (ECE {metrics['ece']}); routed at >= 0.8: "
        f"{metrics['routed_at_0_8']} of {metrics['routed']}, right "
        f"{_pct(metrics['routed_at_0_8_accuracy'])}"
    )
    print(f"  {'confidence':<12} {'n':>6} {'mean conf':>9} {'accuracy':>9}")
    for b in metrics["reliability"]:
        print(
            f"  {b['low']:.1f}-{b['high']:.1f}{'':<5} {b['count']:>6} "
            f"{b['mean_confidence']:>9.3f} {b['accuracy']:>9.3f}"
        )


# -- development set ---------------------------------------------------------------------
def devset(
    path: Path, skip_router: bool, tickets: Path | None = None, multi: Path | None = None
) -> dict[str, Any]:
    from actions import action_figures, print_action_figures

    from brain.routing.calibration import Calibrator, reliability_table
    from controllers.registry import ControllerRegistry
    from core.config import load_settings

    records = _jsonl(path)
    rows = [
        LabelledRow(r["text"], normalise_label(r["controller"]), bool(r["urgent"])) for r in records
    ]
    with tempfile.TemporaryDirectory(prefix="routing-devset-") as home:
        settings = load_settings({**os.environ, "BRAIN_HOME": home})
        log(f"dev set: {len(rows)} rows on the built-in controllers (fresh home)")
        if tickets is not None and tickets.is_file():
            log(f"dev set: {import_tickets(tickets, settings)} tickets imported from {tickets}")
        report = evaluate(rows, settings=settings, progress=log)
        registry = ControllerRegistry.load(settings)
        examples = [LabelledRow(str(e), c.name) for c in registry.all() for e in c.examples]
        # What the brain does, in the same home (tickets filed from here on are counted).
        log("dev set: duplicate tickets and multi-intent parts (Brain.ask)")
        multi_rows = _jsonl(multi) if multi is not None and multi.is_file() else []
        actions = action_figures(settings, records, multi_rows)
    outcomes = report.outcomes

    def dev_metrics(
        routed: Sequence[str | None], escalated: Sequence[bool] | None
    ) -> dict[str, Any]:
        inscope = [i for i, r in enumerate(records) if normalise_label(r["controller"])]
        unroutable = [i for i, r in enumerate(records) if r["kind"] in ("oos", "vague")]
        urgent = [i for i, r in enumerate(records) if r["urgent"]]
        result: dict[str, Any] = {
            "right_controller": round(
                sum(routed[i] == records[i]["controller"] for i in inscope) / len(inscope), 4
            ),
            "oos_vague_not_routed": round(
                sum(routed[i] is None for i in unroutable) / len(unroutable), 4
            ),
        }
        if escalated is not None:
            result["urgent_escalated"] = round(sum(escalated[i] for i in urgent) / len(urgent), 4)
            result["wrongly_escalated"] = sum(
                escalated[i] for i, r in enumerate(records) if not r["urgent"]
            )
            paged = sum(escalated)
            rightly = sum(escalated[i] for i in urgent)
            result["escalation_recall"] = result["urgent_escalated"]
            result["escalation_precision"] = round(rightly / paged, 4) if paged else None
            result["wrong_pages_per_1000"] = round(
                1000 * result["wrongly_escalated"] / len(records), 2
            )
        return result

    ours = {
        **dev_metrics([o.controller for o in outcomes], [o.escalate for o in outcomes]),
        **quality(rows, [o.controller for o in outcomes]),
        "latency_ms": report.metrics["latency_ms"],
        "tiers": report.metrics["tiers"],
        "llm_calls": report.metrics["llm_calls"],
    }
    systems = {"brain (brain eval)": ours}
    for name, result in baselines(examples, rows, skip_router).items():
        predictions = result.pop("predictions", None)
        if predictions is not None:
            result.update(dev_metrics(predictions, None))
        systems[name] = result
    print("\n## Development set (built-in controllers, no LLM)")
    print(
        f"{'system':<34} {'right ctl':>9} {'oos+vague not routed':>20} {'urgent esc':>10} "
        f"{'wrong esc':>9}"
    )
    for name, m in systems.items():
        print(
            f"{name:<34} {_pct(m.get('right_controller')):>9} "
            f"{_pct(m.get('oos_vague_not_routed')):>20} {_pct(m.get('urgent_escalated')):>10} "
            f"{m.get('wrongly_escalated', '-')!s:>9}"
        )
    print(
        f"brain: tiers {ours['tiers']}, latency by tier {ours['latency_ms']['by_tier']}, "
        f"llm calls {ours['llm_calls']}"
    )
    print(
        f"brain escalation: recall {_pct(ours.get('escalation_recall'))}, precision "
        f"{_pct(ours.get('escalation_precision'))}, wrong pages per 1,000 messages "
        f"{ours.get('wrong_pages_per_1000')}"
    )
    metrics = report.metrics
    by_kind: dict[str, list[bool]] = {}
    for record, outcome in zip(records, outcomes, strict=True):
        by_kind.setdefault(record["kind"], []).append(outcome.right)
    print("brain per kind: " + ", ".join(f"{k} {sum(v)}/{len(v)}" for k, v in by_kind.items()))
    print(
        "brain per class: "
        + ", ".join(f"{k} {c['right']}/{c['n']}" for k, c in metrics["per_class"].items())
    )
    for text in metrics.get("missed_escalations", []):
        print(f"  missed escalation: {text[:90]!r}")
    for text in metrics.get("wrong_escalations", []):
        print(f"  wrong page: {text[:90]!r}")
    ours["misroutes"] = metrics["misroutes"]
    ours["actions"] = actions
    print_action_figures(actions)
    print_reliability(report.metrics)
    # Cross-fitted calibration on the dev set (2 folds): how reliable a fitted calibrator is.
    halves = [list(range(0, len(outcomes), 2)), list(range(1, len(outcomes), 2))]
    confidences: list[float] = []
    right: list[bool] = []
    for fit_half, apply_half in (halves, halves[::-1]):
        usable = [outcomes[i] for i in fit_half if outcomes[i].features]
        calibrator = Calibrator.fit([o.features for o in usable], [o.top_right for o in usable])
        for i in apply_half:
            if outcomes[i].features:
                confidences.append(calibrator.apply(**outcomes[i].features))
                right.append(outcomes[i].top_right)
    table = reliability_table(confidences, right)
    high = [r for c, r in zip(confidences, right, strict=True) if c >= 0.8]
    print(
        "2-fold cross-fitted calibration on the dev set: confidence >= 0.8 for "
        f"{len(high)} rows, right {_pct(sum(high) / len(high) if high else None)}"
    )
    for b in table:
        print(
            f"  {b.low:.1f}-{b.high:.1f}      {b.count:>6} {b.mean_confidence:>9.3f} "
            f"{b.accuracy:>9.3f}"
        )
    return {"systems": systems, "end_to_end": end_to_end(records)}


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def import_tickets(path: Path, settings: Any) -> int:
    """The tickets the dev set's messages refer to, as a deployment's ticket store holds them
    (without them the ticket controller's dry-run rightly fails: "ticket ... was not found")."""
    from controllers.tickets import TicketStore

    records = _jsonl(path)
    store = TicketStore.open(settings)
    try:
        return len(store.import_records(records))
    finally:
        store.release()


def end_to_end(records: Sequence[dict[str, Any]], gap_s: float = 0.05) -> dict[str, Any]:
    """Fast-path decisions timed whole (their query embedding not cached), against one query
    embedding of the same texts, alternating, with a short gap between messages as in chat."""
    from brain.engine import Brain
    from core.config import load_settings
    from core.records import Message

    texts = [str(r["text"]) for r in records]
    embed_ms: list[float] = []
    fast_ms: list[float] = []
    with tempfile.TemporaryDirectory(prefix="routing-e2e-") as home:
        settings = load_settings({**os.environ, "BRAIN_HOME": home})
        with Brain.open(settings) as brain:
            brain.decide(Message("warm up", user="warm", channel="warm"))
            embedder = brain.embedder
            if embedder is None:
                return {}
            for i, text in enumerate(texts):
                embedder.clear_cache()
                time.sleep(gap_s)
                began = time.perf_counter()
                embedder.embed_query(text)
                embed_ms.append((time.perf_counter() - began) * 1000)
                embedder.clear_cache()
                time.sleep(gap_s)
                began = time.perf_counter()
                decision = brain.decide(Message(text, user=f"e2e-{i}", channel=f"e2e-{i}"))
                if decision.tier == "fast":
                    fast_ms.append((time.perf_counter() - began) * 1000)
    embed, fast = _percentiles(embed_ms), _percentiles(fast_ms)
    ratio = fast["p50"] / embed["p50"] if embed["p50"] else 0.0
    print(
        f"end to end (embedding included, {gap_s * 1000:.0f} ms between messages): fast path "
        f"p50 {fast['p50']} ms, p99 {fast['p99']} ms over {len(fast_ms)} decisions; one query "
        f"embedding p50 {embed['p50']} ms; ratio {ratio:.2f}x"
    )
    return {"fast": fast, "fast_n": len(fast_ms), "embed_query": embed, "ratio": round(ratio, 2)}


# -- scaling -------------------------------------------------------------------------------
def synthesise(folder: Path, count: int, per_controller: int) -> list[LabelledRow]:
    """`count` controllers from CLINC intents; beyond 150, each intent splits into groups."""
    train = read_clinc(folder, "train", "intent")
    by_intent: dict[str, list[str]] = {}
    for row in train:
        if row.label is not None:
            by_intent.setdefault(row.label, []).append(row.text)
    groups = -(-count // len(by_intent))
    rows: list[LabelledRow] = []
    made = 0
    for variant in range(groups):
        for intent, texts in by_intent.items():
            if made == count:
                break
            chunk = texts[variant::groups][:per_controller]
            name = intent if groups == 1 else f"{intent}_v{variant}"
            rows += [LabelledRow(t, name) for t in chunk]
            made += 1
    return rows


def scaling(folder: Path, sizes: Sequence[int], queries: int = 200) -> dict[str, Any]:
    from core.records import Message

    val = [r.text for r in read_clinc(folder, "val", "intent")][:queries]
    embedder = _embedder()
    floor: list[float] = []
    if embedder is not None:
        for text in val:
            began = time.perf_counter()
            embedder.embed_query(text + " ")  # uncached: the cost of one query embedding
            floor.append((time.perf_counter() - began) * 1000)
    results: dict[str, Any] = {"embed_query_ms": _percentiles(floor)}
    print("\n## Decision latency vs number of controllers (no LLM)")
    print(f"one MiniLM query embedding: p50 {results['embed_query_ms']['p50']} ms")
    print(
        f"{'controllers':>11} {'fit s':>7} {'p50 ms':>7} {'p99 ms':>7} {'fast n':>6} "
        f"{'fast p50':>8} {'fast p99':>8}"
    )
    for size in sizes:
        rows = synthesise(folder, size, 10 if size > 150 else 20)
        with tempfile.TemporaryDirectory(prefix=f"routing-scale-{size}-") as home:
            started = time.perf_counter()
            with trained_brain(rows, Path(home)) as (brain, _):
                brain.decide(Message("warm up", user="warm", channel="warm"))
                fit = time.perf_counter() - started
                brain.prime(val)  # timed without the embedding, which is shown apart
                latencies: list[float] = []
                fast: list[float] = []
                for i, text in enumerate(val):
                    began = time.perf_counter()
                    decision = brain.decide(Message(text, user=f"scale-{i}", channel="scale"))
                    elapsed = (time.perf_counter() - began) * 1000
                    latencies.append(elapsed)
                    if decision.tier == "fast":
                        fast.append(elapsed)
        all_p, fast_p = _percentiles(latencies), _percentiles(fast)
        results[str(size)] = {
            "fit_seconds": round(fit, 1),
            "all": all_p,
            "fast": fast_p,
            "fast_n": len(fast),
        }
        # Uncalibrated synthesised controllers rarely reach 0.8: "-" when none took the fast path.
        fast_cells = (
            f"{fast_p['p50']:>8.2f} {fast_p['p99']:>8.2f}" if fast else f"{'-':>8} {'-':>8}"
        )
        print(
            f"{size:>11} {fit:>7.1f} {all_p['p50']:>7.2f} {all_p['p99']:>7.2f} "
            f"{len(fast):>6} {fast_cells}"
        )
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clinc", type=Path, default=REPO.parent / "shared" / "data" / "clinc150")
    parser.add_argument(
        "--devset", type=Path, default=REPO / "benchmarks" / "data" / "devset.jsonl"
    )
    parser.add_argument(
        "--devset-tickets",
        type=Path,
        default=REPO / "benchmarks" / "data" / "devset_tickets.jsonl",
        help="tickets the dev set refers to, imported into its home first",
    )
    parser.add_argument(
        "--multi",
        type=Path,
        default=REPO / "benchmarks" / "data" / "multi_intent.jsonl",
        help="multi-intent messages with the controllers of their parts",
    )
    parser.add_argument("--levels", default="intent,domain", help="CLINC levels ('' to skip)")
    parser.add_argument(
        "--tune-encoder",
        choices=("on", "off", "both"),
        default="on",
        help="CLINC brains with MiniLM's top layers fine-tuned on train (BRAIN_TUNE_ENCODER); "
        "'both' puts the two side by side",
    )
    parser.add_argument("--skip-semantic-router", action="store_true")
    parser.add_argument("--skip-devset", action="store_true")
    parser.add_argument(
        "--controllers-scaling", default="10,100,1000", help="controller counts ('' to skip)"
    )
    parser.add_argument(
        "--datasets",
        default="clinc150,clinc150:unseen,banking77,it_tickets",
        help="the baselines' comparison on these folders of --data ('' to skip; "
        "'clinc150:domain' reads the domain labels, 'clinc150:unseen' leaves one intent per "
        "domain out of train and counts its rows out of scope)",
    )
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--train-rows", type=int, help="fit on a stratified sample this large")
    parser.add_argument("--test-rows", type=int, help="val and carved sampled to this many")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    args = parser.parse_args(argv)
    print("$ python benchmarks/routing.py " + " ".join(sys.argv[1:] if argv is None else argv))
    print(f"machine: {os.cpu_count()} cores; no LLM (ANTHROPIC_API_KEY unset)")
    os.environ.pop("ANTHROPIC_API_KEY", None)
    figures: dict[str, Any] = {}
    levels = [level for level in args.levels.split(",") if level]
    if levels and not (args.clinc / "train.jsonl").is_file():
        log(f"no CLINC150 at {args.clinc}: CLINC sections skipped")
        levels = []
    for level in levels:
        tunings = {"on": [True], "off": [False], "both": [False, True]}[args.tune_encoder]
        figures[f"clinc_{level}"] = clinc_level(
            args.clinc, level, args.skip_semantic_router, tunings
        )
    if not args.skip_devset and args.devset.is_file():
        figures["devset"] = devset(
            args.devset, args.skip_semantic_router, args.devset_tickets, args.multi
        )
    sizes = [int(s) for s in args.controllers_scaling.split(",") if s.strip()]
    if sizes and (args.clinc / "train.jsonl").is_file():
        figures["scaling"] = scaling(args.clinc, sizes)
    datasets = [name for name in args.datasets.split(",") if name]
    if datasets:
        figures["datasets"] = compare(args.data, datasets, args.train_rows, log, args.test_rows)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1, default=str), encoding="utf-8")
        log(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
