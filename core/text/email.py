"""The part of an e-mail its sender wrote this time: quoted replies, forwarded headers, the
signature and the greeting / sign-off lines taken away (English and Chinese), so a ticket
routes on its request and not on the thread it drags along or on "kind regards".

Only structure is cut (a reply header and everything under it, `>` lines, a `-- ` signature,
a greeting or sign-off on a line of its own), so a one-line chat message comes back as it was.
When cutting would leave nothing, the text is returned unchanged.
"""

from __future__ import annotations

import re

__all__ = ["email_body"]

#: A line that starts the quoted history: everything from it on is someone else's text.
_HISTORY = re.compile(
    r"^\s*(?:-{2,}\s*(?:original message|forwarded message)\s*-{2,}"
    r"|on .{4,200}\bwrote:\s*$"
    r"|from:\s.+|sent:\s.+|发件人[:：].*|发送时间[:：].*|-{2,}\s*原始邮件\s*-{2,}"
    r"|(?:begin )?forwarded message:?)",
    re.IGNORECASE,
)
#: Where a signature starts (RFC 3676's "-- ", "sent from my ...").
_SIGNATURE = re.compile(r"^(?:--\s*|_{3,}\s*|sent from my \w+.*|发自我的.*)$", re.IGNORECASE)
#: A line that is only a greeting or a sign-off (with a name after it at most).
_COURTESY = re.compile(
    r"^\s*(?:(?:hi|hello|hey|dear|good (?:morning|afternoon|evening))\b[\w\s,.!]{0,30}"
    r"|(?:kind |best |warm )?regards\b.*|(?:many )?thanks?(?: you)?(?: (?:in advance|a lot))?[,.!]*"
    r"|cheers[,.!]*|best[,.!]*|sincerely[,.!]*"
    r"|(?:您好|你好|大家好|各位好)[，,！!。]*|(?:谢谢|多谢|感谢)[您你]?[！!。，,]*|此致.*|敬礼.*)\s*$",
    re.IGNORECASE,
)


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
