"""What the Slack app itself says to an asker (buttons, menus, the on-call notes), in the
asker's language: the `slack.*` messages of the language catalogs (`core.wording`), so that a
reply in Chinese does not carry English controls and a new phrase is added to every language
at once. The brain's own replies are worded in the brain (`brain.routing.wording`); this is
only the adapter's chrome. Staff-facing text (the on-call alert, the resolve prompt) stays in
English."""

from __future__ import annotations

from collections.abc import Mapping

from core.records import Decision
from core.wording import templates, wording_for

__all__ = ["PHRASES", "in_chinese", "say"]

_AREA = "slack"

#: key -> (English, Chinese) templates, as the catalogs hold them (for checks of the wording).
PHRASES: Mapping[str, tuple[str, ...]] = templates(_AREA)


def say(key: str, chinese: bool, **fields: str) -> str:
    """The phrase `key` in the asker's language, its fields filled."""
    return wording_for(chinese).say(f"{_AREA}.{key}", **fields)


def in_chinese(decision: Decision | None) -> bool:
    """Whether the asker of `decision` is told things in Chinese (its message's language;
    English when there is no decision, e.g. an error reply)."""
    return decision is not None and decision.in_chinese
