"""`brain resolve DECISION_ID --route CONTROLLER | --plan FILE [--user U] [--json]`: a
person's resolution of a message the brain could not place (`brain.dynamic.resolution`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add the `resolve` sub-command."""
    parser = subparsers.add_parser(
        "resolve",
        help="resolve a decision as a person: a route or a plan (learned by evolution)",
        description=(
            "Record how a person resolved a message: three alike, resolved the same way, "
            "become an evolved controller."
        ),
    )
    parser.add_argument("decision_id", metavar="DECISION_ID")
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--route", metavar="CONTROLLER", help="it is for this controller")
    how.add_argument(
        "--plan",
        metavar="FILE",
        type=Path,
        help="a YAML/JSON plan: controllers, topology, parameters, note",
    )
    parser.add_argument("--user", default=None, help="who resolved it")
    parser.add_argument("--json", action="store_true", help="print the resolution as JSON")
    parser.set_defaults(handler="cli.resolve:run")


def run(args: argparse.Namespace) -> int:
    """Handler of `brain resolve`."""
    from brain.dynamic.resolution import as_json, describe, read_plan
    from brain.engine import Brain
    from core.errors import InvalidFeedback, UnknownController, UnknownDecision

    try:
        plan = read_plan(args.plan) if args.plan is not None else None
    except InvalidFeedback as exc:
        print(f"brain: {exc}", file=sys.stderr)
        return 2
    with Brain.open() as brain:
        try:
            resolution = brain.resolve(
                args.decision_id, route=args.route, plan=plan, user=args.user
            )
        except (UnknownDecision, UnknownController) as exc:
            print(f"brain: {exc}", file=sys.stderr)
            return 1
    print(as_json(resolution) if args.json else describe(resolution))
    return 0
