"""`brain ask TEXT` and `brain ask --json -` (one message per stdin line)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from brain.engine import Brain
    from core.records import Decision


def register(subparsers: Any) -> None:
    """Add the `ask` sub-command."""
    parser = subparsers.add_parser(
        "ask",
        help="route a message to a controller and run it",
        description="Decide which controller takes a message, run it, and show why. "
        "With TEXT '-', read one message per line from stdin.",
    )
    parser.add_argument("text", metavar="TEXT", help="the message, or '-' for stdin lines")
    parser.add_argument("--user", default="cli", help="who is asking (default: cli)")
    parser.add_argument("--channel", default="cli", help="where (default: cli)")
    parser.add_argument("--thread", default=None, help="thread id (continues a session)")
    parser.add_argument("--json", action="store_true", help="print the decision as JSON")
    parser.set_defaults(handler="cli.ask:run")


def render_decision(decision: Decision, labels: dict[str, str]) -> str:
    """The human form of a decision: who takes it, how sure, why, and the result."""
    lines = []
    if decision.controller:
        label = labels.get(decision.controller, decision.controller)
        extra = ""
        if decision.supporting:
            helpers = ", ".join(labels.get(s, s) for s in decision.supporting)
            extra = f" + {helpers} ({decision.composition})"
        lines.append(f"-> {label} [{decision.controller}]{extra}")
    else:
        lines.append(f"-> no controller ({decision.outcome})")
    lines.append(
        f"   confidence {decision.confidence:.2f} | tier {decision.tier} | "
        f"outcome {decision.outcome} | urgency {decision.urgency}"
    )
    if decision.escalate:
        lines.append("   ESCALATED to on-call")
    if decision.clarification:
        lines.append(f"   {decision.clarification}")
    lines.append(f"   why: {decision.rationale}")
    if decision.result:
        summary = decision.result.summary.strip()
        if summary:
            lines.append("   result: " + summary.replace("\n", "\n           "))
    lines.append(f"   decision {decision.decision_id} (brain why {decision.decision_id})")
    return "\n".join(lines)


def _ask_one(brain: Brain, text: str, args: argparse.Namespace) -> Decision:
    from core.records import Message

    return brain.ask(Message(text=text, user=args.user, channel=args.channel, thread=args.thread))


def _stdin_lines(brain: Brain, args: argparse.Namespace) -> int:
    failures = 0
    for number, raw in enumerate(sys.stdin, start=1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        try:
            payload: dict[str, Any] = _ask_one(brain, line, args).to_dict()
        except (ValueError, KeyError) as exc:
            failures += 1
            payload = {"error": str(exc), "line": number}
        except Exception as exc:  # one bad line must not stop the others
            failures += 1
            payload = {"error": f"{type(exc).__name__}: {exc}", "line": number}
        if args.json:
            print(json.dumps(payload, ensure_ascii=False), flush=True)
        elif "error" in payload:
            print(f"line {number}: error: {payload['error']}", flush=True)
        else:
            print(render_decision(_decision(payload), _labels(brain)), flush=True)
    return 1 if failures else 0


def _decision(payload: dict[str, Any]) -> Decision:
    from core.records import Decision

    return Decision.from_dict(payload)


def _labels(brain: Brain) -> dict[str, str]:
    return {c.name: (getattr(c, "label", "") or c.name) for c in brain.registry.all()}


def run(args: argparse.Namespace) -> int:
    """Handler of `brain ask`."""
    from brain.engine import clean_text
    from cli import open_brain
    from knowledge.store import StoreLockedError

    if args.text != "-":
        try:
            clean_text(args.text)
        except ValueError as exc:
            print(f"brain: {exc}", file=sys.stderr)
            return 2
    brain = open_brain()
    if brain is None:
        return 1
    try:
        if args.text == "-":
            return _stdin_lines(brain, args)
        try:
            decision = _ask_one(brain, args.text, args)
        except ValueError as exc:
            print(f"brain: {exc}", file=sys.stderr)
            return 2
        except StoreLockedError as exc:
            print(f"brain: {exc}", file=sys.stderr)
            return 1
        if args.json:
            print(json.dumps(decision.to_dict(), ensure_ascii=False, indent=2))
        else:
            print(render_decision(decision, _labels(brain)))
        return 0
    finally:
        brain.close()
