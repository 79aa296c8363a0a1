"""What a user sees next, for the continuation set's train split (`make_continuation_set.py`):
the symptoms a person describes after a report, in words that share nothing with it.

"my laptop won't turn on", then "the fan spins but the screen stays dark": a person describes
what they see, not the category they reported, and the model read such a sentence as a new
problem (P(continue) 0.03) because nothing but its topic ties it to the record. The progress
family (`continuation_progress`) holds one or two symptoms per topic; this one holds many per
topic, for many more devices, applications and places, and, as new work, reports of other
areas' problems in the same thread (unmarked or marked), so the model learns whether the two are
about one thing. Other topics' symptoms were tried as new work too and cost the held-out
author's follow-ups (continued 0.923 -> 0.855): a bare symptom in a thread is nearly always
about the thread's problem.

How they were written (`continuation_symptoms.json`): per topic, in English and Chinese
separately, the ways a report is first
made and five to eight things a user then observes (lights, sounds, screens, timings, what
works and what does not), in words written for this file (none from the conversation
benchmark's splits). Each thread is a topic's report, two or three of its symptoms, and one or
two reports of other areas as new. The folds keep a topic together, so
calibration sees topics it was not fitted on. Appended after the other families with a random
stream of their own, so the other rows do not move.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from continuation_progress import topic_row


@dataclass(frozen=True)
class Symptoms:
    """One problem, the ways it is reported and what its reporter sees next."""

    #: What it is about; another topic's line is new work only from another area (a projector's
    #: blank wall after a monitor's report may well be the same problem).
    area: str
    reports: Sequence[str]
    seen: Sequence[str]
    kind: str = "incident"


#: The topics, per language, as data (`continuation_symptoms.json`: area, reports, seen).
TOPICS = Path(__file__).with_suffix(".json")


def topics(lang: str) -> tuple[Symptoms, ...]:
    """The language's topics, in file order (the rows' random stream follows it)."""
    data = json.loads(TOPICS.read_text(encoding="utf-8"))
    return tuple(Symptoms(t["area"], t["reports"], t["seen"]) for t in data[lang])


#: How another topic's line is sometimes marked as new (the rest are unmarked).
MARKERS = {
    "en": ["also", "oh and", "separately,", "different thing:"],
    "zh": ["另外，", "还有个事，", "顺便说一下，"],
}


def _thread(
    rng: random.Random, lang: str, index: int, topic: Symptoms, topics: Sequence[Symptoms]
) -> list[dict[str, object]]:
    """One thread: the topic's report, two or three of its symptoms, then one or two reports of
    other areas as new."""
    record = rng.choice(list(topic.reports))
    minutes = rng.choice([1.0, 5.0, 20.0, 90.0, 600.0])

    def row(message: str, label: str, family: str) -> dict[str, object]:
        if lang == "en" and rng.random() < 0.3:
            message = message.capitalize()
        return topic_row(
            rng,
            lang,
            topic.kind,
            record,
            message,
            minutes,
            label,
            family,
            domain=f"{lang}-symptom{index}",
            group=f"{lang}:symptom:{index}",
        )

    rows = [row(s, "update", "symptom") for s in rng.sample(list(topic.seen), k=rng.choice([2, 3]))]
    for _ in range(rng.choice([1, 2])):
        other = rng.choice([t for t in topics if t.area != topic.area])
        text = rng.choice(list(other.reports))
        if rng.random() < 0.25:
            lead = rng.choice(MARKERS[lang])
            text = f"{lead} {text}" if lang == "en" else lead + text
        rows.append(row(text, "new", "new_topic"))
    return rows


def symptom_rows(seed: int, threads_per_topic: int = 5) -> list[dict[str, object]]:
    """Train rows: each topic's threads with its symptoms and other topics' lines as new."""
    rng = random.Random(f"{seed}-symptoms")
    rows: list[dict[str, object]] = []
    for lang in ("en", "zh"):
        written = topics(lang)
        for index, topic in enumerate(written):
            for _ in range(threads_per_topic):
                rows.extend(_thread(rng, lang, index, topic, written))
    return rows
