"""The one cleaning every message gets before the brain reads or stores it."""

from __future__ import annotations

import re

from core.limits import MAX_MESSAGE_CHARS

#: Control characters, zero-width marks, line/paragraph separators, the byte-order mark and
#: the bidirectional embedding, override and isolate characters (U+202A-U+202E,
#: U+2066-U+2069, U+061C), which can make a message read differently from what it holds.
_INVISIBLE = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029"
    r"\u202a-\u202e\u2066-\u2069\ufeff]"
)


def clean_text(text: object) -> str:
    """Invisible and control characters replaced by spaces, size capped at
    `MAX_MESSAGE_CHARS`; anything empty, blank or not text raises ValueError."""
    if not isinstance(text, str):
        raise ValueError("the message must be text")
    text = text.encode("utf-8", "replace").decode("utf-8")  # lone surrogates from bad bytes
    cleaned = _INVISIBLE.sub(" ", text).strip()
    if not cleaned:
        raise ValueError("the message is empty: write what you need, e.g. 'VPN error 691'")
    if len(cleaned) > MAX_MESSAGE_CHARS:
        cleaned = cleaned[:MAX_MESSAGE_CHARS] + " [truncated]"
    return cleaned
