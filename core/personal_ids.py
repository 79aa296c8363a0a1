"""Personal numbers known by the words written before them (identity documents, bank
accounts, dates of birth, PINs and recovery codes) and street addresses known by their shape,
in English and Chinese.

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
_GLUE = (
    r"\s*(?:(?:number|no\.?|num|#|is|was|it'?s|my|:|：|,|，|是|为|改成|改为|号码|号|档案编号|编号"
    r"|我的是|我的)\s*){0,4}"
)

#: (placeholder, pattern with the number in group 1).
_CUED: tuple[tuple[str, LazyPattern], ...] = (
    (
        "[ID_NUMBER]",
        LazyPattern(
            r"(?i)(?:passport|driver'?s?\s+licen[cs]e|driving\s+licen[cs]e|licen[cs]e\s+number"
            r"|\bDL\b|护照|驾驶证|驾照|通行证|身份证|hkid|identity\s+card|tax\s+id|steuer-id"
            r"|social\s+security(?:\s+number)?|\bsocial\b|\bssn\b|纳税人识别号|税号)"
            + _GLUE
            + r"((?-i:[A-Z]{0,5}\d[A-Z0-9-]{3,20}|\d{2,4}(?: \d{2,4}){1,4})(?:\([0-9A]\))?)"
            + r"(?![A-Za-z0-9])"
        ),
    ),
    (
        "[ACCOUNT]",
        LazyPattern(
            r"(?i)(?:bank\s+account|account\s+number|acct\.?\s+no|sort\s+code|routing\s+number"
            r"|direct\s+deposit[^\n]{0,40}?account|银行卡|银行账户|银行账号|银行卡号|卡号|打到[^\d\n]{0,8}银行)"
            + _GLUE
            + r"(\d[\d -]{4,26}\d)(?!\d)"
        ),
    ),
    (
        "[DATE_OF_BIRTH]",
        LazyPattern(
            r"(?i)(?:date\s+of\s+birth|\bdob\b|born\s+on|birthday|出生日期|生日|出生于)"
            r"[^\d\n]{0,24}?"
            r"(\d{1,4}[/.\-年]\d{1,2}[/.\-月]\d{1,4}日?"
            r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}"
            r"|\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+\d{4})"
        ),
    ),
    (
        "[SECRET]",
        LazyPattern(r"(?i)(?:\bpin(?:\s+code)?|pin码|密码锁)" + _GLUE + r"(\d{4,8})(?!\d)"),
    ),
    (
        # A door, gate, keypad, safe or cage code or combination ("keypad code is 3719#").
        "[SECRET]",
        LazyPattern(
            r"(?i)(?:(?:door|gate|keypad|lock|safe|cage|locker)\s+(?:code|combo|combination)"
            r"|\bcombo\b|门禁密码|门锁密码)"
            r"[^\d\n]{0,16}?(\d[\d#*-]{2,10}[\d#*])(?![\d#*-])"
        ),
    ),
    (
        # The answer to a security question, quoted ("answer is 'Buttercup the beagle'").
        "[SECRET]",
        LazyPattern(
            r"(?i)(?:security\s+question\s+answer|security\s+answer|answer\s+to\s+my\s+security"
            r"\s+question|密保问题答案|密保答案)[^'\"“‘\n]{0,16}['\"“‘]([^'\"”’\n]{2,60})['\"”’]"
        ),
    ),
    (
        # A salary named as one ("base salary of $118,450", "月薪 28500 元").
        "[SALARY]",
        LazyPattern(
            r"(?i)(?:salary|\bpay\s+is|月薪|年薪|工资是|薪水)[^\d\n$€£¥]{0,16}?"
            r"([$€£¥]?\s?\d[\d,.]{2,12}\d(?:\s?(?:元|k|万))?)"
        ),
    ),
)
#: Recovery or backup codes: every code of the list after the words ("recovery codes: 8f3k-2m9p
#: 4x7q-9w2e"), each of letters and digits around a dash or alone.
_CODES_CUE = LazyPattern(
    r"(?i)(?:recovery|backup|备用|恢复)\s*(?:codes?|代码|码)"
    r"(?:\s*(?:is|are|:|：|是|为)|[^\S\n]|[^\n]{0,24}?(?:is|are|是|为|:|：))[^\S\n]*"
)
_CODE = LazyPattern(
    r"\s*[,，]?\s*([a-z0-9]{4,5}(?:-[a-z0-9]{4,5}){1,4}|\d{8,10})(?![\w-])", re.IGNORECASE
)


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
_ADDRESS_ZH = LazyPattern(
    r"(?:[\u4e00-\u9fff]{2,3}(?:省|自治区)[\u4e00-\u9fff]{2,3}|[\u4e00-\u9fff]{2})市"
    r"[\u4e00-\u9fff]{1,6}(?:区|县)"
    r"[\u4e00-\u9fff0-9]{1,12}(?:路|街|道|大道|巷|胡同)\s*\d+\s*(?:号|弄)"
    r"(?:[\s\dA-Za-z-]*(?:号|弄|院|栋|幢|楼|单元|室|层))*(?:\s*\d+)?"
)


#: The company's own premises named just before an address: no person lives there.
_PREMISES = LazyPattern(
    r"(?i)(?:office|building|campus|headquarters|\bHQ\b|reception|办公室|公司|大厦|园区)"
)


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
