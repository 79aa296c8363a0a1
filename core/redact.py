"""Remove personal data and secrets from text before it is stored or leaves the process.

The one redactor of the project: applied before persistence (the decision log, memory lessons,
tickets, on-call alerts), before the LLM and before any webhook. The clean text lives only in
memory for the one decision being made; what is written or sent is redacted.

Replaced with placeholders: emails ``[EMAIL]``, phone numbers ``[PHONE]`` (mobile, landline
such as 020-12345678, international, North American with or without separators, and any number
after a word such as "phone", in either language), Chinese resident ID numbers ``[ID_NUMBER]``, US
social security numbers ``[SSN]``, UK National Insurance numbers ``[NI_NUMBER]``, payment card
numbers ``[CARD]``, IBANs ``[IBAN]``, public IP addresses ``[IP]``, numbers the words before
them name as personal (`core.personal_ids`: passports, bank accounts, dates of birth, PINs) and
secrets ``[SECRET]``:
Slack/Anthropic/AWS/GitHub/bearer tokens, and passwords however they are written ("password:
x", "pw=x", "password Hunter2!", "Hunter2! is my password", "user jdoe / pass x",
"my password is sunshine", "passphrase is correct horse battery staple", and the same in
Chinese, where the value may follow the key with no space at all; a plain word only when
`core.password_words` finds it is no word about the password, so "my password is expired" and "my
password doesn't work" stay).

A password written without ":" or "=" is only taken when it looks like one (a digit or a
symbol, at least four characters, not a ticket id), so "password reset for REQ-000123" and
"what is the password?" stay readable. A password with no key word at all ("the old one was
Hunter2!", or "just changed it to Tr0ub4dor&3x!" in Chinese) is taken when the token has lower and
upper case letters, a digit and a symbol people put in passwords (``!#$%&*+?@^~``; not the ``-._:``
of hosts and versions), at least eight characters; next to words about signing in ("log in",
"account", or their Chinese words) also one without the symbol whose case and digits keep switching
("qW7rT2zX9"). URLs, paths, Slack markup (``<@U024BE7LH>``), hosts such as ``Fin-WS-042``, versions,
hex hashes, error codes (``AADSTS50126``) and words such as "iPhone15" never qualify. The labelled
corpus in tests/fixtures/redaction_corpus.jsonl measures recall and false positives
(benchmarks/redaction.py).

Kept on purpose, because routing and diagnosis need them and they identify no person: ticket ids
(19-digit numbers such as 2025060300011279027, ``#10086``, ``INC-123``), error codes, host names
and private/loopback IP addresses. A bare run of digits is only treated as a card number when it
is 15 or 16 digits long, starts like a card network and passes the Luhn check, or when it is
written in card-style groups (``4111 1111 1111 1111``) and passes Luhn; 19-digit ticket ids are
never touched.
"""

from __future__ import annotations

import datetime as _dt
import ipaddress
import re
from collections.abc import Mapping
from dataclasses import replace
from itertools import pairwise
from typing import Any

from core.cues import cues
from core.limits import MAX_MESSAGE_CHARS
from core.password_words import (
    PASSPHRASE,
    describes_password,
    passphrase_value,
    phrase_ends,
    phrase_goes_on,
)
from core.personal_ids import replace_personal_ids
from core.records import Message
from core.secret_formats import is_placeholder, replace_secret_formats

__all__ = ["EMAIL_PATTERN", "redact", "redact_message", "redact_strings"]

#: An email address (shared with entity extraction). A match starts only where a run of
#: address characters starts: tried from inside a long run without "@", the pattern would scan
#: the rest of the run again from every position (a 100 KB word took 20 s to redact).
EMAIL_PATTERN = re.compile(
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"
)

