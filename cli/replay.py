"""`brain replay [--since 7d] --set KEY=VALUE ... [--with-controller FILE] [--json]`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add the `replay` sub-command."""
    parser = subparsers.add_parser(
        "replay",
        help="what-if: re-decide logged messages under a changed configuration",
        description="Re-decide the messages logged since --since in a throwaway copy of the "
        "home, as configured and with the --set changes (and --with-controller files), and "
        "report the decisions that change and whether the changes agree with people's "
        "feedback. Nothing is executed or written: no ticket, page, message or store write.",
    )
    parser.add_argument("--since", default="7d", help="how far back (7d, 12h, 30m; default 7d)")
    parser.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a setting to change, e.g. routing.fast_threshold=0.85 (repeatable)",
    )
    parser.add_argument(
        "--with-controller",
        dest="controllers",
        action="append",
        default=[],
        type=Path,
        metavar="FILE",
        help="a controller YAML file to add (repeatable)",
    )
    parser.add_argument("--limit", type=int, default=10_000, help="most decisions replayed")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler="cli.replay:run")


def run(args: argparse.Namespace) -> int:
    """Handler of `brain replay`."""
    from brain.decisions.period import parse_since
    from brain.replay.run import replay
    from brain.replay.sandbox import parse_overrides
    from core.config import load_settings

    try:
        since = parse_since(args.since)
        overrides = parse_overrides(args.overrides)
    except ValueError as exc:
        print(f"brain replay: {exc}", file=sys.stderr)
        return 2
    for path in args.controllers:
        if not path.is_file():
            print(f"brain replay: no controller file {path}", file=sys.stderr)
            return 2
    report = replay(
        load_settings(),
        since=since,
        overrides=overrides,
        controllers=args.controllers,
        limit=args.limit,
    ).to_dict()
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    print(
        f"{report['considered']} decisions replayed; {report['changed_count']} would change "
        f"({report['agree_with_feedback']} agree with feedback, "
        f"{report['disagree_with_feedback']} disagree); {report['drifted']} drifted since"
    )
    for change in report["changed"]:
        before, after = change["before"], change["after"]
        moves = ", ".join(f"{n}: {before[n]} -> {after[n]}" for n in change["fields"])
        note = f" [{change['feedback']}]" if change["feedback"] else ""
        print(f"  {change['decision_id']} ({change['confidence']:.2f}) {moves}{note}")
        print(f"    {change['text'][:100]}")
    return 0
