"""The part of an e-mail its sender wrote this time: quoted replies, forwarded headers, the
signature and the greeting / sign-off lines taken away (English and Chinese), so a ticket
routes on its request and not on the thread it drags along or on "kind regards".

Only structure is cut (a reply header and everything under it, `>` lines, a `-- ` signature,
a greeting or sign-off on a line of its own), so a one-line chat message comes back as it was.
When cutting would leave nothing, the text is returned unchanged.
"""

from __future__ import annotations

import re

from core.cues import cues

__all__ = ["email_body"]

#: The lines of an e-mail's history, signature and courtesy (`email.cues.yaml`; `core.cues`).
_CUES = cues(__name__)
#: A line that starts the quoted history: everything from it on is someone else's text.
_HISTORY = re.compile(rf"^\s*(?:{_CUES.regex('history')})", re.IGNORECASE)
#: Where a signature starts (RFC 3676's "-- ", "sent from my ...").
_SIGNATURE = re.compile(rf"^(?:{_CUES.regex('signature')})$", re.IGNORECASE)
#: A line that is only a greeting or a sign-off (with a name after it at most).
_COURTESY = re.compile(rf"^\s*(?:{_CUES.regex('courtesy')})\s*$", re.IGNORECASE)


def email_body(text: str) -> str:
    """`text` without its quoted history, signature and courtesy lines (see the module)."""
    lines = text.splitlines()
    if len(lines) < 2 and not _HISTORY.match(text):
        return text
    kept: list[str] = []
    for line in lines:
        if _HISTORY.match(line) and kept:
            break
        if _SIGNATURE.match(line.strip()) and kept:
            break
        if line.lstrip().startswith(">"):
            continue
        kept.append(line)
    while kept and (not kept[0].strip() or _COURTESY.match(kept[0])):
        kept.pop(0)
    for back in range(1, min(4, len(kept)) + 1):  # a sign-off, then a name or a title
        tail = kept[-back:]
        if _COURTESY.match(tail[0]) and all(len(t.split()) <= 4 for t in tail[1:]):
            del kept[-back:]
            break
    while kept and (not kept[-1].strip() or _COURTESY.match(kept[-1])):
        kept.pop()
    body = "\n".join(kept).strip()
    return body or text
