"""`brain feedback DECISION_ID (--confirm | --reject | --correct CONTROLLER) [--user U]`."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(subparsers: Any) -> None:
    """Add the `feedback` sub-command."""
    parser = subparsers.add_parser(
        "feedback",
        help="confirm, reject or correct a decision",
        description="Record feedback on a decision (the same API the Slack bot uses).",
    )
    parser.add_argument("decision_id", metavar="DECISION_ID")
    kind = parser.add_mutually_exclusive_group(required=True)
    kind.add_argument("--confirm", action="store_true", help="the routing was right")
    kind.add_argument("--reject", action="store_true", help="the routing was wrong")
    kind.add_argument("--correct", metavar="CONTROLLER", help="it should have gone to CONTROLLER")
    parser.add_argument("--user", default=None, help="who gives the feedback")
    parser.add_argument(
        "--reason", default="", help="why, in your words (stored redacted with the feedback)"
    )
    parser.add_argument("--json", action="store_true", help="print the updated decision as JSON")
    parser.set_defaults(handler="cli.feedback:run")


def run(args: argparse.Namespace) -> int:
    """Handler of `brain feedback`."""
    from brain.engine import Brain
    from core.errors import InvalidFeedback, UnknownController, UnknownDecision

    if args.correct:
        kind, controller = "correct", args.correct
    else:
        kind, controller = ("confirm" if args.confirm else "reject"), None
    brain = Brain.open()
    try:
        decision = brain.feedback(
            args.decision_id,
            kind,
            controller=controller,
            user=args.user,
            source="cli",
            reason=args.reason,
        )
    except (UnknownDecision, UnknownController) as exc:
        print(f"brain: {exc}", file=sys.stderr)
        return 1
    except InvalidFeedback as exc:
        print(f"brain: {exc}", file=sys.stderr)
        return 2
    finally:
        brain.close()
    if args.json:
        print(json.dumps(decision.to_dict(), indent=2))
    else:
        target = f" -> {controller}" if controller else ""
        print(
            f"recorded {kind}{target} for {decision.decision_id} "
            f"(decided: {decision.controller or 'no controller'}); "
            f"{len(decision.feedback)} feedback item(s) stored"
        )
    return 0
