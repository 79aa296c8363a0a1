"""Personal numbers known by the words written before them: identity documents, bank
accounts, dates of birth, PINs and recovery codes, in English and Chinese.

Why a module of its own: `core.redact` finds personal data by its own shape (a Chinese
resident ID by its checksum, a card by Luhn, an IBAN by mod-97, a UK National Insurance
number by its letters). A passport, a driving licence, a Hong Kong identity card, a bank
account and sort code, a date of birth, a PIN or a set of recovery codes have no shape that
tells them apart from an order number or a date in a log line; what tells them apart is the
word before them ("passport number", "护照号", "sort code", "出生日期"), as in the context words
of Presidio's recognizers. Each is replaced by a placeholder that keeps its kind; without its
word the number stays (routing and diagnosis read order numbers, dates and versions).
"""

from __future__ import annotations

import re

from core.lazy import LazyPattern

__all__ = ["replace_personal_ids"]

#: Between the word and the number: "is", "no.", a colon, a few spaces or words' glue.
_GLUE = r"\s*(?:(?:number|no\.?|num|#|is|was|:|：|是|为|号码|号)\s*){0,3}"

#: (placeholder, pattern with the number in group 1).
_CUED: tuple[tuple[str, LazyPattern], ...] = (
    (
        "[ID_NUMBER]",
        LazyPattern(
            r"(?i)(?:passport|driver'?s?\s+licen[cs]e|driving\s+licen[cs]e|licen[cs]e\s+number"
            r"|护照|驾驶证|驾照|通行证|身份证|hkid|identity\s+card)"
            + _GLUE
            + r"([A-Z]{0,2}\d[A-Z0-9-]{4,17}(?:\([0-9A]\))?)(?![A-Za-z0-9])"
        ),
    ),
    (
        "[ACCOUNT]",
        LazyPattern(
            r"(?i)(?:bank\s+account|account\s+number|acct\.?\s+no|sort\s+code|routing\s+number"
            r"|银行卡|银行账户|银行账号|银行卡号|卡号)" + _GLUE + r"(\d[\d -]{4,26}\d)(?!\d)"
        ),
    ),
    (
        "[DATE_OF_BIRTH]",
        LazyPattern(
            r"(?i)(?:date\s+of\s+birth|\bdob\b|born\s+on|birthday|出生日期|生日|出生于)"
            + _GLUE
            + r"(\d{1,4}[/.\-年]\d{1,2}[/.\-月]\d{1,4}日?)"
        ),
    ),
    (
        "[SECRET]",
        LazyPattern(r"(?i)(?:\bpin(?:\s+code)?|pin码|密码锁)" + _GLUE + r"(\d{4,8})(?!\d)"),
    ),
)
#: Recovery or backup codes: every code of the list after the words ("recovery codes: 8f3k-2m9p
#: 4x7q-9w2e"), each of letters and digits around a dash or alone.
_CODES_CUE = LazyPattern(r"(?i)(?:recovery|backup|备用|恢复)\s*(?:codes?|码)[:：\s]*")
_CODE = LazyPattern(r"\s*[,，]?\s*([a-z0-9]{4,5}-[a-z0-9]{4,5}|\d{8,10})(?![\w-])", re.IGNORECASE)


def _recovery_codes(text: str) -> str:
    out: list[str] = []
    at = 0
    for cue in _CODES_CUE.finditer(text):
        if cue.start() < at:
            continue
        out.append(text[at : cue.end()])
        at = cue.end()
        while (code := _CODE.match(text, at)) is not None:
            out.append(text[at : code.start(1)] + "[SECRET]")
            at = code.end()
    out.append(text[at:])
    return "".join(out)


def replace_personal_ids(text: str) -> str:
    """`text` with every number a cue word names as personal replaced by its placeholder."""
    for placeholder, pattern in _CUED:

        def replace(match: re.Match[str], placeholder: str = placeholder) -> str:
            return match.group(0)[: match.start(1) - match.start()] + placeholder

        text = pattern.sub(replace, text)
    return _recovery_codes(text)
