"""Entity extraction: the concrete clues a message carries (kept beside the intent).

Keys: ticket_id, error_code, asset_tag, host, service, ip, url, email (only non-empty ones are
present). Values are distinct strings in order of appearance. With a `KnowledgeSkill`, its ID
patterns (`find_ids`) add identifiers this module does not know, under the kind the knowledge
base gives them (the design: "unfamiliar ID format -> business domain via the knowledge base").
"""

from __future__ import annotations

import ipaddress
import logging
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

from core.cues import cues
from core.records import Entities
from core.redact import EMAIL_PATTERN

if TYPE_CHECKING:
    from knowledge.types import IdMatch

__all__ = ["ENTITY_KINDS", "IdFinder", "extract_entities"]

log = logging.getLogger(__name__)

ENTITY_KINDS = ("ticket_id", "error_code", "asset_tag", "host", "service", "ip", "url", "email")


class IdFinder(Protocol):
    """The part of `knowledge.skill.KnowledgeSkill` used here."""

    def find_ids(self, text: str) -> list[IdMatch]: ...


#: The Chinese words before an identifier and the marks around one (`entities.cues.yaml`).
_CUES = cues(__name__)
_URL = re.compile(_CUES.regex("url"), re.IGNORECASE)


_TICKET_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(r"(?<![\d.])(\d{19})(?![\d.])"),
    re.compile(r"(?<![\w&])#(\d{3,12})(?!\d)"),
    re.compile(
        r"(?<![A-Za-z0-9])((?:INC|REQ|SR|CHG|EQ|RITM|TASK|PRB|TKT|WO)[-_]?\d{3,12})(?![A-Za-z0-9])",
        re.IGNORECASE,
    ),
    re.compile(_CUES.regex("ticket_zh")),
    re.compile(
        r"(?<![a-z])(?:ticket|work order|request)\s*(?:no\.?|number|id)?\s*[:#]?\s*"
        r"(\d{4,20})(?!\d)",
        re.IGNORECASE,
    ),
)

_ERROR_PATTERNS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (
        re.compile(
            r"\b(?:HTTP(?:/\d(?:\.\d)?)?|status(?: code)?)\s*[:=]?\s*([1-5]\d\d)\b", re.I | re.ASCII
        ),
        lambda m: f"HTTP {m.group(1)}",
    ),
    (
        re.compile(
            r"\b([45]\d\d)\s+(?:error|internal server error|bad gateway|not found|"
            r"service unavailable|gateway timeout|forbidden|unauthorized)\b",
            re.I | re.ASCII,
        ),
        lambda m: f"HTTP {m.group(1)}",
    ),
    (
        re.compile(r"\b((?:ORA|PLS|TNS|IMP|EXP|RMAN|ERR|MSB|CS|SQL)-\d{3,6})\b", re.I | re.ASCII),
        lambda m: m.group(1).upper(),
    ),
    (re.compile(r"\b(AADSTS\d{5,6})\b", re.I | re.ASCII), lambda m: m.group(1).upper()),
    (
        re.compile(r"\b([245]\d\d)[ -]([245]\.\d{1,3}\.\d{1,3})\b"),
        lambda m: f"SMTP {m.group(1)} {m.group(2)}",
    ),
    (re.compile(r"\b(0x[0-9A-Fa-f]{4,8})\b", re.ASCII), lambda m: m.group(1).lower()),
    (
        re.compile(r"\bSQLSTATE\s*\[?([0-9A-Z]{5})\]?", re.I | re.ASCII),
        lambda m: f"SQLSTATE {m.group(1)}",
    ),
    (
        re.compile(
            r"\b(?:exit code|exit status|errno|return code)\s*[:=]?\s*(-?\d{1,5})\b",
            re.I | re.ASCII,
        ),
        lambda m: m.group(1),
    ),
    (
        re.compile(
            r"\b(?:error|err|code|error code)\s*[:#=]?\s*(\d{2,6})(?!\.?\d)", re.I | re.ASCII
        ),
        lambda m: m.group(1),
    ),
    (re.compile(_CUES.regex("error_zh")), lambda m: m.group(1)),
)

