"""The decision chain of the Digital Employee Brain (Slack-free), and the one API its surfaces use.

The Slack app (`bot/`) and the console (`console/`) import what they use from `brain` itself,
never from its subpackages (`tests/architecture/test_public_api.py`), so the chain's inside can
be rearranged without touching a surface. The names below are that API; the command line is the
composition root and may reach further.

The names are loaded on first use (PEP 562): importing any part of `brain` must not import all
of it (the engine pulls in the models), and the parts import `brain` first. No name is that of
a subpackage (`brain.replay`'s `replay` is `what_if_replay` here): importing the subpackage would
put the module in its place.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from brain.conversation import resolving
    from brain.conversation.reply import NONE_OF_THESE, Choice, Reply
    from brain.conversation.turns import BrainAPI, Conversation
    from brain.decisions.browse import DecisionFilter, browse, corrected
    from brain.decisions.desk_report import DeskReport, desk_report
    from brain.decisions.explain import explain_decision, signal_names
    from brain.decisions.period import logged_messages, messages_in, parse_since
    from brain.engine import Brain
    from brain.intent.vote import WEIGHTS as INTENT_VOTE_WEIGHTS
    from brain.learning.control import conflict_views, lesson_view
    from brain.replay.run import replay as what_if_replay
    from brain.replay.sandbox import parse_overrides, with_overrides

#: Public name -> (module, attribute in it; None: the module itself).
_EXPORTS: dict[str, tuple[str, str | None]] = {
    # the brain and one conversation with it
    "Brain": ("brain.engine", "Brain"),
    "BrainAPI": ("brain.conversation.turns", "BrainAPI"),
    "Conversation": ("brain.conversation.turns", "Conversation"),
    "resolving": ("brain.conversation.resolving", None),
    # what a surface draws
    "Reply": ("brain.conversation.reply", "Reply"),
    "Choice": ("brain.conversation.reply", "Choice"),
    "NONE_OF_THESE": ("brain.conversation.reply", "NONE_OF_THESE"),
    # decisions read back, explained and counted
    "DecisionFilter": ("brain.decisions.browse", "DecisionFilter"),
    "browse": ("brain.decisions.browse", "browse"),
    "corrected": ("brain.decisions.browse", "corrected"),
    "explain_decision": ("brain.decisions.explain", "explain_decision"),
    "signal_names": ("brain.decisions.explain", "signal_names"),
    "INTENT_VOTE_WEIGHTS": ("brain.intent.vote", "WEIGHTS"),
    "DeskReport": ("brain.decisions.desk_report", "DeskReport"),
    "desk_report": ("brain.decisions.desk_report", "desk_report"),
    "logged_messages": ("brain.decisions.period", "logged_messages"),
    "messages_in": ("brain.decisions.period", "messages_in"),
    "parse_since": ("brain.decisions.period", "parse_since"),
    # what was learned, and what-if replay
    "lesson_view": ("brain.learning.control", "lesson_view"),
    "conflict_views": ("brain.learning.control", "conflict_views"),
    "what_if_replay": ("brain.replay.run", "replay"),
    "parse_overrides": ("brain.replay.sandbox", "parse_overrides"),
    "with_overrides": ("brain.replay.sandbox", "with_overrides"),
}

__all__ = [
    "INTENT_VOTE_WEIGHTS",
    "NONE_OF_THESE",
    "Brain",
    "BrainAPI",
    "Choice",
    "Conversation",
    "DecisionFilter",
    "DeskReport",
    "Reply",
    "browse",
    "conflict_views",
    "corrected",
    "desk_report",
    "explain_decision",
    "lesson_view",
    "logged_messages",
    "messages_in",
    "parse_overrides",
    "parse_since",
    "resolving",
    "signal_names",
    "what_if_replay",
    "with_overrides",
]


def __getattr__(name: str) -> Any:
    try:
        module_name, attribute = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'brain' has no attribute {name!r}") from None
    module = import_module(module_name)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
