"""Which language a text is in: zh, en or mixed, by its share of CJK characters."""

from __future__ import annotations

import re

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")


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
