"""What the router says in words: clarification and follow-up questions, the boundary and the
hand-off explanations, in the asker's language (the `routing.*` messages of the language
catalogs, `core.wording`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from controllers.ticket_replies import field_list
from core.wording import wording_for

if TYPE_CHECKING:
    from brain.routing.plan import Candidate


def clarification_question(candidates: Sequence[Candidate], chinese: bool) -> str:
    """A plain-words question naming the candidates by their labels ("A, B or C")."""
    words = wording_for(chinese)
    named = [words.say("routing.option", label=c.label) for c in candidates]
    options = named[-1]
    if len(named) > 1:
        listed = words.say("routing.options_separator").join(named[:-1])
        options = listed + words.say("routing.options_last") + named[-1]
    return words.say("routing.clarification", options=options)


def follow_up_question(label: str, missing: Sequence[str], chinese: bool, *, check: bool) -> str:
    """What is asked in the thread after routing: the parameters the controller still needs,
    and (`check`) whether this was the right place at all."""
    words = wording_for(chinese)
    parts = []
    if missing:
        needed = field_list(missing, chinese)
        parts.append(words.say("routing.still_needs", label=label, needed=needed))
    if check:
        parts.append(words.say("routing.check", label=label))
    return words.say("routing.sentence_separator").join(parts)


def escalated_explanation(chinese: bool) -> str:
    """An escalated message that no controller takes: a person does, never "outside what I
    can handle"."""
    return wording_for(chinese).say("routing.escalated")


def boundary_explanation(count: int, chinese: bool) -> str:
    """The honest answer when no controller can take the message."""
    return wording_for(chinese).say("routing.boundary", count=count)
