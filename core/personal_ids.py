"""Personal numbers known by the words written before them (identity documents, bank
accounts, dates of birth, PINs and recovery codes) and street addresses known by their shape,
in English and Chinese.

Why a module of its own: `core.redact` finds personal data by its own shape (a Chinese
resident ID by its checksum, a card by Luhn, an IBAN by mod-97, a UK National Insurance
number by its letters). A passport, a driving licence, a Hong Kong identity card, a bank
account and sort code, a date of birth, a PIN or a set of recovery codes have no shape that
tells them apart from an order number or a date in a log line; what tells them apart is the
word before them ("passport number", "sort code", "date of birth", and their Chinese words:
`personal_ids.cues.yaml`), as in the context words
of Presidio's recognizers. Each is replaced by a placeholder that keeps its kind; without its
word the number stays (routing and diagnosis read order numbers, dates and versions).
"""

from __future__ import annotations

import re

from core.cues import cues
from core.lazy import LazyPattern

__all__ = ["replace_personal_ids"]

#: The words before a personal number in each language, and its shapes (`core.cues`).
_CUES = cues(__name__)
#: Between the word and the number: "is", "no.", a colon, a few spaces or words' glue.
_GLUE = r"\s*(?:(?:" + _CUES.regex("glue") + r")\s*){0,4}"


def _cue(name: str) -> str:
    """The words of entry `name`, as a group matched in any case."""
    return f"(?i)(?:{_CUES.regex(name)})"


#: (placeholder, pattern with the number in group 1).
_CUED: tuple[tuple[str, LazyPattern], ...] = (
    (
        "[ID_NUMBER]",
        LazyPattern(
            _cue("id_words")
            + _GLUE
            + r"((?-i:[A-Z]{0,5}\d[A-Z0-9-]{3,20}|\d{2,4}(?: \d{2,4}){1,4})(?:\([0-9A]\))?)"
            + r"(?![A-Za-z0-9])"
        ),
    ),
    ("[ACCOUNT]", LazyPattern(_cue("account_words") + _GLUE + r"(\d[\d -]{4,26}\d)(?!\d)")),
    (
        "[DATE_OF_BIRTH]",
        LazyPattern(_cue("birth_words") + r"[^\d\n]{0,24}?" + f"({_CUES.regex('birth_date')})"),
    ),
    ("[SECRET]", LazyPattern(_cue("pin_words") + _GLUE + r"(\d{4,8})(?!\d)")),
    (
        # A door, gate, keypad, safe or cage code or combination ("keypad code is 3719#").
        "[SECRET]",
        LazyPattern(_cue("lock_words") + r"[^\d\n]{0,16}?(\d[\d#*-]{2,10}[\d#*])(?![\d#*-])"),
    ),
    (
        # The answer to a security question, quoted ("answer is 'Buttercup the beagle'").
        "[SECRET]",
        LazyPattern(_cue("answer_words") + _CUES.regex("quoted_answer")),
    ),
    (
        # A salary named as one ("base salary of $118,450").
        "[SALARY]",
        LazyPattern(_cue("salary_words") + _CUES.regex("salary_amount")),
    ),
)
#: Recovery or backup codes: every code of the list after the words ("recovery codes: 8f3k-2m9p
#: 4x7q-9w2e"), each of letters and digits around a dash or alone.
_CODES_CUE = LazyPattern("(?i)" + _CUES.regex("recovery_codes"))
_CODE = LazyPattern(_CUES.regex("recovery_code"), re.IGNORECASE)


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


#: A street address by its shape, English (a house number, capitalised street words and the
#: street's kind, then a flat, a town and a US or UK postcode) and Chinese (city, district,
#: road, then numbers of lane, house, block and room): where a laptop or monitor is sent.
_STREET_KINDS = (
    r"Street|St|Road|Rd|Lane|Ln|Avenue|Ave|Crescent|Cres|Drive|Dr|Court|Ct|Way|Boulevard"
    r"|Blvd|Place|Pl|Close|Terrace|Gardens|Square|Sq|Parkway|Pkwy|Highway|Hwy"
)
_ADDRESS_EN = LazyPattern(
    r"(?<![\w-])\d{1,5}[A-Za-z]?\s+(?:[A-Z][a-z]+\s+){1,3}(?:" + _STREET_KINDS + r")\b\.?"
    r"(?:,?\s+(?:Apt|Apartment|Unit|Flat|Suite)\.?\s*[\w-]+)?"
    r"(?:,\s*[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)?"
    r"(?:,?\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?|,?\s+[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2})?"
)
_ADDRESS_ZH = LazyPattern(_CUES.regex("address_zh"))

#: The company's own premises named just before an address: no person lives there.
_PREMISES = LazyPattern(_cue("premises"))


def _address(match: re.Match[str]) -> str:
    before = match.string[max(0, match.start() - 40) : match.start()]
    return match.group(0) if _PREMISES.search(before) else "[ADDRESS]"


def replace_personal_ids(text: str) -> str:
    """`text` with every number a cue word names as personal replaced by its placeholder."""
    for placeholder, pattern in _CUED:

        def replace(match: re.Match[str], placeholder: str = placeholder) -> str:
            return match.group(0)[: match.start(1) - match.start()] + placeholder

        text = pattern.sub(replace, text)
    text = _ADDRESS_ZH.sub(_address, _ADDRESS_EN.sub(_address, text))
    return _recovery_codes(text)
