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
the nearest glossary entry, the passage nearest in meaning in the other language (the
multilingual encoder's cosine: words never cross scripts), and the five the knowledge base's
search would score best (its relevance); a fact's `also` passages (they touch the fact) are
never used. An unanswerable question is paired with its three nearest passages, nearest
glossary entry, nearest in the other language and the search's five best. A question is
paired with the answering passages in its own language (the others when it has none).

Split `holdout` (about a quarter of the facts and of the unanswerable groups, chosen by a hash
of the name, so no phrasing of a held-out fact or topic is in `train`) is never fitted or tuned
on. It is frozen: a run keeps the held-out rows the file already holds (a change of the
search's scoring would otherwise change which negatives they get, and move the yardstick), and
what was added later (scripts/answer_facts_more.py, scripts/answer_outside_more.py) is `train`
only. `kind` says what made the pair (answer, same_article, nearest, glossary, other_language,
retrieved, outside), `group`
the fact or topic, `phrasing` whether the question was written or is a typo variant.

Run: .venv/bin/python scripts/make_answer_pairs.py (MiniLM and the multilingual encoder pick
the meaning-nearest negatives); `benchmarks/answer_pairs.py` measures verifiers on the rows.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "benchmarks"))

from answer_facts import FACTS, Fact  # noqa: E402
from answer_facts_more import MORE_PHRASINGS  # noqa: E402
from answer_facts_ops import OPS_FACTS  # noqa: E402
from answer_outside import OUTSIDE  # noqa: E402
from answer_outside_more import OUTSIDE_MORE  # noqa: E402

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
            if kind not in ("doc", "glossary"):  # what a question's search returns
                continue
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
    question: str,
    passage: Passage,
    label: int,
    kind: str,
    group: str,
    phrasing: str,
    split: str | None = None,
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
        "split": split or split_of(group),
    }


def _check(fact: Fact, pool: dict[str, Passage]) -> None:
    missing = [k for k in (*fact.answers, *fact.also) if k not in pool]
    if missing:
        raise SystemExit(f"{fact.name}: no such passage {missing}")


class OtherLanguage:
    """The passages nearest in meaning in the other language (the multilingual encoder's
    cosine): words never cross scripts, so without these every negative would be in the
    question's language and every translated answer a positive."""

    def __init__(self, pool: dict[str, Passage]) -> None:
        from core.text.language import is_chinese
        from core.text.multilingual import multilingual_vectors

        self.encode = multilingual_vectors
        self.keys = list(pool)
        self.chinese = [is_chinese(pool[k].text.split("\n", 1)[-1]) for k in self.keys]
        vectors = multilingual_vectors([pool[k].text for k in self.keys])
        if vectors is None:
            raise SystemExit("the multilingual encoder is needed to pick other-language negatives")
        self.vectors = vectors
        self.is_chinese = is_chinese

    def own_language(self, question: str, keys: Sequence[str]) -> list[str]:
        """The passages of `keys` in the question's language (all of them when none is): a
        search finds a passage in the asker's words, and an English question is rarely given
        the Chinese summary of its article."""
        zh = self.is_chinese(question)
        language = dict(zip(self.keys, self.chinese, strict=True))
        own = [k for k in keys if language[k] == zh]
        return own or list(keys)

    def ranked(self, question: str) -> list[str]:
        zh = self.is_chinese(question)
        encoded = self.encode([question])
        assert encoded is not None
        cosines = self.vectors @ encoded[0]
        order = sorted(range(len(self.keys)), key=lambda i: (-float(cosines[i]), self.keys[i]))
        return [self.keys[i] for i in order if self.chinese[i] != zh]


class Retrieved:
    """The passages the knowledge base's search would score best for a question: its 0..1
    relevance of a hit (`benchmarks/answer_verifier.py: retrieval_score`: key-term share, MiniLM
    cosine, and for a Chinese question the multilingual cosine), over every passage; the
    negatives a verifier meets at run time. (The search itself is not asked: its fifth hit
    changes between runs on near ties, and the rows must not.)"""

    def __init__(self, pool: dict[str, Passage]) -> None:
        from core.text.embedder import get_dense_embedder
        from core.text.multilingual import multilingual_vectors

        embedder = get_dense_embedder()
        assert embedder is not None
        self.keys = list(pool)
        self.pool = pool
        self.minilm = embedder.embed
        self.use = multilingual_vectors
        self.dense = self.minilm([pool[k].text for k in self.keys])
        self.meaning = self.use([self._meaning_text(pool[k]) for k in self.keys])

    def _split(self, passage: Passage) -> tuple[str, str]:
        section = "glossary" if passage.kind == "glossary" else passage.key.partition("#")[2]
        text = passage.text if passage.kind == "glossary" else passage.text.split("\n", 1)[-1]
        return section, text

    def _meaning_text(self, passage: Passage) -> str:
        section, text = self._split(passage)
        return f"{passage.title} {section} {text}"

    def ranked(self, question: str, k: int = 5) -> list[str]:
        from answer_verifier import chinese_question, retrieval_score

        dense = self.dense @ self.minilm([question])[0]
        zh = chinese_question(question)
        meaning = self.meaning @ self.use([question])[0] if zh else None
        scores = []
        for i, key in enumerate(self.keys):
            passage = self.pool[key]
            section, text = self._split(passage)
            m = float(meaning[i]) if meaning is not None else None
            scores.append(
                retrieval_score(question, passage.title, section, text, float(dense[i]), m)
            )
        order = sorted(range(len(self.keys)), key=lambda i: (-round(scores[i], 4), self.keys[i]))
        return [self.keys[i] for i in order[:k]]


