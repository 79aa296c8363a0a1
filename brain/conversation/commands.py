"""The typed commands of a conversation (`/help`, `/forget`, `/why`, `/right`, `/wrong`,
`/resolve`, `/solved`) and how a typed reply picks one of the choices it was offered."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from brain.conversation.continuing import CHOICE_END_MARKS, CHOICE_WORDS
from brain.conversation.reply import NONE_OF_THESE, Choice, Reply
from core.errors import UnknownDecision
from core.records import Message

__all__ = ["DECISION_ID", "command", "match_choice"]

#: A decision id named in a command ("/right d-0123456789ab").
DECISION_ID = re.compile(r"\bd-[0-9a-f]{12}\b")


def command(conversation: Any, message: Message, name: str, argument: str, source: str) -> Reply:
    """`/help`, `/forget`, `/why`, `/right`, `/wrong [CONTROLLER]`, `/resolve`, `/solved` on
    `conversation` (a `turns.Conversation`)."""
    if name == "help":
        return Reply("help", conversation.wording.help)
    if name in ("forget", "brain-forget"):
        return conversation.forget(message.user)
    if name == "why":
        target = argument or conversation.last_target(message)
        if not target:
            return Reply("error", "There is no decision to explain yet.")
        return conversation.why(target, team=message.team)
    if name in ("right", "wrong"):
        # A decision id may be named (one part of a multi-intent reply): "/right d-..".
        named = DECISION_ID.search(argument)
        if named:
            argument = (argument[: named.start()] + argument[named.end() :]).strip()
        target = named.group(0) if named else conversation.last_target(message)
        if not target:
            return Reply("error", "There is no decision to give feedback on yet.")
        try:
            if name == "right":
                return conversation.confirm(
                    target, user=message.user, source=source, team=message.team
                )
            if argument:
                picked = match_choice(argument, conversation.controller_choices())
                return conversation.reroute(
                    target,
                    picked or argument,
                    user=message.user,
                    source=source,
                    team=message.team,
                    session_key=message.session_key,
                )
            return conversation.reject(
                target,
                user=message.user,
                source=source,
                session_key=message.session_key,
                team=message.team,
            )
        except UnknownDecision:
            return Reply("error", f"I know no decision {target!r}.")
    if name in ("resolve", "solved"):
        return _resolution(conversation, message, name, argument, source)
    return Reply("error", f"Unknown command /{name}. Type /help.")


def _resolution(
    conversation: Any, message: Message, name: str, argument: str, source: str
) -> Reply:
    """`/resolve ROUTE-OR-PLAN [DECISION_ID]` (a person's resolution) and `/solved
    [DECISION_ID]` (the asker's confirmation), `brain.conversation.resolving`."""
    from brain.conversation import resolving

    named = DECISION_ID.search(argument)
    if named:
        argument = (argument[: named.start()] + argument[named.end() :]).strip()
    target = named.group(0) if named else conversation.last_target(message)
    if not target:
        return Reply("error", "There is no decision to resolve yet.")
    if name == "solved":
        return resolving.solved(conversation, target, user=message.user, source=source)
    return resolving.resolve(conversation, target, argument, user=message.user)


def match_choice(text: str, choices: Sequence[Choice]) -> str | None:
    """A choice picked by number (1-based), value or label; None when the text is no pick."""
    wanted = text.strip().lower()
    if wanted.isdigit():
        index = int(wanted) - 1
        return choices[index].value if 0 <= index < len(choices) else None
    for choice in choices:
        if wanted in (choice.value.lower(), choice.label.lower()):
            return choice.value
    for value, words in CHOICE_WORDS.items():
        if wanted.strip(CHOICE_END_MARKS) in words and any(c.value == value for c in choices):
            return value
    if wanted in ("none", "none of these", "0"):
        for choice in choices:
            if choice.value == NONE_OF_THESE:
                return choice.value
    return None