_ASSET_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"(?<![A-Za-z0-9-])((?:LT|PC|NB|DT|SRV|MON|PRN|AST|TAG|MAC|WS)-?\d{4,8})(?![A-Za-z0-9])"
    ),
    re.compile(_CUES.regex("asset_zh")),
    re.compile(r"\basset(?: tag| id| number)?\s*[:#]?\s*([A-Za-z0-9][A-Za-z0-9-]{3,})", re.I),
)

_HOST_LABEL = re.compile(
    r"\b(?:host|hostname|instance|server|node|machine)\s*[=:]\s*\"?([A-Za-z0-9][A-Za-z0-9.-]*)",
    re.IGNORECASE,
)
#: ASCII word boundaries: "web-03" written against Chinese characters names web-03 (a CJK
#: character is no part of a name).
_HOST_NAME = re.compile(
    r"(?<![\w.@/-])([a-z][a-z0-9]{1,20}(?:-[a-z0-9]+){1,4})(?![\w@-])", re.ASCII
)
#: Host names under the usual public and private suffixes, and under `example` (RFC 2606), the
#: suffix of the sample company's own domain (corp.example) and of most documentation.
_FQDN = re.compile(
    r"(?<![\w.@/-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+"
    r"(?:com|net|org|io|cn|local|internal|corp|lan|intra|cloud|dev|example))(?![\w.-])",
    re.IGNORECASE,
)
_NOT_HOSTS = frozenset(
    {
        "utf-8",
        "utf-16",
        "iso-8859-1",
        "sha-1",
        "sha-256",
        "sha-512",
        "covid-19",
        "gpt-4",
        "win-10",
        "windows-10",
        "windows-11",
        "ipv-4",
        "ipv-6",
        "x-86",
        "t-1",
        "mp-3",
        "e-2",
    }
)

_SERVICE_LABEL = re.compile(r"\b(?:service|svc|app|job)\s*[=:]\s*\"?([A-Za-z0-9][\w.-]*)")
_SERVICE_NAME = re.compile(
    r"(?<![\w-])([a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?:service|svc|api))(?![\w-])", re.ASCII
)
#: A Latin name before the Chinese word for "service" is a service; before the word for
#: "server" it is a host, not a service.
_SERVICE_CN = re.compile(_CUES.regex("service_zh"))
_KNOWN_SERVICES = re.compile(
    r"(?<![\w-])(nginx|redis|mysql|postgres(?:ql)?|kafka|rabbitmq|elasticsearch|kibana|grafana|"
    r"prometheus|alertmanager|kubernetes|k8s|jenkins|gitlab|github|jira|confluence|outlook|"
    r"sharepoint|zoom|okta|active directory|ldap|sap|oracle|mongodb|zookeeper|"
    r"airflow|hadoop|tomcat|docker|sentry)(?![\w-])",
    re.IGNORECASE | re.ASCII,  # "grafana" written against Chinese names grafana
)

