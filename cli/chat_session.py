"""The terminal rendering of a `Conversation`: numbered choices, plain text, no Slack.

Drawn from the `Reply` alone, like the Slack blocks, so both surfaces show the same record.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

from brain.conversation.reply import Reply
from brain.conversation.turns import HELP_TEXT, Conversation
from brain.conversation.wording import say
from core.records import Message
from core.text.language import is_chinese

QUIT = frozenset({"/quit", "/exit", "/q"})


def render(reply: Reply) -> str:
    """A reply as terminal text, its hints in the asker's language."""
    lines = [reply.text if reply.kind != "error" else f"! {reply.text}"]
    decision = reply.decision
    zh = decision is not None and is_chinese(decision.text)
    # A controller is picked, or (the thread's record or something new?) one of two ways on.
    controllers = any(not choice.value.startswith("__") for choice in reply.choices)
    if reply.choices:
        for number, choice in enumerate(reply.choices, start=1):
            name = "" if choice.value.startswith("__") else f" [{choice.value}]"
            lines.append(f"  {number}. {choice.label}{name}")
        lines.append("  " + say("pick_controller" if controllers else "pick", zh))
    if decision is not None and reply.kind in ("answer", "clarify", "fallback"):
        lines.append(f"  ({reply.rationale})")
        if reply.escalate:
            lines.append("  " + say("escalated", zh, urgency=decision.urgency))
        if reply.parts:
            for number, view in enumerate(reply.parts, 1):
                lines.append(f"  [{number}] {view.label} ({view.role}) - {view.rationale}")
                lines.append(
                    f"      decision {view.decision_id}: /right {view.decision_id}, "
                    f"/wrong CONTROLLER {view.decision_id}"
                )
        elif reply.kind != "clarify":
            lines.append("  " + say("decision_line", zh, id=decision.decision_id))
        if decision.controller is None and (controllers or not reply.choices):
            lines.append("  " + say("resolve_line", zh, id=decision.decision_id))
    return "\n".join(lines)


def chat_loop(
    conversation: Conversation,
    lines: Iterable[str],
    write: Callable[[str], None],
    *,
    user: str = "cli",
    channel: str = "chat",
    prompt: str | None = None,
) -> int:
    """Run the conversation over input lines until /quit or end of input; returns 0."""
    write("brain chat: type a message, /help for commands, /quit to leave.")
    if prompt:
        sys.stdout.write(prompt)
        sys.stdout.flush()
    for raw in lines:
        text = raw.rstrip("\r\n")
        if text.strip().lower() in QUIT:
            break
        if text.strip():
            message = Message(text=text, user=user, channel=channel)
            try:
                reply = conversation.handle(message, source="chat")
            except Exception as exc:  # one bad turn must not end the conversation
                reply = Reply("error", f"{type(exc).__name__}: {exc}")
            write(render(reply) if reply.kind != "help" else HELP_TEXT)
        if prompt:
            sys.stdout.write(prompt)
            sys.stdout.flush()
    write("bye")
    return 0
