"""`access`: file an access request (permission, account, password, install, licence)."""

from __future__ import annotations

import re
from typing import Any

from controllers import slots
from controllers.base import ControllerContext, ControllerResult, DryRunResult
from controllers.builtin.base import BuiltinController
from controllers.requests import file_with_guidance, known_parameters, missing_dry_run
from core.cues import cues
from core.lazy import LazyPattern

#: The module's cue words and patterns (`access.cues.yaml` beside it; `core.cues`).
_CUES = cues(__name__)
#: (request type, cue) checked in order; the first match wins, "permission" otherwise.
REQUEST_TYPES: tuple[tuple[str, LazyPattern], ...] = tuple(
    (name, LazyPattern(_CUES.regex(name), re.I | re.ASCII if name == "install" else re.I))
    for name in (
        "disable",
        "unlock",
        "password_reset",
        "mfa",
        "install",
        "licence",
        "new_account",
    )
)
#: Systems commonly named in requests; matched case-insensitively as whole words.
KNOWN_SYSTEMS: tuple[str, ...] = _CUES.words("known_systems")
#: Chinese names of common systems, matched as substrings (no word boundaries in Chinese).
KNOWN_SYSTEMS_ZH: tuple[str, ...] = _CUES.words("known_systems_zh")
_SYSTEM_ZH_PHRASE = LazyPattern(_CUES.regex("system_zh_phrase"))
_ARTICLE = LazyPattern(r"^(?:the|our|a|an|my|your|their)\s+", re.I)
_SYSTEM_WORDS = LazyPattern(
    r"(?<![\w-])(" + "|".join(re.escape(s) for s in KNOWN_SYSTEMS) + r")(?![\w-])", re.I
)
#: The same names written against Chinese characters ("Confluence" then the Chinese for
#: "permission", with no space), where `\w` sees no boundary: read only when nothing else names the
#: system.
_SYSTEM_WORDS_IN_CHINESE = LazyPattern(
    r"(?<![A-Za-z0-9_-])(" + "|".join(re.escape(s) for s in KNOWN_SYSTEMS) + r")(?![A-Za-z0-9_-])",
    re.I,
)
_SYSTEM_PHRASES = (
    # a share path: \\fs01\settlement\reports
    LazyPattern(_CUES.regex("share_path")),
    # "the fund admin portal", "the settlement-ops mail group", "a Bloomberg terminal"
    LazyPattern(
        r"\b(?:the|our|a|an|to|for)\s+(?P<system>(?:[\w.-]+\s+){0,3}?(?:portal|system|app|"
        r"application|terminal|share|mail ?group|mailing list|distribution list|group|channel|"
        r"mailbox|database|dashboards?|repo(?:sitory)?|drive|folder|bucket|cluster|server|tool))\b",
        re.I,
    ),
    # "a Lucidchart licence", "Visual Studio license"
    LazyPattern(_CUES.regex("licensed_system")),
    LazyPattern(
        r"\b(?:access|permissions?|role|rights|licen[cs]e|account)\s+(?:to|on|for|in)\s+"
        r"(?:the\s+|our\s+)?(?P<system>[\w.-]+(?:\s+(?:share|database|db|project|repo|"
        r"dashboards?|system|drive|folder|bucket|cluster))?)",
        re.I,
    ),
    LazyPattern(r"\binstall\s+(?P<system>[A-Za-z][\w.+-]*)", re.I),
    LazyPattern(_CUES.regex("install_zh")),
    LazyPattern(_CUES.regex("access_zh")),
)
_ROLES: tuple[tuple[str, LazyPattern], ...] = tuple(
    (name, LazyPattern(_CUES.regex(name), re.I if name == "admin" else re.I | re.ASCII))
    for name in ("admin", "write", "read-only", "developer")
)
#: Words a system pattern can catch that name no system (asking to *open* a permission names
#: none).
_GENERIC = set(_CUES.words("generic"))
#: Requests made for another person's account: a new joiner's, a leaver's. Without an account
#: named, the request has none (the desk asks) rather than the asker's.
FOR_SOMEONE_ELSE = frozenset({"new_account", "disable"})
#: A request written for someone else ("give the new contractor a seat license", "for my
#: colleague", "she starts Monday"): without an account named, it has none (the desk asks
#: whose) rather than the asker's.
_FOR_ANOTHER = LazyPattern(_CUES.regex("for_another"), re.I)
#: For unlock / password reset without a named system, the usual one is the directory account.
DEFAULT_DIRECTORY_SYSTEM = "domain account (AD)"
#: An account named in the text ("account jdoe42 is locked", or after a Chinese word for the
#: account): the request is for it, not for the asker. Only a value shaped like an id counts (a
#: digit, a dot, an underscore or a hyphen in it, or Latin letters not all capitals after a
#: Chinese name for it): "my account is locked" names a state, "domain account AD" (in
#: Chinese) a system, not an account.
_NAMED_ACCOUNT = LazyPattern(_CUES.regex("named_account"), re.I)


