"""`brain ask TEXT` and `brain ask --json -` (one message per stdin line).

With `--thread T` (or a batch line's `"thread"`) the message is a turn of that thread's
conversation, run by the same `brain.conversation.turns.Conversation` as Slack and `brain chat`
over the home's stored conversation states, so a follow-up asked in a later process lands on
the thread's record instead of filing a second one. Without a thread a message is decided on
its own: separate `brain ask` calls are not one conversation.

A batch line is plain text, or a JSON object with a string `"text"` and optional `"thread"`,
`"user"` and `"channel"` (each defaulting to the command's options).

In batch mode every input line gets exactly one output object carrying its `"line"` number: a
decision, or `{"line": N, "error": "..."}` for a line that is not a message (empty, blank,
only control characters). Exit codes (`cli.exit_codes`): 0 every line was answered, 1 a line
failed inside the brain (its object says why; the others were still answered), 3 the store is
unavailable. Input bytes that are not UTF-8 are replaced, never fatal, whatever the locale.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from typing import TYPE_CHECKING, Any

from cli import exit_codes, stdin_lines

if TYPE_CHECKING:
    from brain.conversation.turns import Conversation
    from brain.engine import Brain
    from core.records import Decision, Message

log = logging.getLogger(__name__)


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
    parser.add_argument(
        "--thread", default=None, help="thread id: continue that thread's conversation"
    )
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
    if decision.follow_up:
        lines.append(f"   asked after routing: {decision.follow_up}")
    lines.append(f"   why: {decision.rationale}")
    if decision.result:
        summary = decision.result.summary.strip()
        if summary:
            lines.append("   result: " + summary.replace("\n", "\n           "))
    lines.append(f"   decision {decision.decision_id} (brain why {decision.decision_id})")
    return "\n".join(lines)


class _Asker:
    """Asks the brain one message at a time: a threaded one as a turn of its thread's
    conversation (opened on the first such message), any other one on its own."""

    def __init__(self, brain: Brain) -> None:
        self.brain = brain
        self._conversation: Conversation | None = None

    def ask(self, message: Message) -> dict[str, Any]:
        """The turn's answer as JSON: its decision, or `{"reply": kind, "text": ...}` for a
        turn of a thread answered without one (a command such as /forget or /help in it).
        Raises ValueError for a message the thread cannot take (a pick nothing asked for)."""
        if message.thread is None:
            return self.brain.ask(message).to_dict()
        if self._conversation is None:
            from brain.conversation.turns import Conversation

            self._conversation = Conversation(self.brain, self.brain.conversations)
        reply = self._conversation.handle(message, source="cli")
        if reply.decision is not None:
            return reply.decision.to_dict()
        if reply.kind == "error":
            raise ValueError(reply.text)
        return {"reply": reply.kind, "text": reply.text}


def _message(text: str, args: argparse.Namespace) -> Message:
    from core.records import Message

    return Message(text=text, user=args.user, channel=args.channel, thread=args.thread)


def _line_message(line: str, args: argparse.Namespace) -> Message:
    """A batch line as a message: a JSON object with a string "text" names its own thread,
    user and channel; any other line (a pasted alert's JSON included) is the text itself.
    Raises ValueError for a line that is not a message."""
    from core.records import Message
    from core.text.cleaning import clean_text

    envelope: Any = None
    if line.lstrip().startswith("{"):
        try:
            envelope = json.loads(line)
        except ValueError:
            envelope = None
    if not isinstance(envelope, dict) or not isinstance(envelope.get("text"), str):
        clean_text(line)
        return _message(line, args)
    clean_text(envelope["text"])
    fields = {"user": args.user, "channel": args.channel, "thread": args.thread}
    for name in fields:
        value = envelope.get(name)
        if value is None:
            continue
        if not isinstance(value, str | int) or isinstance(value, bool) or not str(value).strip():
            raise ValueError(f"{name!r} must be a non-empty string")
        fields[name] = str(value)
    return Message(text=envelope["text"], **fields)


def _stdin_lines(brain: Brain, args: argparse.Namespace) -> int:
    from knowledge.store import StoreLockedError

    failures = 0
    labels = _labels(brain)
    asker = _Asker(brain)
    for number, raw in enumerate(stdin_lines(), start=1):
        line = raw.rstrip("\r\n")
        payload: dict[str, Any]
        try:
            message = _line_message(line, args)
            payload = {**asker.ask(message), "line": number}
        except ValueError as exc:  # not a message: this line's answer is the reason
            payload = {"line": number, "error": str(exc)}
        except StoreLockedError:
            raise
        except Exception as exc:  # one failing line must not stop the others
            failures += 1
            log.warning("line %d failed: %s", number, type(exc).__name__, exc_info=True)
            payload = {"line": number, "error": f"{type(exc).__name__}: {exc}"}
        if args.json:
            print(json.dumps(payload), flush=True)
        elif "error" in payload:
            print(f"line {number}: error: {payload['error']}", flush=True)
        else:
            print(_human(payload, labels), flush=True)
    return exit_codes.PARTIAL if failures else exit_codes.OK


def _human(payload: dict[str, Any], labels: dict[str, str]) -> str:
    """A decision as `render_decision` draws it, or the text of a reply without one."""
    return (
        render_decision(_decision(payload), labels) if "decision_id" in payload else payload["text"]
    )


def _decision(payload: dict[str, Any]) -> Decision:
    from core.records import Decision

    return Decision.from_dict({k: v for k, v in payload.items() if k != "line"})


def _labels(brain: Brain) -> dict[str, str]:
    return {c.name: (getattr(c, "label", "") or c.name) for c in brain.registry.all()}


def run(args: argparse.Namespace) -> int:
    """Handler of `brain ask`."""
    from cli import open_brain
    from core.text.cleaning import clean_text

    if args.text != "-":
        try:
            clean_text(args.text)
        except ValueError as exc:
            print(f"brain: {exc}", file=sys.stderr)
            return exit_codes.USAGE
    brain = open_brain()
    if brain is None:
        return exit_codes.STORE_UNAVAILABLE
    try:
        if args.text == "-":
            return _stdin_lines(brain, args)
        try:
            payload = _Asker(brain).ask(_message(args.text, args))
        except ValueError as exc:
            print(f"brain: {exc}", file=sys.stderr)
            return exit_codes.USAGE
        print(json.dumps(payload, indent=2) if args.json else _human(payload, _labels(brain)))
        return 0
    finally:
        brain.close()
