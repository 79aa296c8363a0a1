"""Write brain/data/answer_pairs.jsonl: (question, passage, label) pairs over the shipped
knowledge base, label 1 when the passage answers the question, 0 when it does not.

The passages are the knowledge base's own chunks (knowledge/sample, cut by the ingest's
parser, so a passage is what a search returns: "title — section" and the section's text).
The questions come from scripts/answer_facts.py and scripts/answer_facts_ops.py (facts the
articles hold, each asked several ways in English and Chinese, paired with every passage that
holds the fact) and scripts/answer_outside.py (questions the knowledge base does not answer:
facilities, HR, travel, office life, trivia, and IT matters no article covers). Each fact's
first English question is also written with a typo.

Negatives are the hard ones a search would put first: the answering article's other sections
(same system, another question), the passages nearest by words over the whole knowledge base,
and the nearest glossary entry; a fact's `also` passages (they touch the fact) are never used.
An unanswerable question is paired with its three nearest passages and nearest glossary entry.

Split `holdout` (about a quarter of the facts and of the unanswerable groups, chosen by a hash
of the name, so no phrasing of a held-out fact or topic is in `train`) is never fitted or tuned
on. `kind` says what made the pair (answer, same_article, nearest, glossary, outside), `group`
the fact or topic, `phrasing` whether the question was written or is a typo variant.

Run: .venv/bin/python scripts/make_answer_pairs.py
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from answer_facts import FACTS, Fact  # noqa: E402
from answer_facts_ops import OPS_FACTS  # noqa: E402
from answer_outside import OUTSIDE  # noqa: E402

from knowledge.parsing import decode, parse  # noqa: E402

KB = ROOT / "knowledge" / "sample"
OUT = ROOT / "brain" / "data" / "answer_pairs.jsonl"
#: One group in HOLDOUT_EVERY goes to the holdout split.
HOLDOUT_EVERY = 4
SEED = 39


@dataclass(frozen=True, slots=True)
class Passage:
    """One chunk of the shipped knowledge base, keyed "source#section" (a glossary entry by
    its term)."""

    key: str
    text: str
    title: str
    kind: str


def passages() -> dict[str, Passage]:
    """Every chunk an ingest of knowledge/sample stores, by key."""
    found: dict[str, Passage] = {}
    for path in sorted(KB.rglob("*")):
        if not path.is_file():
            continue
        source = path.relative_to(KB).as_posix()
        for chunk in parse(path, decode(path, path.read_bytes()), source):
            payload = chunk.payload
            kind = str(payload["kind"])
            name = str(payload["section"]) if kind == "doc" else str(payload["title"])
            key = f"{source}#{name}"
            if key in found:  # a section cut in two pieces: keep the first
                continue
            found[key] = Passage(key, chunk.text, str(payload["title"]), kind)
    return found


_WORD = re.compile(r"[a-z0-9][a-z0-9_\-']*")
_CJK = re.compile(r"[\u4e00-\u9fff]+")


def tokens(text: str) -> list[str]:
    """Words of Latin script and character uni- and bigrams of Chinese."""
    lowered = text.lower()
    out = [w for w in _WORD.findall(lowered) if len(w) > 1]
    for run in _CJK.findall(lowered):
        out += list(run)
        out += [run[i : i + 2] for i in range(len(run) - 1)]
    return out


class Nearest:
    """TF-IDF cosine over the passages: what 'nearest by words' means here."""

    def __init__(self, pool: dict[str, Passage]) -> None:
        self.keys = list(pool)
        counts = [Counter(tokens(pool[k].text)) for k in self.keys]
        df: Counter[str] = Counter()
        for c in counts:
            df.update(c.keys())
        n = len(counts)
        self.idf = {t: math.log((n + 1) / (d + 1)) + 1 for t, d in df.items()}
        self.vectors = [self._vector(c) for c in counts]

    def _vector(self, counts: Counter[str]) -> dict[str, float]:
        vec = {t: (1 + math.log(c)) * self.idf.get(t, 1.0) for t, c in counts.items()}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        return {t: v / norm for t, v in vec.items()}

    def ranked(self, question: str) -> list[str]:
        q = self._vector(Counter(tokens(question)))
        scores = [sum(w * v.get(t, 0.0) for t, w in q.items()) for v in self.vectors]
        order = sorted(range(len(self.keys)), key=lambda i: (-scores[i], self.keys[i]))
        return [self.keys[i] for i in order]


def split_of(group: str) -> str:
    digest = int(hashlib.sha1(f"answer:{group}".encode()).hexdigest(), 16)
    return "holdout" if digest % HOLDOUT_EVERY == 0 else "train"


def typo(text: str, rng: random.Random) -> str:
    """`text` with two neighbouring letters of one longer word swapped."""
    words = text.split(" ")
    long_words = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
    if not long_words:
        return text
    i = rng.choice(long_words)
    w = words[i]
    j = rng.randrange(1, len(w) - 2)
    words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2 :]
    return " ".join(words)


def language(text: str) -> str:
    return "zh" if _CJK.search(text) else "en"


def _row(
    question: str, passage: Passage, label: int, kind: str, group: str, phrasing: str
) -> dict[str, object]:
    source, _, section = passage.key.partition("#")
    return {
        "question": question,
        "passage": passage.text,
        "title": passage.title,
        "source": source,
        "section": section,
        "passage_kind": passage.kind,
        "label": label,
        "kind": kind,
        "lang": language(question),
        "group": group,
        "phrasing": phrasing,
        "split": split_of(group),
    }


def _check(fact: Fact, pool: dict[str, Passage]) -> None:
    missing = [k for k in (*fact.answers, *fact.also) if k not in pool]
    if missing:
        raise SystemExit(f"{fact.name}: no such passage {missing}")


def fact_rows(
    fact: Fact, pool: dict[str, Passage], near: Nearest, rng: random.Random
) -> list[dict[str, object]]:
    _check(fact, pool)
    answers = set(fact.answers)
    banned = answers | set(fact.also)
    articles = {k.partition("#")[0] for k in fact.answers if pool[k].kind == "doc"}
    questions = [(q, "written") for q in (*fact.en, *fact.zh)]
    questions.append((typo(fact.en[0], rng), "typo"))
    rows: list[dict[str, object]] = []
    for question, phrasing in questions:
        for key in fact.answers:
            rows.append(_row(question, pool[key], 1, "answer", fact.name, phrasing))
        ranked = [k for k in near.ranked(question) if k not in banned]
        docs = [k for k in ranked if pool[k].kind == "doc"]
        same = [k for k in docs if k.partition("#")[0] in articles]
        picked: list[tuple[str, str]] = [(k, "same_article") for k in same[:2]]
        taken = {k for k, _ in picked}
        picked += [(k, "nearest") for k in [k for k in docs if k not in taken][:2]]
        glossary = [k for k in ranked if pool[k].kind == "glossary"]
        picked += [(k, "glossary") for k in glossary[:1]]
        for key, kind in picked:
            rows.append(_row(question, pool[key], 0, kind, fact.name, phrasing))
    return rows


def outside_rows(pool: dict[str, Passage], near: Nearest) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for group, en, zh in OUTSIDE:
        for question in (*en, *zh):
            ranked = near.ranked(question)
            docs = [k for k in ranked if pool[k].kind == "doc"][:3]
            glossary = [k for k in ranked if pool[k].kind == "glossary"][:1]
            for key in docs + glossary:
                rows.append(_row(question, pool[key], 0, "outside", f"outside:{group}", "written"))
    return rows


def build() -> list[dict[str, object]]:
    pool = passages()
    near = Nearest(pool)
    rng = random.Random(SEED)
    facts = (*FACTS, *OPS_FACTS)
    names = [f.name for f in facts]
    if len(set(names)) != len(names):
        raise SystemExit("duplicate fact names")
    rows: list[dict[str, object]] = []
    for fact in facts:
        rows += fact_rows(fact, pool, near, rng)
    rows += outside_rows(pool, near)
    return rows


def main() -> None:
    rows = build()
    OUT.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    by = Counter((r["split"], r["label"]) for r in rows)
    groups = Counter(split for _, split in {(r["group"], r["split"]) for r in rows})
    print(
        f"{len(rows)} pairs -> {OUT.relative_to(ROOT)}: {dict(sorted(by.items()))};",
        f"groups {dict(groups)}",
    )


if __name__ == "__main__":
    main()
