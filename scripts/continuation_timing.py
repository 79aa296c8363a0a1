"""Questions about when the thread's record will be done, for the continuation set's train
split (`make_continuation_set.py`).

"how long will it take to fix?" after a VPN report was read as a question about the record's
subject (0.59 against status 0.39) and answered with the first passage of the VPN page, and
"how long does it usually take you to fix these?" likewise (0.88): the set said "how long will
this take?" and "还要等多久" as status, and "what's the usual fix for this?" as a question, so a
question about time that also names the work ("fix", "sort out", "修好") leaned to the question.
Here the asker's time questions are status (the record's state, and when its team aims to
answer, is what answers them) in many forms: how long, by when, today or not, the usual
turnaround, in English and Chinese, for every kind of record. Tried and dropped: beside them,
questions about how long something of the subject lasts ("how long does the new password stay
valid?") as questions about the record; on the held-out split new questions with a subject of
their own were then read as continuing (0.989 -> 0.901), as those questions bring a subject of
their own too.

How they were written: patterns invented for this file, none from the conversation benchmark's
splits or the held-out author's pools; the records are the train split's own records with no
question waiting. Appended after the other families with a random stream of their own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from continuation_questions import _asked_row, first_rows

#: When will the record's work be done: status, whatever the record is.
WHEN_DONE = {
    "en": [
        "how long will it take to fix?",
        "how long until it's fixed?",
        "roughly how long will this take to sort out?",
        "how long do these usually take?",
        "how long does it usually take you to fix these?",
        "any idea how long the repair takes?",
        "how soon can someone fix it?",
        "when do you think it'll be working again?",
        "is this going to take hours or days?",
        "what's the usual turnaround on these?",
        "how long before someone gets to it?",
        "by when will this be resolved?",
        "will it be fixed today?",
        "can I expect it done before the weekend?",
        "how many days does something like this take?",
        "how long is the wait for this usually?",
        "will this be sorted by tomorrow morning?",
        "how long till it's done?",
        "do you have a rough timeline for the fix?",
        "is there an estimate for when it's done?",
        "how long will I be without it?",
        "what's the expected time to resolve this?",
        "should I expect this to take long?",
        "how quickly do you normally handle these?",
        "how long will the approval take?",
        "when can I expect it to be set up?",
    ],
    "zh": [
        "多久能修好",
        "大概要多久才能修好",
        "一般要处理多久",
        "这种问题通常多久能解决",
        "今天之内能修好吗",
        "什么时候能恢复正常",
        "要等几天",
        "大概几点能好",
        "修好要多长时间",
        "这类工单一般多久处理完",
        "周末前能搞定吗",
        "明天上午之前能好吗",
        "有没有预计的完成时间",
        "估计要多长时间",
        "大概什么时候能处理完",
        "一般几天能批下来",
        "要等很久吗",
        "这个处理周期一般多长",
        "什么时候能弄好给个准信",
        "预计多久能开通",
    ],
}


def timing_rows(rows: Sequence[dict[str, object]], seed: int = 7) -> list[dict[str, object]]:
    """For a sample of the train split's records with no question waiting (the first row of
    each): one time question about the work (status)."""
    rng = random.Random(f"{seed}-timing")
    records = first_rows(rows)
    added: list[dict[str, object]] = []
    for lang, bases in records.items():
        for base in rng.sample(bases, k=min(len(bases), 140 if lang == "en" else 100)):
            pattern = rng.choice(WHEN_DONE[lang])
            message = pattern.capitalize() if lang == "en" and rng.random() < 0.3 else pattern
            if lang == "zh" and rng.random() < 0.5:
                message += "？"
            added.append(
                _asked_row(rng, base, message, "status", "when_done", f"{lang}:when_done:{pattern}")
            )
    return added
