"""Multi-intent splitting (seed 002): one message, several independent requests.

"CPU alarm on db-01 and also I need Grafana access" carries two requests; each is decided on its
own. This module only proposes the pieces: at an explicit joiner ("and also", "另外", "还有",
"以及", "此外", "顺便") or between sentences. Whether they really are independent requests is
decided by the brain (`brain.chain.multi_intent`): every piece must route on its own, each to a
different controller; otherwise the message is decided whole. A plain "and" never splits, so
"error 500 and timeout on the payment API" stays one alarm.
"""

from __future__ import annotations

import re

#: Joiners that introduce a further, separate request.
_JOINERS = re.compile(
    r"\s*(?:[,;]\s*)?\b(?:and also|and additionally|plus also|also,)\s+"
    r"|\s*[.;!?]\s+(?:also|additionally|and|plus|besides|separately|another thing)[,:]?\s+"
    r"|\s*[，,;；。]?\s*(?:另外|还有|以及|此外|同时还|顺便)[，,:：]?\s*",
    re.IGNORECASE,
)
#: Sentence ends (a new sentence may be a new request).
_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[A-Z])|(?<=[。！？；])\s*")
_CJK = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[A-Za-z0-9]+")
#: Pieces at most; a longer list is a paste, not a set of requests.
MAX_PARTS = 4
#: A piece needs this many words (or CJK characters) to be a request of its own.
MIN_WORDS = 3
MIN_CJK = 4
#: Messages longer than this (pastes, logs, stack traces) are never split.
MAX_CHARS = 600


def split_requests(text: str) -> list[str]:
    """The request-sized pieces of `text`, in order; `[]` when there is only one."""
    text = text.strip()
    if len(text) > MAX_CHARS or "\n\n" in text or "```" in text:
        return []
    pieces: list[str] = []
    for chunk in _JOINERS.split(text):
        pieces.extend(s for s in _SENTENCES.split(chunk) if s)
    parts = [p.strip(" ,，;；.。") for p in pieces]
    parts = [p for p in parts if _big_enough(p)]
    if len(parts) < 2 or len(parts) > MAX_PARTS:
        return []
    return parts


def _big_enough(piece: str) -> bool:
    """Long enough to hold a request of its own (not "thanks" or a stray clause)."""
    cjk = len(_CJK.findall(piece))
    if cjk:
        return cjk + len(_WORD.findall(piece)) >= MIN_CJK
    return len(_WORD.findall(piece)) >= MIN_WORDS
