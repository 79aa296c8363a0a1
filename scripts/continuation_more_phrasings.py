"""More ways to answer the bot's question for a window, to ask how a record stands and to say
thanks, for the continuation set's train split (`make_continuation_set.py`).

Tried as a new user would, "时间定在明晚11点" after "still need: window" was read as a new
request, "周六早上6点到8点" and "the window would be saturday 6-8am" were asked about, and
"什么时候能开通？" after an access request was answered as an unrelated question: the train
author's pools held few of these. How they were written: the answers as people give a time
(a bare time, "let's do …", "窗口定在 …", with a reason after it), with times of their own; the
status questions and thank-yous as said about any request (access, a repair, a booking, a
refund), English and Chinese. None is a phrasing of the held-out author's pools
(`continuation_authors.holdout_authors`), which stay unread. The rows are appended after the
generated threads with a random stream of their own, so the other rows do not move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

WINDOW_ANSWERS: dict[str, tuple[Sequence[str], Sequence[str]]] = {
    "en": (
        [
            "{v}",
            "the window would be {v}",
            "let's do {v}",
            "{v} works for us",
            "we can take {v}",
            "how about {v}",
            "{v} is best",
            "plan it for {v}",
            "schedule it {v}",
            "{v}, after the batch finishes",
            "ideally {v}",
        ],
        [
            "saturday 6-8am",
            "sunday night after 11",
            "tomorrow 22:00-23:00",
            "friday evening from 8",
            "next tuesday 2am",
            "tonight between 10 and 11",
            "the first weekend of next month",
            "wednesday lunchtime, 12-1",
            "any night this week after 9pm",
        ],
    ),
    "zh": (
        [
            "{v}",
            "{v}吧",
            "窗口定在{v}",
            "时间定在{v}",
            "就{v}",
            "{v}可以",
            "安排在{v}",
            "{v}比较合适",
            "我们选{v}",
            "{v}，等批处理跑完",
        ],
        [
            "周六早上6点到8点",
            "明晚11点",
            "周日凌晨2点",
            "下周二晚上10点到12点",
            "今晚十点以后",
            "这周五下班后",
            "月底最后一个周末",
            "周三中午12点到1点",
        ],
    ),
}

STATUS: dict[str, Sequence[str]] = {
    "en": [
        "when will this be done?",
        "when can I expect access?",
        "how much longer?",
        "any word on this?",
        "where are we with this?",
        "is this being worked on?",
        "did anyone pick this up yet?",
        "still waiting on this one",
        "what's the ETA on this?",
        "has this been approved yet?",
        "is it sorted yet?",
        "how's it going with this?",
    ],
    "zh": [
        "什么时候能开通？",
        "什么时候能好？",
        "现在卡在哪个环节了？",
        "批下来了吗？",
        "还要等多久？",
        "有人接手了吗？",
        "处理得怎么样了？",
        "今天能弄好吗？",
        "还在排队吗？",
        "审批过了没？",
        "能帮忙催一下吗",
        "现在什么情况了",
    ],
}

CLOSING: dict[str, Sequence[str]] = {
    "en": [
        "cheers, that's everything",
        "perfect, thank you!",
        "ok that's all I needed",
        "thanks so much",
        "great, appreciate it",
        "got it, thanks",
        "awesome thx",
        "that's it from me, thanks",
        "ty!",
        "much appreciated",
    ],
    "zh": [
        "好的谢谢",
        "收到，谢谢",
        "明白了，多谢",
        "谢谢你",
        "好的，辛苦了",
        "ok 谢谢",
        "感谢",
        "了解了，谢谢",
        "好，就这些",
        "麻烦你了，谢谢",
    ],
}


def more_rows(rows: Sequence[dict[str, object]], seed: int = 7) -> list[dict[str, object]]:
    """For the train split's threads (each thread's first row gives the record): two or three
    answers where the bot asked for a window, and for about half of them a status question
    or a thank-you."""
    rng = random.Random(f"{seed}-train-more")
    added: list[dict[str, object]] = []
    seen: set[tuple[str, str]] = set()

    def row(base: dict[str, object], message: str, label: str, pattern: str) -> None:
        added.append(
            {
                **base,
                "message": message,
                "same_user": True,
                "minutes": round(rng.uniform(0.5, 2000.0), 1),
                "label": label,
                "family": label,
                "template": f"{base['lang']}:{label}_more:{pattern}",
            }
        )

    for base in rows:
        key = (str(base["record"]), str(base["question"]))
        if base["split"] != "train" or key in seen:
            continue
        seen.add(key)
        lang = str(base["lang"])
        if base["question"] == "window":
            patterns, values = WINDOW_ANSWERS[lang]
            for pattern in rng.sample(list(patterns), k=rng.choice([2, 3])):
                row(base, pattern.format(v=rng.choice(values)), "answer", pattern)
        if rng.random() < 0.5:
            label = rng.choice(["status", "closing"])
            pattern = rng.choice(list((STATUS if label == "status" else CLOSING)[lang]))
            row(base, pattern, label, pattern)
    return added
