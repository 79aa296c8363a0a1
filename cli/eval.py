"""`brain eval --test FILE [--train FILE] [--val FILE] [--label FIELD] [--json]`."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(subparsers: Any) -> None:
    """Add the `eval` sub-command."""
    parser = subparsers.add_parser(
        "eval",
        help="measure routing quality on a labelled file",
        description="Run the full decision chain on labelled rows ({'text', <label>} JSON lines; "
        "label 'oos' or null = no controller should take it) and report in-scope accuracy, "
        "out-of-scope recall/precision, tiers, latency and LLM calls. With --train, one "
        "controller per label is built from its examples in a throwaway home.",
    )
    parser.add_argument("--test", required=True, metavar="FILE", help="rows to evaluate")
    parser.add_argument(
        "--train", metavar="FILE", help="build one controller per label from these rows"
    )
    parser.add_argument(
        "--val",
        metavar="FILE",
        help="fit the confidence calibration on these rows (without --train it is saved to "
        "$BRAIN_HOME/calibration.json)",
    )
    parser.add_argument(
        "--label", metavar="FIELD", help="label field (default: label, controller or intent)"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler="cli.eval:run")


def _progress(message: str) -> None:
    print(f"eval: {message}", file=sys.stderr, flush=True)


def _fmt(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value * 100:.1f}%"
    return str(value)


def _ways(counts: dict[str, int]) -> str:
    """Counts by the way the chain took the rows (`brain.evaluation.metrics.WAYS`)."""
    return ", ".join(f"{way} {n}" for way, n in counts.items()) or "-"


def render(report: dict[str, Any]) -> str:
    """A small human table of the report."""
    latency = report["latency_ms"]
    rows = [
        ("rows", f"{report['n']} ({report['in_scope']} in scope, {report['out_of_scope']} oos)"),
        ("in-scope accuracy", _fmt(report["in_scope_accuracy"])),
        ("oos recall", _fmt(report["oos_recall"])),
        ("oos precision", _fmt(report["oos_precision"])),
        ("declared oos recall", _fmt(report["declared_oos_recall"])),
        ("declared oos precision", _fmt(report["declared_oos_precision"])),
        ("in scope asked back", str(report["in_scope_asked_back"])),
        ("oos went", _ways(report.get("out_of_scope_ways", {}))),
        ("in scope not routed", _ways(report.get("in_scope_not_routed_ways", {}))),
        (
            "routed at >= 0.8",
            f"{report['routed_at_0_8']} ({_fmt(report['routed_at_0_8_accuracy'])} right)",
        ),
        ("tiers", ", ".join(f"{k} {v}" for k, v in sorted(report["tiers"].items()))),
        ("outcomes", ", ".join(f"{k} {v}" for k, v in sorted(report["outcomes"].items()))),
        ("latency p50 / p99", f"{latency['p50']:.1f} / {latency['p99']:.1f} ms"),
        ("llm calls", str(report["llm_calls"])),
        ("calibration", str(report["setup"].get("calibration", "-"))),
    ]
    if report.get("escalation_labelled"):
        rows += [
            ("escalation recall", _fmt(report["escalation_recall"])),
            ("escalation precision", _fmt(report["escalation_precision"])),
            (
                "wrong pages",
                f"{report['wrong_pages']} ({report['wrong_pages_per_1000']} per 1,000)",
            ),
        ]
    rows += [
        (f"class {label}", f"{c['right']}/{c['n']} ({_fmt(c['accuracy'])})")
        for label, c in report.get("per_class", {}).items()
    ]
    width = max(len(k) for k, _ in rows)
    lines = [f"{k.ljust(width)}  {v}" for k, v in rows]
    misroutes = report.get("misroutes", [])
    if misroutes:
        lines.append(f"misroutes ({report.get('misroutes_total', len(misroutes))}):")
        lines += [f"  {m['text'][:80]!r}: wanted {m['wanted']}, got {m['got']}" for m in misroutes]
    for key, title in (("missed_escalations", "missed"), ("wrong_escalations", "wrong")):
        lines += [f"  {title} escalation: {text[:80]!r}" for text in report.get(key, [])]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Handler: read the files, evaluate, print."""
    from brain.evaluation.run import EvalError, evaluate
    from brain.learning.labelled import LabelledFileError, read_rows

    try:
        test, label = read_rows(args.test, args.label)
        train = read_rows(args.train, args.label or label)[0] if args.train else None
        val = read_rows(args.val, args.label or label)[0] if args.val else None
        report = evaluate(test, train=train, val=val, progress=_progress)
    except (EvalError, LabelledFileError) as exc:
        print(f"brain eval: {exc}", file=sys.stderr)
        return 2
    data = report.to_dict()
    data["setup"]["label"] = label
    if args.json:
        print(json.dumps(data))
    else:
        print(render(data))
    return 0