#: Marks trimmed from a value's ends (full-width too).
_VALUE_TRIM = _CUES.text("value_trim")
_IPV4 = re.compile(r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?(?![\d.])")
_IPV6 = re.compile(r"(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?![\w:])")


class _Collector:
    """De-duplicated values per kind, ordered by where they first appear in the text."""

    def __init__(self) -> None:
        self.values: dict[str, dict[str, int]] = {}

    def add(self, kind: str, value: str, position: int) -> None:
        value = value.strip().strip(_VALUE_TRIM)
        if value:
            seen = self.values.setdefault(kind, {})
            seen[value] = min(position, seen.get(value, position))

    def add_matches(
        self, kind: str, matches: Iterable[re.Match[str]], render: Callable[[re.Match[str]], str]
    ) -> None:
        for match in matches:
            self.add(kind, render(match), match.start())

    def has(self, value: str) -> bool:
        return any(value in seen for seen in self.values.values())

    def result(self) -> Entities:
        return {
            kind: sorted(seen, key=lambda value: seen[value])
            for kind, seen in self.values.items()
            if seen
        }


def _mask(text: str, pattern: re.Pattern[str]) -> str:
    """Blank out matches (same length, so later patterns cannot see inside them)."""
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def _whole(match: re.Match[str]) -> str:
    return match.group(0)


def _ticket(match: re.Match[str]) -> str:
    token = match.group(1)
    return token.upper() if token[0].isalpha() else token


def _valid_ip(candidate: str) -> str | None:
    if candidate.count(":") >= 2 and sum(char.isalnum() for char in candidate) < 2:
        return None
    address = candidate.rsplit(":", 1)[0] if candidate.count(":") == 1 else candidate
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return None
    return address


def _snake(kind: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", kind.lower()).strip("_") or "id"


def extract_entities(text: str, knowledge: IdFinder | None = None) -> Entities:
    """Ticket ids, error codes, asset tags, hosts, services, IPs, URLs and emails in ``text``."""
    if not text or not text.strip():
        return {}
    found = _Collector()
    found.add_matches("url", _URL.finditer(text), lambda m: m.group(0).rstrip(".,;:!?"))
    rest = _mask(text, _URL)
    found.add_matches("email", EMAIL_PATTERN.finditer(rest), _whole)
    rest = _mask(rest, EMAIL_PATTERN)

    for pattern in _TICKET_PATTERNS:
        found.add_matches("ticket_id", pattern.finditer(rest), _ticket)
    rest = _mask(rest, _TICKET_PATTERNS[2])
    for pattern in _ASSET_PATTERNS:
        found.add_matches("asset_tag", pattern.finditer(rest), lambda m: m.group(1).upper())
    rest = _mask(rest, _ASSET_PATTERNS[0])

    for pattern, render in _ERROR_PATTERNS:
        for match in pattern.finditer(rest):
            code = render(match)
            if not found.has(code):
                found.add("error_code", code, match.start())
    for pattern, _ in _ERROR_PATTERNS:
        rest = _mask(rest, pattern)

    for pattern in (_IPV4, _IPV6):
        for match in pattern.finditer(rest):
            address = _valid_ip(match.group(0))
            if address:
                found.add("ip", address, match.start())
        rest = _mask(rest, pattern)

    found.add_matches("host", _HOST_LABEL.finditer(rest), lambda m: m.group(1).split(":")[0])
    found.add_matches("host", _FQDN.finditer(rest), lambda m: m.group(1).lower())
    rest = _mask(rest, _FQDN)
    for match in _HOST_NAME.finditer(rest):
        name = match.group(1)
        if name not in _NOT_HOSTS and re.search(r"\d", name.rsplit("-", 1)[-1]):
            found.add("host", name, match.start())

    found.add_matches("service", _SERVICE_LABEL.finditer(rest), lambda m: m.group(1))
    for pattern in (_SERVICE_NAME, _SERVICE_CN, _KNOWN_SERVICES):
        found.add_matches("service", pattern.finditer(rest), lambda m: m.group(1).lower())

    if knowledge is not None:
        _add_knowledge_ids(found, text, knowledge)
    return found.result()


def _add_knowledge_ids(found: _Collector, text: str, knowledge: IdFinder) -> None:
    try:
        matches = knowledge.find_ids(text)
    except Exception:  # the KB is an aid here: entities still come from the patterns above
        log.warning("knowledge find_ids failed; entities from patterns only", exc_info=True)
        return
    for match in matches:
        position = text.find(match.token)
        position = position if position >= 0 else len(text)
        found.add(_snake(match.kind), match.token, position)
        # An id format only the knowledge base knows, in the ticket domain, is a ticket id too.
        if match.domain == "ticket":
            found.add("ticket_id", match.token.lstrip("#"), position)
