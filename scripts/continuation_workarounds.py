"""The asker copes with the problem for now, for the continuation set's train split
(`make_continuation_set.py`).

Tried as a new user would, "ok I'll use the ethernet cable then, thanks" after "the wifi in
meeting room 4B drops every few minutes" was read as the problem gone (resolved 0.63) and the
ticket was marked resolved, while the Wi-Fi was as broken as before. Someone who says how they
will get by meanwhile ("I'll use my hotspot until it's fixed", "我先用网线吧") keeps the problem:
it is an update for the people working on it, the record stays open. Beside the `resolved`
family ("switched to the cable and it works now" says it works), these teach the model that a
plan to cope is not a fix, with or without thanks.

How they were written: patterns invented for this file (a stopgap, a tool or place to use
instead, "for now", "until it's fixed", English and Chinese), none from the conversation
benchmark's splits or the held-out author's pools; the records are the train split's own
incident records with no question waiting. Appended after the other families with a random
stream of their own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from continuation_questions import _asked_row, first_rows

#: How the asker will get by meanwhile: {w} is a stopgap.
COPING = {
    "en": (
        [
            "ok I'll use {w} then",
            "I'll use {w} for now",
            "I'll just use {w} meanwhile",
            "fine, I'll work with {w} until it's fixed",
            "I'll manage with {w} for today",
            "going to use {w} in the meantime",
            "no worries, I'll use {w} till then",
            "I can get by with {w} for now",
            "ok, {w} will have to do for now",
            "I'll stick to {w} until you sort it out",
            "using {w} as a stopgap for now",
            "for now I'll just use {w}",
            "I guess I'll use {w} until someone looks at it",
        ],
        [
            "the ethernet cable",
            "my phone's hotspot",
            "the web version",
            "a loaner laptop",
            "the printer on the 2nd floor",
            "my personal headset",
            "the old version",
            "my colleague's machine",
            "the mobile app",
            "the guest wifi",
            "a USB keyboard",
            "the desk phone",
            "the meeting room next door",
            "the shared drive copy",
        ],
    ),
    "zh": (
        [
            "那我先用{w}吧",
            "我先用{w}顶着",
            "暂时先用{w}",
            "修好之前我先用{w}",
            "今天先用{w}凑合一下",
            "没事，我先用{w}",
            "那我这几天先用{w}",
            "先拿{w}应付一下",
            "我临时用{w}，等你们修",
            "行，先用{w}",
        ],
        [
            "网线",
            "手机热点",
            "网页版",
            "备用电脑",
            "二楼的打印机",
            "自己的耳机",
            "旧版本",
            "同事的电脑",
            "手机App",
            "访客Wi-Fi",
            "USB键盘",
            "座机",
            "隔壁会议室",
            "共享盘里的副本",
        ],
    ),
}
THANKS = {"en": [", thanks", ", thx", " - thanks!", ""], "zh": ["，谢谢", "，麻烦了", "", ""]}


def workaround_rows(rows: Sequence[dict[str, object]], seed: int = 7) -> list[dict[str, object]]:
    """For a sample of the train split's incident records (the first row of each, no question
    waiting): one way of coping meanwhile, an update that keeps the record open."""
    rng = random.Random(f"{seed}-workarounds")
    records = first_rows(rows, ("incident",))
    added: list[dict[str, object]] = []
    for lang, bases in records.items():
        patterns, stopgaps = COPING[lang]
        for base in rng.sample(bases, k=min(len(bases), 90 if lang == "en" else 70)):
            pattern = rng.choice(patterns)
            message = pattern.format(w=rng.choice(stopgaps)) + rng.choice(THANKS[lang])
            added.append(
                _asked_row(
                    rng, base, message, "update", "workaround", f"{lang}:workaround:{pattern}"
                )
            )
    return added
