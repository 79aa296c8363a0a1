"""Ticket identifiers: the local format and external ones, found in free text.

This is the local fallback; when a knowledge base is open, its ID patterns
(`KnowledgeSkill.classify_id`) are asked first, and the brain's entity extractor usually
supplies `entities["ticket_id"]` already.
"""

from __future__ import annotations

import re

from core.cues import cues

#: Kind of request -> prefix of locally created ids ("INC-000042").
PREFIXES: dict[str, str] = {
    "incident": "INC",
    "access": "REQ",
    "change": "CHG",
    "equipment": "EQ",
    "ticket": "TKT",
}
#: Record kinds an export may name, by the id kinds the knowledge base documents
#: (`knowledge/sample/glossary/id_patterns.yaml`) and their common spellings -> the kind stored.
KIND_ALIASES: dict[str, str] = {
    "settlement_work_order": "ticket",
    "work_order": "ticket",
    "workorder": "ticket",
    "wo": "ticket",
    "chat_ticket_ref": "ticket",
    "service_request": "ticket",
    "sr": "ticket",
    "incident_ticket": "incident",
    "inc": "incident",
    "request_ticket": "access",
    "request": "access",
    "access_request": "access",
    "req": "access",
    "change_request": "change",
    "chg": "change",
    "rfc": "change",
}
#: External prefixes whose records are stored under a local kind.
_PREFIX_KINDS = {
    "RITM": "access",
    "SR": "ticket",
    "WO": "ticket",
    "TASK": "ticket",
    "PRB": "incident",
}

#: Prefixes of ITSM records written in chat (ours and common external ones).
_TEXT_PREFIXES = "INC|REQ|SR|CHG|EQ|RITM|TASK|PRB|TKT|WO"
#: The words a ticket number may follow, in each language, and the marks trimmed from an id
#: (`ids.cues.yaml` beside it; `core.cues`).
_CUES = cues(__name__)
_ID_TRIM = _CUES.text("id_trim")

#: A prefixed id ("REQ-000123", "INC0012345"), or an external number (e.g. the 19-digit
#: settlement work order 2025060300011279027, or a chat reference like #10086).
TICKET_ID_PATTERN = re.compile(r"^(?:[A-Za-z]{2,5}[-_]?\d{3,12}|\d{3,20})$")
_IN_TEXT = re.compile(
    rf"(?<![A-Za-z0-9])(?P<prefixed>(?:{_TEXT_PREFIXES})[-_]?\d{{3,12}})(?![A-Za-z0-9])"
    r"|(?<![\d.])(?P<order>\d{19})(?![\d.])"
    r"|(?<![\w&])#(?P<ref>\d{3,12})(?!\d)"
    r"|" + _CUES.regex("ticket_words") + r"(?P<worded>\d{4,20})(?!\d)",
    re.IGNORECASE,
)
_OTHER_PREFIXED = re.compile(r"(?<![\w-])#?(?P<id>[A-Z]{2,5}-\d{3,12})(?![\w-])")


def normalize_ticket_id(token: str) -> str:
    """Canonical form: no leading '#', surrounding space or punctuation; prefix upper-cased."""
    return token.strip().strip(_ID_TRIM).upper()


def is_ticket_id(token: str) -> bool:
    """Does the token look like a ticket id (local or external format)?"""
    return bool(TICKET_ID_PATTERN.match(normalize_ticket_id(token)))


def find_ticket_ids(text: str, *, other_prefixes: bool = True) -> list[str]:
    """Distinct ticket ids in the text, in order of appearance.

    Known prefixes, 19-digit work orders, `#123` references and numbers after "ticket" (or its
    Chinese words) count; another upper-case `ABC-123` counts only when nothing else was found
    (lower-case names such as `db-01` are hosts, not tickets). `other_prefixes=False` keeps only the
    known formats (an `LT-20977` asset tag is then no ticket).
    """
    found = [
        normalize_ticket_id(next(group for group in match.groups() if group))
        for match in _IN_TEXT.finditer(text)
    ]
    if not found and other_prefixes:
        found = [normalize_ticket_id(m["id"]) for m in _OTHER_PREFIXED.finditer(text)]
    return list(dict.fromkeys(found))


def record_kind(kind: str | None, ticket_id: str) -> str:
    """The stored kind of an imported record: its kind (a documented id kind such as
    "settlement_work_order" or "change_request" counts as the kind it names), else the kind
    its id's prefix says ("CHG-4411" -> change; a bare number is a ticket)."""
    named = (kind or "").strip().lower().replace("-", "_").replace(" ", "_")
    if named in PREFIXES:
        return named
    if named in KIND_ALIASES:
        return KIND_ALIASES[named]
    if named:
        return named  # unknown: the store refuses it, naming the kinds it knows
    head = re.match(r"[A-Z]+", normalize_ticket_id(ticket_id))
    prefix = head.group(0) if head else ""
    by_prefix = {known: kind for kind, known in PREFIXES.items()}
    return by_prefix.get(prefix) or _PREFIX_KINDS.get(prefix, "ticket")
