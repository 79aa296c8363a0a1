"""Cutting a text to a length for display, by characters.

By characters, not words: `textwrap.shorten` drops whole words, so a Chinese title (one
"word", no spaces) longer than the limit became the placeholder alone (an ellipsis).
"""

from __future__ import annotations

from core.cues import cues

#: What marks a text as cut (an ellipsis).
ELLIPSIS = cues(__name__).text("ellipsis")


def shorten(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, marked with an ellipsis when cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + ELLIPSIS
