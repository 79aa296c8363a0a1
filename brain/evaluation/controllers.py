"""Controllers built from labelled rows for `brain eval --train`: one declarative controller
per label, named after it, described by its words, with keywords mined from its examples."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from brain.learning.labelled import LabelledRow
from core.errors import EvalError

if TYPE_CHECKING:
    from controllers.declarative import DeclarativeController


#: Keywords mined per label: at most this many, each in >= MIN_SHARE of the label's examples
#: and with >= MIN_PURITY of its occurrences in that label. Broad on purpose: the engine treats
#: a message with no keyword hit at all as vague (never routed), so nearly every in-scope message
#: must hit some keyword (98% of CLINC val); which controller wins is the other signals' job.
MAX_KEYWORDS = 30
MIN_SHARE = 0.02
MIN_PURITY = 0.1
_WORD = re.compile(r"[a-z0-9]+(?:[._+#'-][a-z0-9]+)*")
_STOPWORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "to",
        "of",
        "in",
        "on",
        "for",
        "is",
        "are",
        "was",
        "be",
        "i",
        "me",
        "my",
        "you",
        "your",
        "it",
        "its",
        "this",
        "that",
        "what",
        "how",
        "can",
        "could",
        "would",
        "should",
        "will",
        "do",
        "does",
        "did",
        "please",
        "tell",
        "with",
        "from",
        "at",
        "by",
        "about",
        "have",
        "has",
        "not",
        "any",
        "there",
        "their",
        "them",
        "they",
        "we",
        "our",
        "us",
    ]
)


def label_name(label: str) -> str:
    """A label's valid lower_snake controller name, before making it unique ("Access" ->
    "access", "HR Support" -> "hr_support")."""
    base = re.sub(r"[^a-z0-9_]+", "_", label.lower()).strip("_") or "label"
    if not base[0].isalpha():
        base = "c_" + base
    return base[:60]


def controller_name(label: str, taken: set[str]) -> str:
    """A valid lower_snake controller name for a label (unique among `taken`)."""
    base = label_name(label)
    name, suffix = base, 2
    while name in taken:
        name, suffix = f"{base[:56]}_{suffix}", suffix + 1
    taken.add(name)
    return name


def mine_keywords(examples: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """Words frequent in one label's examples and rare in the others' (its keywords)."""
    per_label: dict[str, Counter[str]] = {}
    overall: Counter[str] = Counter()
    for label, texts in examples.items():
        counts: Counter[str] = Counter()
        for text in texts:
            counts.update(
                {w for w in _WORD.findall(text.lower()) if len(w) > 2 and w not in _STOPWORDS}
            )
        per_label[label] = counts
        overall.update(counts)
    mined: dict[str, list[str]] = {}
    for label, counts in per_label.items():
        needed = max(2, math.ceil(MIN_SHARE * len(examples[label])))
        ranked = sorted(
            (
                (count / overall[word], count, word)
                for word, count in counts.items()
                if count >= needed and count / overall[word] >= MIN_PURITY
            ),
            reverse=True,
        )
        mined[label] = [word for _, _, word in ranked[:MAX_KEYWORDS]]
    return mined


def controllers_from_rows(
    rows: Sequence[LabelledRow],
) -> tuple[list[DeclarativeController], dict[str, str]]:
    """One declarative controller per in-scope label, and label -> controller name."""
    from controllers.declarative import DeclarativeController

    examples: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        if row.label is not None:
            examples[row.label].append(row.text)
    if len(examples) < 2:
        raise EvalError("--train needs at least two in-scope labels")
    keywords = mine_keywords(examples)
    taken: set[str] = set()
    names = {label: controller_name(label, taken) for label in sorted(examples)}
    controllers = [
        DeclarativeController(
            name=names[label],
            label=label,
            description=re.sub(r"[_\-./]+", " ", label).strip(),
            keywords=keywords[label],
            examples=examples[label],
            handler="none",
            origin="eval",
        )
        for label in sorted(examples)
    ]
    return controllers, names


# -- running the brain -------------------------------------------------------------------
