"""Cutting a text to a length for display, by characters.

By characters, not words: `textwrap.shorten` drops whole words, so a Chinese title (one
"word", no spaces) longer than the limit became the placeholder alone (an ellipsis).
"""

from __future__ import annotations

#: What marks a text as cut.
ELLIPSIS = "\N{HORIZONTAL ELLIPSIS}"


def shorten(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, marked with an ellipsis when cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + ELLIPSIS
