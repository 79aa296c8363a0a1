"""A turn written in Chinese and English prose at once is answered in the language that
carries more of it, Chinese characters against English words: "cache 已经清过了，still the
same" after a Chinese report was answered in English (its letters outweighed its five
characters), and "my manager Zhang Wei 已经 approved 了" stays English."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.cli_calls import ask_json

_CJK = re.compile(r"[\u4e00-\u9fff]")


def _ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_json(capsys, text, "--thread", "T1", "--user", "u1")


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("opening", "mixed", "chinese"),
    [
        ("我的 Teams 登录不上，提示错误代码 caa70004", "cache 已经清过了，still the same", True),
        ("我需要开通 Tableau 的权限", "my manager Zhang Wei 已经 approved 了", False),
    ],
)
def test_a_turn_in_both_languages_is_answered_in_the_one_that_carries_more_of_it(
    capsys: pytest.CaptureFixture[str], opening: str, mixed: str, chinese: bool
) -> None:
    _ask(capsys, opening)
    reply = _ask(capsys, mixed)
    assert reply["request_type"] == "update"
    summary = reply["result"]["summary"].replace(mixed, "")
    assert bool(_CJK.search(summary)) == chinese, summary