#: The words and marks around a secret, in each language (`redact.cues.yaml`; `core.cues`).
_CUES = cues(__name__)
#: A value: up to a space or a (full-width) punctuation mark.
_VALUE = _CUES.regex("value")
_SECRET_KEY = f"(?:{_CUES.regex('secret_key')})"
#: The keys after which a plain word may be the password ("my password is sunshine").
_PASSWORD_FAMILY = re.compile("(?i)" + _CUES.regex("password_family"))
#: Adverbs between "is" and the password ("my password is now sunshine").
_ADVERB = r"(?:now|still|currently|just|actually|simply|really|also|probably|literally)\s+"
#: A key, then ":" / "=" (any value), "is" / "was" / "will be" (or a Chinese key's words for
#: them), only spaces, or nothing after a Chinese key; then (maybe after an adverb) a
#: password-like value or a password's word.
_SECRET_ASSIGNMENT = re.compile(
    rf"(?i)({_SECRET_KEY}({_CUES.regex('separator')}))"
    rf"((?:{_ADVERB})?)(\"[^\"]*\"|'[^']*'|{_VALUE})"
)
#: The separators after which any value is a secret, and the quotes that may close a value.
_ASSIGNMENT_MARKS = _CUES.text("assignment_marks")
_CLOSING_QUOTES = _CUES.text("closing_quotes")
#: "changed my password to sunshine", "reset the VPN password to abc123".
_PASSWORD_SET_TO = re.compile(
    r"(?i)((?<![A-Za-z])(?:set|change|changed|reset|update|updated)\s+"
    r"(?:(?:my|the|our|your|his|her|its|a)\s+)?(?:[A-Za-z-]+\s+)?"
    r"(?:password|passwd|passcode|pwd|pw)\s+to\s+)"
    rf"(\"[^\"]*\"|'[^']*'|{_VALUE})"
)
#: A plain word, with the sentence's mark after it ("sunshine.", "doesn't", "self-service").
_PLAIN_WORD = re.compile(_CUES.regex("plain_word"))
_ASCII_THEN_CJK = re.compile(r"([\x21-\x7e]+)([\u3400-\u9fff\uf900-\ufaff].*)", re.DOTALL)
#: "Hunter2! is my password". The value is at most 128 characters: unbounded, a long run of
#: "(" (each one a place a value may start) was scanned to its end from every position,
#: quadratic in the run's length.
_SECRET_BEFORE_KEY = re.compile("(?i)" + _CUES.regex("secret_before_key"))
#: "login admin / Passw0rd!", "user jdoe / pass x", "svc/B4ckup!".
_CREDENTIAL_PAIR = re.compile("(?i)" + _CUES.regex("credential_pair") + f"({_VALUE})")
_PASSWORD_LIKE = re.compile(r"[0-9!@#$%^&*()_+=\[\]{};:'\"\\|,.<>/?~`-]")
#: Values that are identifiers routing needs, not passwords ("token INC-7", "pin 0x1F").
_ROUTING_ID = re.compile(r"^(?:[A-Z]{2,6}-?\d+|0x[0-9A-Fa-f]+|#\d+|\d{19})$")

#: A run of printable ASCII (a CJK character or a space ends it): a candidate bare password.
_ASCII_TOKEN = re.compile(r"[\x21-\x7e]{8,64}")
#: Symbols people put in passwords; separators of hosts, versions and paths ("-._:") are not.
_STRONG_SYMBOLS = frozenset("!#$%&*+?@^~")
#: Words that say the message is about signing in: then a mixed-case, digit-studded token
#: without a symbol ("qW7rT2zX9") is taken too.
_LOGIN_CONTEXT = re.compile("(?i)" + _CUES.regex("login_context"))
_CN_ID = re.compile(r"(?<![0-9A-Za-z])\d{17}[\dXx](?![0-9A-Za-z])")
_CN_MOBILE = re.compile(
    r"(?<![\dA-Za-z+])(?:\+?86[ -]?)?1[3-9]\d[ -]?\d{4}[ -]?\d{4}(?![\dA-Za-z])"
)
#: A UK mobile number ("07911 123457").
_UK_MOBILE = re.compile(r"(?<![\dA-Za-z+])07\d{3} ?\d{6}(?![\dA-Za-z])")
_INTL_PHONE = re.compile(r"(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}(?!\d)")
_NANP_PHONE = re.compile(
    r"(?<![\dA-Za-z-])(?![48]00\D|8(?:88|77|66|55|44)\D)"
    r"(?:\(\d{3}\)\s?|\d{3}[ .-])\d{3}[ .-]\d{4}(?![\dA-Za-z-])"
)
#: Chinese landlines with an area code: 020-12345678, 0755-8765432, (010) 12345678.
_CN_LANDLINE = re.compile(r"(?<![\w-])(?:0\d{2,3}-|\(0\d{2,3}\)\s?)\d{7,8}(?![\w-])")
#: Any number written right after a word that says it is a phone number.
_CUED_PHONE = re.compile(
    f"(?i)((?:{_CUES.regex('phone_words')})" + r"[^\d+\n]{0,15}?)(\+?\d[\d ().-]{5,18}\d)(?![\d-])"
)
_US_SSN = re.compile(r"(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])")
#: UK National Insurance numbers: two prefix letters HMRC issues (not D, F, I, Q, U, V; no O
#: second; not BG, GB, KN, NK, NT, TN, ZZ), six digits, a suffix A-D, spaced or not; after
#: "national insurance" / "NI number" / "NINO" any two letters (HMRC's own example is QQ).
_UK_NINO = re.compile(
    r"(?<![A-Za-z0-9])(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]"
    r" ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9])"
)
_CUED_NINO = re.compile(
    r"((?i:national\s+insurance|\bNI\s+(?:number|no)|\bNINO)\b[^\n\d]{0,20}?)"
    r"(?<![A-Za-z0-9])[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9])"
)
_CARD_GROUPED = re.compile(
    r"(?<![\d-])(?:\d{4}(?:[ -]\d{4}){2,3}(?:[ -]\d{1,7})?|3[47]\d{2}[ -]\d{6}[ -]\d{5})(?![\d-])"
)
_CARD_PLAIN = re.compile(r"(?<!\d)[3-6]\d{14,15}(?!\d)")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b")
_IPV4 = re.compile(r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])")

