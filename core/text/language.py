"""Which language a text is in: zh, en or mixed, by its share of CJK characters."""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.cues import cues

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")
#: A token written as a name of a thing, not in a language: joined by - _ . / : or holding a
#: digit ("payments-api", "db-01.corp.local", "5xx", "s3", "v2.4.1"). A match starts only
#: where a run of letters and digits starts: one that could start inside a run could start at
#: its first character too, and that match takes the whole run, so the matches are the same,
#: but a failed try no longer walks the rest of the run again from every character of it (a
#: 30,000-letter message took 4 s a call, quadratic in its length; now linear).
_IDENTIFIER = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Za-z0-9]+(?:[-_./:][A-Za-z0-9]+)+|[A-Za-z]*\d[A-Za-z0-9]*)"
)
#: Every CJK ideograph block `is_chinese` counts (a little wider than `_CJK`).
_CJK_WIDE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")

#: Trust in the dense channel by query language (the sparse channel weighs 1), used for the
#: fusion weights and the dense part of the relevance.
#: MiniLM is English-only: on Chinese queries its ranking is mostly noise (benchmarks/
#: retrieval.py: dense-only recall@5 45% on zh vs 100% on en), so it only breaks ties there.
DENSE_WEIGHT = {"en": 1.0, "mixed": 0.5, "zh": 0.2}


def detect_language(text: str) -> str:
    """'zh', 'en' or 'mixed' by the share of CJK characters (a Latin letter counts 1/3)."""
    cjk = len(_CJK.findall(text))
    latin = len(_LATIN.findall(text)) / 3
    if cjk + latin == 0:
        return "en"
    ratio = cjk / (cjk + latin)
    if ratio >= 0.75:
        return "zh"
    if ratio <= 0.1:
        return "en"
    return "mixed"


#: The marks that make a message a question (its last character, or anywhere in it).
QUESTION_MARKS = cues(__name__).words("question_marks")


def is_chinese(text: str) -> bool:
    """Mostly Chinese, so replies and questions to its writer are in Chinese: more CJK
    characters than Latin letters / 3, where a word with a capital letter (a product or a
    system, "Jenkins", "VPN", "GitLab") is a name, not the writer's language: a Chinese
    sentence asking for "Jenkins" is Chinese; so is one with an identifier written in lower
    case ("prod", "payments-api" and "5xx" in a Chinese report of an error spike name a
    service and a status, they are not English). Shared by the
    brain's clarifications and labels and by the controllers' own replies, so an asker gets
    one language."""
    cjk = len(_CJK_WIDE.findall(text))
    if cjk == 0:
        return False
    prose = _IDENTIFIER.sub(" ", text)
    words = sum(len(w) for w in _LATIN_WORD.findall(prose) if w.islower())
    return cjk >= words / 3


def replies_in_chinese(language: str, text: str) -> bool:
    """Are replies about `text` in Chinese? As recorded (`language`: "zh" or "en", where the
    conversation read the asker's language otherwise than the text alone), else as the text
    reads (`is_chinese`). Decisions and controller contexts answer alike through it."""
    return language == "zh" if language else is_chinese(text)


def has_cjk(text: str) -> bool:
    """Whether `text` holds any CJK ideograph (a Chinese term, or a word with one in it)."""
    return _CJK_WIDE.search(text) is not None


def in_both(text: str) -> bool:
    """Written in Chinese and in English prose at once: CJK characters and two or more
    lowercase words that are no identifier ("cache <cleared already, in Chinese>, still the
    same"); a name among Chinese ("Jenkins", "VPN" in a Chinese sentence) is no English."""
    prose = _IDENTIFIER.sub(" ", text)
    return has_cjk(text) and sum(1 for w in _LATIN_WORD.findall(prose) if w.islower()) >= 2


def shows_language(text: str) -> bool:
    """Whether `text` itself shows its writer's language: any CJK character, or two or more
    lowercase words ("still broken"); a name or a short token ("Jenkins", "ok", "LT-0042")
    does not."""
    if has_cjk(text):
        return True
    return sum(1 for w in _LATIN_WORD.findall(text) if w.islower()) >= 2


def turn_is_chinese(text: str, earlier: Sequence[str] = ()) -> bool:
    """The language a turn of a conversation is answered in: its own text's when it shows
    one (`is_chinese`), else the latest earlier text's that does (a bare "Jenkins" or "ok" in
    a Chinese thread is answered in Chinese). A turn written in both languages (`in_both`) is
    answered in the one that carries more of it, Chinese characters against English words:
    "cache <cleared already, five Chinese characters>, still the same" in Chinese (its letters
    outweighed its five characters in `is_chinese`), "my manager Zhang Wei <already> approved
    <particle>" in English. Identifiers are no English words ("[FIRING:1] JobFailed
    job=settle-eod exit_code=2" pasted before a question in Chinese is asked in Chinese). The
    chain's decisions read it too (`Understanding.in_chinese`); routing reads the text."""
    if in_both(text):
        prose = _IDENTIFIER.sub(" ", text)
        return len(_CJK_WIDE.findall(text)) >= len(_LATIN_WORD.findall(prose))
    if not shows_language(text):
        for before in reversed(earlier):
            if shows_language(before):
                return is_chinese(before)
    return is_chinese(text)
