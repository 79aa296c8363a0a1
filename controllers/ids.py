"""Ticket identifiers: the local format and the external numeric ones, found in free text.

This is the local fallback; when a knowledge base is open, its ID patterns
(`KnowledgeSkill.classify_id`) are asked first.
"""

from __future__ import annotations

import re

#: Kind of request -> prefix of locally created ids ("INC-000042").
PREFIXES: dict[str, str] = {
    "incident": "INC",
    "access": "REQ",
    "change": "CHG",
    "ticket": "TKT",
}
KINDS_BY_PREFIX: dict[str, str] = {prefix: kind for kind, prefix in PREFIXES.items()}

#: A local id ("REQ-000123"), or an external work-order number (5-20 digits,
#: e.g. 2025060300011279027 or #10086).
_LOCAL = r"[A-Za-z]{2,5}-\d{3,10}"
_EXTERNAL = r"\d{5,20}"
TICKET_ID_PATTERN = re.compile(rf"^(?:{_LOCAL}|{_EXTERNAL})$")
_IN_TEXT = re.compile(
    rf"(?<![\w-])#?(?P<id>(?:{'|'.join(PREFIXES.values())})-\d{{3,10}}|{_EXTERNAL})(?![\w-])",
    re.IGNORECASE,
)
_LOCAL_IN_TEXT = re.compile(rf"(?<![\w-])#?(?P<id>{_LOCAL})(?![\w-])")


def normalize_ticket_id(token: str) -> str:
    """Canonical form: no leading '#', surrounding space or punctuation; prefix upper-cased."""
    return token.strip().strip("#:,.;，。；").upper()


def is_ticket_id(token: str) -> bool:
    """Does the token look like a ticket id (local or external format)?"""
    return bool(TICKET_ID_PATTERN.match(normalize_ticket_id(token)))


def find_ticket_ids(text: str) -> list[str]:
    """Distinct ticket ids in the text, in order of appearance.

    Local ids with our prefixes and long numbers always count; other `ABC-123` tokens count
    only when the text has no id of ours (they may be host names such as `db-01` otherwise).
    """
    found = [normalize_ticket_id(m.group("id")) for m in _IN_TEXT.finditer(text)]
    if not found:
        found = [
            normalize_ticket_id(m.group("id"))
            for m in _LOCAL_IN_TEXT.finditer(text)
            if m.group("id")[0].isupper() or text[max(m.start() - 1, 0)] == "#"
        ]
    return list(dict.fromkeys(found))
