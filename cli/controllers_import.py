"""`brain controllers import FILE --text COL --label COL [--map "Label=controller,..."] [--json]`:
a desk's labelled history becomes controllers, a fitted routing model and a calibration in
BRAIN_HOME (`brain.evaluation.importing`), with progress on stderr and a held-out report."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def _progress(message: str) -> None:
    print(f"import: {message}", file=sys.stderr, flush=True)


def run_import(args: argparse.Namespace) -> int:
    """Read and check the file (nothing written on a problem), then import it."""
    from brain.evaluation.importing import import_rows, parse_map
    from brain.evaluation.table import TableError, read_table
    from cli import exit_codes
    from controllers.registry import ControllerRegistry
    from core.config import load_settings
    from core.errors import EvalError

    if not args.name or not args.text or not args.label:
        print("brain: controllers import needs FILE, --text COL and --label COL", file=sys.stderr)
        return exit_codes.USAGE
    source = Path(args.name)
    try:
        mapping = parse_map(args.map)
        _progress(f"reading {source}")
        rows = read_table(source, args.text, args.label)
        settings = load_settings()
        existing = ControllerRegistry.load(settings).names()
        report = import_rows(
            settings, source, rows, mapping, existing=existing, on_progress=_progress
        )
    except (TableError, EvalError) as exc:
        print(f"brain: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(render(report.to_dict()))
    return 0


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def render(report: dict[str, Any]) -> str:
    """The report as a few lines of text."""
    lines = [
        f"imported {report['rows']:,} rows from {report['source']}",
        f"new controllers: {', '.join(report['created']) or '-'}",
    ]
    if report["mapped"]:
        lines.append("folded: " + ", ".join(f"{k} -> {v}" for k, v in report["mapped"].items()))
    lines.append(
        f"held out {report['held_out']:,} rows: accuracy {_pct(report['accuracy'])} "
        f"(asked back counted wrong), {_pct(report['routed_accuracy'])} of what was routed, "
        f"asked back {_pct(report['asked_back_share'])}"
    )
    for category, row in report["per_category"].items():
        lines.append(f"  {category:<28} {_pct(row['accuracy']):>6}  ({row['rows']} rows)")
    if report["confusions"]:
        lines.append("most frequent confusions:")
        for item in report["confusions"]:
            lines.append(f"  {item['category']} -> {item['routed_to']}: {item['rows']}")
    lines.append("wrote: " + ", ".join(report["files"]))
    return "\n".join(lines)
