"""Secret formats with a known shape, each replaced by a placeholder that keeps its kind.

Why a module of its own: `core.redact` handles passwords, personal data and checksummed
numbers; the token formats come from a well-kept library, detect-secrets' regex plugins
(AWS, GitHub, GitLab, Slack tokens and webhooks, OpenAI, Stripe, SendGrid, Twilio, Discord,
Telegram, PyPI, npm in .npmrc, Mailchimp, Square, Azure storage keys, passwords in URLs), plus
the few shapes it does not cover (whole JWTs, signature included; whole PEM / OpenSSH
private-key blocks, where it only spots the BEGIN line; Anthropic keys; ``npm_`` tokens outside
.npmrc; a Slack webhook path without its host; basic auth in a URL with an empty user name;
Bearer and Basic credentials; a high-entropy value after a cue word in English or Chinese).

The patterns are compiled on first use (`core.lazy.Lazy`): importing detect-secrets costs a
tenth of a second that a command which never redacts should not pay.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from core.cues import cues
from core.lazy import Lazy

__all__ = ["SecretFormat", "is_placeholder", "replace_secret_formats"]


@dataclass(frozen=True, slots=True)
class SecretFormat:
    """One shape: `pattern`; the `group` whose span is the secret (0: the whole match)."""

    kind: str
    pattern: re.Pattern[str]
    group: int = 0
    accept: Callable[[str], bool] | None = None

    @property
    def placeholder(self) -> str:
        return f"[{self.kind}]"


#: detect-secrets plugin (module, class) -> the kind its matches are replaced by.
_PLUGINS: tuple[tuple[str, str, str], ...] = (
    ("aws", "AWSKeyDetector", "AWS_KEY"),
    ("github_token", "GitHubTokenDetector", "GITHUB_TOKEN"),
    ("gitlab_token", "GitLabTokenDetector", "GITLAB_TOKEN"),
    ("slack", "SlackDetector", "SLACK_TOKEN"),
    ("openai", "OpenAIDetector", "API_KEY"),
    ("stripe", "StripeDetector", "API_KEY"),
    ("sendgrid", "SendGridDetector", "API_KEY"),
    ("twilio", "TwilioKeyDetector", "API_KEY"),
    ("discord", "DiscordBotTokenDetector", "API_KEY"),
    ("telegram_token", "TelegramBotTokenDetector", "API_KEY"),
    ("pypi_token", "PypiTokenDetector", "API_KEY"),
    ("mailchimp", "MailchimpDetector", "API_KEY"),
    ("square_oauth", "SquareOAuthDetector", "API_KEY"),
    ("azure_storage_key", "AzureStorageKeyDetector", "API_KEY"),
    ("basic_auth", "BasicAuthDetector", "PASSWORD"),
    ("npm", "NpmDetector", "NPM_TOKEN"),
)
#: Plugins whose patterns capture the secret in group 1 (the rest of the match is context).
_VALUE_GROUP_PLUGINS = frozenset({"BasicAuthDetector", "NpmDetector"})

#: A JWT by its structure, all three parts: a header that is base64url JSON ("eyJ" is '{"'),
#: a payload and the signature (empty for an unsigned token). detect-secrets' JwtTokenDetector
#: is not used: its pattern ends lazily, so it takes the header and the payload and leaves the
#: signature, the part that proves the token, in the text.
_JWT = re.compile(
    r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}={0,2}\.[A-Za-z0-9_-]{2,}={0,2}\."
    r"(?:[A-Za-z0-9_+/-]+={0,2})?"
)
_PRIVATE_KEY = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
    r".*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)",
    re.DOTALL,
)
_PUTTY_KEY = re.compile(r"PuTTY-User-Key-File-\d:.*?(?:Private-MAC: *[0-9a-fA-F]+|\Z)", re.DOTALL)
_OWN: tuple[tuple[str, str, int], ...] = (
    ("ANTHROPIC_KEY", r"\bsk-ant-[A-Za-z0-9_-]{8,}", 0),
    ("API_KEY", r"\bsk-[A-Za-z0-9_-]{20,}", 0),
    ("SLACK_TOKEN", r"\bxox[abposre]-[A-Za-z0-9-]{8,}", 0),
    ("SLACK_TOKEN", r"\bxapp-[A-Za-z0-9-]{8,}", 0),
    (
        "SLACK_WEBHOOK",
        r"(?:https?://)?(?:hooks\.slack\.com)?/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}"
        r"/[A-Za-z0-9]{12,}",
        0,
    ),
    ("AWS_KEY", r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b", 0),
    ("GITHUB_TOKEN", r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{22,})", 0),
    ("GITLAB_TOKEN", r"\bglpat-[A-Za-z0-9_-]{20,}", 0),
    ("API_KEY", r"\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])", 0),
    ("NPM_TOKEN", r"\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9])", 0),
    # Basic auth in any URL, the user name with the password (together they sign in), and a
    # password after an empty user name ("redis://:pw@cache-01").
    ("PASSWORD", r"(?i)\b[a-z][a-z0-9+.-]*://([^\s:/@]+:[^\s/@]+)@", 1),
    ("PASSWORD", r"(?i)\b[a-z][a-z0-9+.-]*://:([^\s/@]+)@", 1),
    ("TOKEN", r"(?i)\b(?:bearer|basic|token)\s+([A-Za-z0-9._~+/=-]{16,})", 1),
    ("API_KEY", r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}", 0),
    ("API_KEY", r"\bLTAI[0-9A-Za-z]{12,24}(?![0-9A-Za-z])", 0),
    # A key as a URL's user (a Sentry DSN: "https://<key>@o448812.ingest.sentry.io/...").
    ("API_KEY", r"(?i)\bhttps?://([0-9a-f]{16,64})@", 1),
    # A BitLocker recovery key: eight groups of six digits.
    ("SECRET", r"(?<![\d-])\d{6}(?:-\d{6}){7}(?![\d-])", 0),
    # A session cookie by its name ("JSESSIONID=...", "sessionid=...; csrftoken=...").
    (
        "SECRET",
        r"(?i)\b(?:jsessionid|phpsessid|asp\.net_sessionid|sessionid|session_id|session"
        r"|connect\.sid|_session|auth_token|remember_token|csrftoken|xsrf-token)=([^\s;,'\"]{16,})",
        1,
    ),
    # A card's security code after its name ("the CVV is 418").
    ("SECRET", r"(?i)\b(?:cvv2?|cvc2?|csc)\b[^0-9\n]{0,10}?(\d{3,4})(?!\d)", 1),
    # A connection string's key ("AccountKey=...;", "SharedAccessKey=...", a SAS "sig=...").
    (
        "API_KEY",
        r"(?i)\b(?:AccountKey|SharedAccessKey|SharedAccessSignature|sig)=([A-Za-z0-9+/%=]{16,})",
        1,
    ),
)
#: Passwords a command line carries by its shape (the value group is the secret): curl's and
#: wget's `-u user:pass` (never `docker -u 1000:1000`, a user and group id), `sshpass -p`,
#: MySQL's `-pSECRET` (attached: `mysql -p` alone prompts, `-P 3306` is the port),
#: `redis-cli -a`, and variables such as `PGPASSWORD=...` set before a command.
_COMMAND_LINE: tuple[tuple[str, int, Callable[[str], bool] | None], ...] = (
    (
        r"(?<!\S)(?:-u|--user)[ =]?['\"]?([^\s:'\"@]+:[^\s'\"@]+)",
        1,
        lambda v: not v.split(":", 1)[1].isdigit(),
    ),
    (r"\bsshpass\s+-p\s*(['\"]?)([^\s'\"]+)\1", 2, None),
    (r"\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?\s-p(['\"]?)([^\s'\"]+)\1", 2, None),
    (r"\bredis-cli\b[^\n]*?\s-a\s+(['\"]?)([^\s'\"]+)\1", 2, None),
    (
        r"\b[A-Z][A-Z0-9_]*(?:PASSWORD|PASSWD|_PWD|_AUTH|SECRET|TOKEN)=(['\"]?)([^\s;'\"]+)\1",
        2,
        None,
    ),
)
#: The words before a secret, in each language (`secret_formats.cues.yaml`; `core.cues`).
_CUES = cues(__name__)
#: A one-time code after the words for it ("verification code is 552911"): spent in minutes,
#: but whoever reads it in time signs in as its owner.
_ONE_TIME_CODE = re.compile(
    f"(?i)(?:{_CUES.regex('one_time_code_words')})"
    r"[^0-9\n]{0,24}?(\d{3} \d{3}(?!\d)|\d(?: \d){5,7}(?!\d)|\d{4,8}(?!\d))"
)
#: A secret key of 40 base64 characters with a "/" or "+" in it, mixed case and digits (an
#: AWS secret access key's shape); hex digests and paths are not it.
_BASE64_40 = re.compile(r"(?<![A-Za-z0-9/+=])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])")
#: A product or licence key: four or five groups of four or five letters and digits
#: ("7XQ2-LM9V-TR4P-ZB8N"), letters and digits both (not a date or a number range).
_PRODUCT_KEY = re.compile(r"(?<![A-Za-z0-9-])[A-Z0-9]{4,5}(?:-[A-Z0-9]{4,5}){3,4}(?![A-Za-z0-9-])")
#: A Wi-Fi or network key told like a password ("the wifi key for the lab is sunflowerMoon42"):
#: taken when the value looks like one (a digit, or lower and upper case), so "the wifi key is
#: printed on the router" stays.
_NETWORK_KEY = re.compile(
    r"(?i)\b(?:wi-?fi|wlan|wireless|network|wpa2?|psk)\s+(?:key|passphrase)(?![A-Za-z])"
    + _CUES.regex("network_key_value")
)


def _base64_key(value: str) -> bool:
    has = (any(c.isupper() for c in value), any(c.islower() for c in value))
    return all(has) and any(c.isdigit() for c in value) and _entropy(value) >= 4.3


def _product_key(value: str) -> bool:
    letters = sum(c.isalpha() for c in value)
    return letters >= 3 and sum(c.isdigit() for c in value) >= 3


def _looks_like_a_password(value: str) -> bool:
    letters = [c for c in value if c.isalpha()]
    mixed = any(c.islower() for c in letters) and any(c.isupper() for c in letters)
    return any(c.isdigit() for c in value) or mixed


#: A value after a cue word ("api key", "secret", and their Chinese words): a secret when it
#: is long and random-looking (hex of 32+, or 20+ characters with high entropy), so "key
#: LT-123" stays.
_CUED = re.compile(
    f"(?i)(?:{_CUES.regex('cued_words')}){_CUES.regex('cued_separator')}"
    r"([A-Za-z0-9+/_=-]{20,})"
)


def _entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def _random_looking(value: str) -> bool:
    """Hex of 32 characters or more, or 20+ characters of high entropy with digits and
    letters (not a word, a path or a ticket id)."""
    if re.fullmatch(r"[0-9a-fA-F]{32,}", value):
        return True
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    return has_digit and has_alpha and _entropy(value) >= 3.5


def _build() -> tuple[SecretFormat, ...]:
    from importlib import import_module

    formats = [
        SecretFormat("JWT", _JWT),
        SecretFormat("PRIVATE_KEY", _PRIVATE_KEY),
        SecretFormat("PRIVATE_KEY", _PUTTY_KEY),
    ]
    for module, name, kind in _PLUGINS:
        plugin = getattr(import_module(f"detect_secrets.plugins.{module}"), name)()
        group = 1 if name in _VALUE_GROUP_PLUGINS else 0
        formats.extend(SecretFormat(kind, pattern, group) for pattern in plugin.denylist)
    formats.extend(SecretFormat(kind, re.compile(source), group) for kind, source, group in _OWN)
    formats.extend(
        SecretFormat("PASSWORD", re.compile(source), group, accept)
        for source, group, accept in _COMMAND_LINE
    )
    formats.append(SecretFormat("SECRET", _ONE_TIME_CODE, 1))
    formats.append(SecretFormat("PASSWORD", _NETWORK_KEY, 1, _looks_like_a_password))
    formats.append(SecretFormat("API_KEY", _BASE64_40, 1, _base64_key))
    formats.append(SecretFormat("SECRET", _PRODUCT_KEY, 0, _product_key))
    formats.append(SecretFormat("SECRET", _CUED, 1, _random_looking))
    return tuple(formats)


_FORMATS: Lazy[tuple[SecretFormat, ...]] = Lazy(_build)
_PLACEHOLDER = re.compile(r"\[[A-Z_]+\]")


def is_placeholder(value: str) -> bool:
    """Is `value` a redaction placeholder (``[SECRET]``, ``[AWS_KEY]``)?"""
    return _PLACEHOLDER.fullmatch(value) is not None


def replace_secret_formats(text: str) -> str:
    """`text` with every secret of a known format replaced by its kind's placeholder."""
    for secret in _FORMATS.get():

        def replace(match: re.Match[str], secret: SecretFormat = secret) -> str:
            start, end = match.span(secret.group)
            value = match.group(secret.group)
            if start < 0 or is_placeholder(value):
                return match.group(0)
            if secret.accept is not None and not secret.accept(value):
                return match.group(0)
            whole_start = match.start()
            head = match.group(0)[: start - whole_start]
            tail = match.group(0)[end - whole_start :]
            return f"{head}{secret.placeholder}{tail}"

        text = secret.pattern.sub(replace, text)
    return text
