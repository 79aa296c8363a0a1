"""Which words of a mixed message are names, not English: the same answers from the linear
pattern as from the plain one it replaced.

The plain pattern (kept below as the reference) tried a match again from every character of a
run of letters, so a long run cost time quadratic in its length (a 30,000-letter line, 4 s a
call, in every reply's language check). The linear one starts a match only where a run starts;
these tests hold it to the reference's answers on texts built from the characters that decide
them: letters, digits, the joiners, spaces and a Chinese character.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from core.text.language import in_both, is_chinese, turn_is_chinese

_PLAIN_IDENTIFIER = re.compile(r"[A-Za-z0-9]+(?:[-_./:][A-Za-z0-9]+)+|[A-Za-z]*\d[A-Za-z0-9]*")
_LATIN_WORD = re.compile(r"[A-Za-z]+")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def _lower_prose_words(text: str) -> list[str]:
    prose = _PLAIN_IDENTIFIER.sub(" ", text)
    return [w for w in _LATIN_WORD.findall(prose) if w.islower()]


def _reference_is_chinese(text: str) -> bool:
    cjk = len(_CJK.findall(text))
    return cjk > 0 and cjk >= sum(len(w) for w in _lower_prose_words(text)) / 3


def _reference_in_both(text: str) -> bool:
    return bool(_CJK.search(text)) and len(_lower_prose_words(text)) >= 2


_TEXTS = st.text(alphabet="aZx09-_./: 中已", max_size=24)


@settings(max_examples=400, derandomize=True, deadline=None)
@given(text=_TEXTS)
def test_names_are_found_as_the_plain_pattern_finds_them(text: str) -> None:
    assert is_chinese(text) == _reference_is_chinese(text)
    assert in_both(text) == _reference_in_both(text)


def test_the_documented_examples_keep_their_language() -> None:
    assert is_chinese("prod 的 payments-api 5xx 飙升了")
    assert is_chinese("要 Jenkins 的")
    assert in_both("cache 已经清过了，still the same")
    assert not in_both("VPN 又断了")
    assert turn_is_chinese("cache 已经清过了，still the same")
    assert not turn_is_chinese("my manager Zhang Wei 已经 approved 了")


def test_a_long_run_of_letters_among_chinese_is_english_prose() -> None:
    text = "x" * 30_000 + " 已经 still the same"
    assert in_both(text)
    assert not is_chinese(text)


def test_a_pasted_alert_before_a_chinese_question_is_asked_in_chinese() -> None:
    """The alert's identifiers are no English words: its question is answered in Chinese."""
    text = "[FIRING:1] JobFailed job=settle-eod exit_code=2 host=batch-01，这个要怎么排查"
    assert in_both(text)
    assert turn_is_chinese(text)