class AccessController(BuiltinController):
    """Files access requests with system, role and account completed from the message."""

    name = "access"
    files_requests = True

    def dry_run(self, context: ControllerContext) -> DryRunResult:
        """Which required parameters are still missing? Nothing is created."""
        fields = self.fields(context)
        return missing_dry_run(self.required_entities, fields) or DryRunResult(
            ok=True, reason=f"{fields['request_type']} on {fields['system']}"
        )

    def handle(self, context: ControllerContext) -> ControllerResult:
        """File the access request; ask for what is still missing."""
        fields = self.fields(context)
        query = f"{fields['request_type'].replace('_', ' ')} {fields.get('system') or ''} approval"
        return file_with_guidance(
            context,
            kind=self.name,
            label="access request",
            fields=fields,
            required=self.required_entities,
            query=query,
        )

    def fields(self, context: ControllerContext) -> dict[str, Any]:
        """Request type, system, role and account from parameters, entities and the text."""
        known = known_parameters(context)
        text = self.text_of(context)
        request_type = known.get("request_type") or _first(REQUEST_TYPES, text) or "permission"
        system = known.get("system") or _system(text)
        assumed = False
        if not system and request_type in ("unlock", "password_reset", "disable", "new_account"):
            system, assumed = DEFAULT_DIRECTORY_SYSTEM, True
        if not system and request_type == "mfa":
            system = "MFA"
        account = known.get("account") or known.get("email") or named_account(text)
        if not account and request_type not in FOR_SOMEONE_ELSE and not _FOR_ANOTHER.search(text):
            account = context.user
        fields: dict[str, Any] = {
            "request_type": request_type,
            "system": system,
            "role": known.get("role") or _first(_ROLES, text),
            "account": account or None,
        }
        if assumed:
            fields["system_assumed"] = True
        return fields


def _first(table: tuple[tuple[str, LazyPattern], ...], text: str) -> str | None:
    return next((name for name, pattern in table if pattern.search(text)), None)


def _system(text: str) -> str | None:
    match = _SYSTEM_WORDS.search(text)
    if match:
        return _known(match.group(1))
    phrase = _SYSTEM_ZH_PHRASE.search(text)
    named = slots.named(phrase["system"], _GENERIC) if phrase else None
    if named:
        return named
    zh = next((s for s in KNOWN_SYSTEMS_ZH if s in text), None)
    if zh:
        return zh
    for pattern in _SYSTEM_PHRASES:
        found = pattern.search(text)
        named = slots.named(_ARTICLE.sub("", found["system"].strip()), _GENERIC) if found else None
        if named:
            return named
    against = _SYSTEM_WORDS_IN_CHINESE.search(text)
    return _known(against.group(1)) if against else None


def _known(word: str) -> str:
    """A known system's name as the list spells it."""
    return next((s for s in KNOWN_SYSTEMS if s.lower() == word.lower()), word)


def named_account(text: str) -> str | None:
    """The account the text names for the request (`_NAMED_ACCOUNT`), if any."""
    for match in _NAMED_ACCOUNT.finditer(text):
        value = match["account"]
        if re.search(r"[\d._-]", value) or not (match["en"] or value.isupper()):
            return value  # "domain account AD is locked" names the system, not an account
    return None