def fact_rows(
    fact: Fact,
    pool: dict[str, Passage],
    near: Nearest,
    other: OtherLanguage,
    retrieved: Retrieved,
    rng: random.Random,
) -> list[dict[str, object]]:
    _check(fact, pool)
    answers = set(fact.answers)
    banned = answers | set(fact.also)
    articles = {k.partition("#")[0] for k in fact.answers if pool[k].kind == "doc"}
    en, zh = MORE_PHRASINGS.get(fact.name, ((), ()))
    if (en or zh) and split_of(fact.name) != "train":
        raise SystemExit(f"{fact.name}: more phrasings go to train facts only")
    questions = [(q, "written") for q in (*fact.en, *fact.zh, *en, *zh)]
    questions.append((typo(fact.en[0], rng), "typo"))
    rows: list[dict[str, object]] = []
    for question, phrasing in questions:
        for key in other.own_language(question, fact.answers):
            rows.append(_row(question, pool[key], 1, "answer", fact.name, phrasing))
        ranked = [k for k in near.ranked(question) if k not in banned]
        docs = [k for k in ranked if pool[k].kind == "doc"]
        same = [k for k in docs if k.partition("#")[0] in articles]
        picked: list[tuple[str, str]] = [(k, "same_article") for k in same[:2]]
        taken = {k for k, _ in picked}
        picked += [(k, "nearest") for k in [k for k in docs if k not in taken][:2]]
        glossary = [k for k in ranked if pool[k].kind == "glossary"]
        picked += [(k, "glossary") for k in glossary[:1]]
        taken = {k for k, _ in picked}
        crossing = [k for k in other.ranked(question) if k not in banned and k not in taken]
        picked += [(k, "other_language") for k in crossing[:1]]
        taken = {k for k, _ in picked}
        found = [k for k in retrieved.ranked(question) if k not in banned and k not in taken]
        picked += [(k, "retrieved") for k in found]
        for key, kind in picked:
            rows.append(_row(question, pool[key], 0, kind, fact.name, phrasing))
    return rows


def outside_rows(
    pool: dict[str, Passage], near: Nearest, other: OtherLanguage, retrieved: Retrieved
) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    topics = [(group, en, zh, None) for group, en, zh in OUTSIDE]
    topics += [(group, en, zh, "train") for group, en, zh in OUTSIDE_MORE]
    for group, en, zh, split in topics:
        for question in (*en, *zh):
            ranked = near.ranked(question)
            docs = [k for k in ranked if pool[k].kind == "doc"][:3]
            glossary = [k for k in ranked if pool[k].kind == "glossary"][:1]
            crossing = [k for k in other.ranked(question) if k not in docs + glossary][:1]
            found = [k for k in retrieved.ranked(question) if k not in docs + glossary + crossing]
            for key in docs + glossary + crossing + found:
                rows.append(
                    _row(question, pool[key], 0, "outside", f"outside:{group}", "written", split)
                )
    return rows


def build() -> list[dict[str, object]]:
    pool = passages()
    near = Nearest(pool)
    other = OtherLanguage(pool)
    retrieved = Retrieved(pool)
    rng = random.Random(SEED)
    facts = (*FACTS, *OPS_FACTS)
    names = [f.name for f in facts]
    if len(set(names)) != len(names):
        raise SystemExit("duplicate fact names")
    rows: list[dict[str, object]] = []
    for fact in facts:
        rows += fact_rows(fact, pool, near, other, retrieved, rng)
    rows += outside_rows(pool, near, other, retrieved)
    return frozen(rows)


def frozen(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """`rows` with each held-out group's rows replaced by those the file already holds, in
    place (the holdout is a yardstick: regenerating must not change it)."""
    kept: dict[object, list[dict[str, object]]] = {}
    if OUT.exists():
        for line in OUT.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["split"] == "holdout":
                kept.setdefault(row["group"], []).append(row)
    out: list[dict[str, object]] = []
    done: set[object] = set()
    for row in rows:
        group = row["group"]
        if row["split"] != "holdout" or group not in kept:
            out.append(row)
        elif group not in done:
            done.add(group)
            out += kept[group]
    return out


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