_CN_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CN_ID_CHECK = "10X98765432"


def _luhn_ok(digits: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _cn_id_ok(number: str) -> bool:
    """GB 11643 checksum plus a plausible birth date (positions 7-14)."""
    body, check = number[:17], number[17].upper()
    total = sum(int(d) * w for d, w in zip(body, _CN_ID_WEIGHTS, strict=True))
    if _CN_ID_CHECK[total % 11] != check:
        return False
    try:
        birth = _dt.date(int(number[6:10]), int(number[10:12]), int(number[12:14]))
    except ValueError:
        return False
    return _dt.date(1900, 1, 1) <= birth <= _dt.date.today()


def _iban_ok(candidate: str) -> bool:
    compact = candidate.replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return False
    rearranged = compact[4:] + compact[:4]
    try:
        numeric = "".join(str(int(char, 36)) for char in rearranged)
    except ValueError:
        return False
    return int(numeric) % 97 == 1


def _card(match: re.Match[str]) -> str:
    digits = re.sub(r"\D", "", match.group(0))
    return "[CARD]" if 13 <= len(digits) <= 19 and _luhn_ok(digits) else match.group(0)


def _password_like(value: str) -> bool:
    """Four characters or more with a digit or a symbol, and not an identifier."""
    return (
        len(value) >= 4
        and _PASSWORD_LIKE.search(value) is not None
        and not _ROUTING_ID.match(value)
        and not is_placeholder(value)
    )


def _spoken_password(key: str, separator: str, word: str, rest: str) -> bool:
    """Is the plain `word` after a password key the password? After "is" / "was" when it is
    no word about passwords and no description goes on after it ("my password is sunshine",
    not "... is expired" or "... is case sensitive"); after a Chinese key when it is no such word
    ("password is abcdef", not "the password won't reset", in Chinese); never after a bare space in
    English ("my password expired")."""
    if _PASSWORD_FAMILY.fullmatch(key.strip()) is None or len(word) < 3:
        return False
    if describes_password(word):
        return False
    if key.strip()[0].isascii():  # stated ("is", "was", "will be"), not a bare space
        return bool(separator.strip()) and not phrase_goes_on(rest)
    return True


def _secret_value(match: re.Match[str]) -> str:
    """After ":" or "=" any value is a secret; after "is" (in either language) or a space a
    password-like one or a password's plain word (`_spoken_password`), so "password is not working",
    "my password doesn't work" and "what is the password?" stay readable. An ASCII value runs
    up to the Chinese that follows it (a Chinese sentence with the password written inside)."""
    key, separator, adverb, value = match.groups()
    if is_placeholder(value) or _TEMPLATE_VALUE.match(value):
        return match.group(0)
    key += adverb
    tail = ""
    mixed = _ASCII_THEN_CJK.fullmatch(value)
    if mixed is not None:
        value, tail = mixed.group(1), mixed.group(2)
    if any(mark in separator for mark in _ASSIGNMENT_MARKS):
        return f"{key}[SECRET]{tail}"
    quoted = value[len(value.rstrip(_CLOSING_QUOTES)) :]  # "'token expired'": the talk's quote
    plain = _PLAIN_WORD.fullmatch(value[: len(value) - len(quoted)] if quoted else value)
    if plain is None:
        return f"{key}[SECRET]{tail}" if _password_like(value) else match.group(0)
    word, mark = plain.group(1), plain.group(2) + quoted
    rest = mark + tail + match.string[match.end() :]
    key_word = key[: len(key) - len(separator) - len(adverb)]
    if _spoken_password(key_word, separator, word, rest):
        return f"{key}[SECRET]{mark}{tail}"
    return match.group(0)


def _set_to(match: re.Match[str]) -> str:
    """ "changed my password to sunshine": a password-like value, or a plain word that is no
    word about passwords and ends its phrase ("... to sunshine yesterday", not "... to log
    in" or "... to something stronger")."""
    lead, value = match.group(1), match.group(2)
    if is_placeholder(value):
        return match.group(0)
    plain = _PLAIN_WORD.fullmatch(value)
    if plain is None:
        return f"{lead}[SECRET]" if _password_like(value) else match.group(0)
    word, mark = plain.group(1), plain.group(2)
    rest = mark + match.string[match.end() :]
    if len(word) >= 3 and not describes_password(word) and phrase_ends(rest):
        return f"{lead}[SECRET]{mark}"
    return match.group(0)


def _passphrase(match: re.Match[str]) -> str:
    key, value = match.group(1), match.group(2)
    secret = None if is_placeholder(value.strip()) else passphrase_value(key, value)
    return match.group(0) if secret is None else f"{key}[SECRET]{value[len(secret) :]}"


def _secret_before_key(match: re.Match[str]) -> str:
    """ "Hunter2! is my password", and a plain word that is not one of the words people ask
    with ("sunshine is my password", not "what is my password")."""
    value, rest = match.group(1), match.group(2)
    plain = _PLAIN_WORD.fullmatch(value)
    if plain is not None and not plain.group(2):
        taken = len(value) >= 3 and not describes_password(value)
    else:
        taken = _password_like(value)
    return f"[SECRET]{rest}" if taken else match.group(0)


def _credential_pair(match: re.Match[str]) -> str:
    prefix, value = match.group(1), match.group(2)
    return f"{prefix}[SECRET]" if _password_like(value) else match.group(0)


def _class_changes(core: str) -> int:
    """How often consecutive letters and digits switch class (lower / upper / digit)."""
    kinds = ["l" if c.islower() else "u" if c.isupper() else "d" for c in core if c.isalnum()]
    return sum(a != b for a, b in pairwise(kinds))


def _password_shaped(token: str, *, login_context: bool) -> bool:
    """A bare token that only a password looks like: lower and upper case letters, digits and
    a symbol people put in passwords ("Tr0ub4dor&3x!", "Xk#9vLp2q"); next to words about
    signing in, also one without the symbol whose case and digits keep switching
    ("qW7rT2zX9", not "iPhone15"). URLs, paths, Slack markup, placeholders, hosts
    ("Fin-WS-042"), versions, hashes and ids never have all of these."""
    if "://" in token or "/" in token or "\\" in token or token[0] in "<[":
        return False
    letters = [c for c in token if c.isalpha()]
    if not all(c.isascii() for c in letters):
        return False
    lower = any(c.islower() for c in letters)
    upper = any(c.isupper() for c in letters)
    digit = any(c.isdigit() for c in token)
    if not (lower and upper and digit):
        return False
    if any(c in _STRONG_SYMBOLS for c in token):
        return True
    alnum = sum(c.isalnum() for c in token)
    return login_context and 2 * _class_changes(token) >= alnum


def _bare_passwords(text: str) -> str:
    """Replace password-shaped tokens written with no key word before or after them."""
    login_context = _LOGIN_CONTEXT.search(text) is not None

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        core = token.strip(".,;:'\"()[]{}")
        if len(core) < 8 or not _password_shaped(core, login_context=login_context):
            return token
        start = token.index(core)
        return f"{token[:start]}[SECRET]{token[start + len(core) :]}"

    return _ASCII_TOKEN.sub(replace, text)


#: What makes "user@host" a login, not an e-mail address: a command that takes one before it
#: ("ssh deploy@bastion"), a URL's "://" ("https://jmarsh@bitbucket...") or a path after a colon
#: ("git@gitlab.corp.example:infra/terraform.git").
_LOGIN_BEFORE = re.compile(r"(?:\b(?:ssh|scp|sftp|rsync|mosh)\s+(?:-\S+\s+(?:\d+\s+)?)*|://)$")
#: Placeholders of a template, not values: "<YOUR_TOKEN>", "${DB_PASSWORD}", "{{token}}",
#: "******", "(the usual one)".
_TEMPLATE_VALUE = re.compile(r"^(?:<|\$\{|\{\{|\*{3,}|[xX]{4,}$|\()")


def _email(match: re.Match[str]) -> str:
    before = match.string[max(0, match.start() - 40) : match.start()]
    after = match.string[match.end() : match.end() + 1]
    if _LOGIN_BEFORE.search(before) or after == ":":
        return match.group(0)
    return "[EMAIL]"


def _cued_phone(match: re.Match[str]) -> str:
    """A number after "phone" (in either language) is a phone number when it has 7 to 15 digits
    (longer ones are ticket ids)."""
    digits = sum(char.isdigit() for char in match.group(2))
    if re.match(r"[48]00[- ]?\d", match.group(2)):
        return match.group(0)  # a company's toll-free line (400-/800-), no person's number
    return f"{match.group(1)}[PHONE]" if 7 <= digits <= 15 else match.group(0)


def _ip(match: re.Match[str]) -> str:
    try:
        address = ipaddress.ip_address(match.group(0))
    except ValueError:
        return match.group(0)
    # Internal addresses name machines, not people: diagnosis needs them.
    if address.is_private or address.is_loopback or address.is_link_local:
        return match.group(0)
    return "[IP]"


def _intl_phone(match: re.Match[str]) -> str:
    """A "+" number is a phone only with enough digits ("+0.10", a score change, is not)."""
    digits = sum(char.isdigit() for char in match.group(0))
    return "[PHONE]" if digits >= 7 else match.group(0)


def redact_strings(value: Any) -> Any:
    """`value` (JSON-like: dicts, lists, strings) with every string redacted; keys are kept."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, Mapping):
        return {key: redact_strings(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [redact_strings(item) for item in value]
    return value


def redact(text: str) -> str:
    """Replace personal data and secrets in ``text`` with placeholders; ids and codes stay."""
    if not text:
        return text
    text = replace_secret_formats(text)
    text = _CREDENTIAL_PAIR.sub(_credential_pair, text)
    text = PASSPHRASE.sub(_passphrase, text)
    text = _SECRET_ASSIGNMENT.sub(_secret_value, text)
    text = _PASSWORD_SET_TO.sub(_set_to, text)
    text = _SECRET_BEFORE_KEY.sub(_secret_before_key, text)
    text = EMAIL_PATTERN.sub(_email, text)
    text = _bare_passwords(text)
    text = _IBAN.sub(lambda m: "[IBAN]" if _iban_ok(m.group(0)) else m.group(0), text)
    text = _CN_ID.sub(lambda m: "[ID_NUMBER]" if _cn_id_ok(m.group(0)) else m.group(0), text)
    text = replace_personal_ids(text)
    text = _CARD_GROUPED.sub(_card, text)
    text = _CARD_PLAIN.sub(_card, text)
    text = _US_SSN.sub("[SSN]", text)
    text = _CUED_NINO.sub(lambda m: f"{m.group(1)}[NI_NUMBER]", text)
    text = _UK_NINO.sub("[NI_NUMBER]", text)
    text = _CN_MOBILE.sub("[PHONE]", text)
    text = _INTL_PHONE.sub(_intl_phone, text)
    text = _NANP_PHONE.sub("[PHONE]", text)
    text = _UK_MOBILE.sub("[PHONE]", text)
    text = _CN_LANDLINE.sub("[PHONE]", text)
    text = _CUED_PHONE.sub(_cued_phone, text)
    return _IPV4.sub(_ip, text)


#: Characters of a message redacted at entry: twice what the brain keeps of one
#: (`core.limits.MAX_MESSAGE_CHARS`), so a 5 MB paste costs what a long message does; the rest
#: is never read.
REDACTED_CHARS = 2 * MAX_MESSAGE_CHARS


def redact_message(message: Message) -> Message:
    """The message as the brain may see it: text and history redacted. Called once where a
    message enters (`Brain.decide`, `Conversation.handle`, the bot's listener), so no store,
    log, LLM prompt, webhook, case book or alert downstream can get the typed secret."""
    text = redact(message.text[:REDACTED_CHARS])
    history = tuple(redact(turn[:REDACTED_CHARS]) for turn in message.history)
    if text == message.text and history == message.history:
        return message
    return replace(message, text=text, history=history)
