"""The answering path on the labelled questions, end to end: which passages the answering
controller reads of what the knowledge search finds (`controllers.answering.gather`, then
`read_first`, the first `MAX_PASSAGES`), and the verification rules on them (`verdict_of`).

`benchmarks/answer_pairs.py` reads each question's labelled passages, ordered by a relevance
recomputed from the pairs; this reads what the product's search returns, in the product's
order, so its `ceiling` (a passage answering the question is among those read) is the most
any verifier could answer through the product as it is. Rows: brain/data/answer_pairs.jsonl
(`scripts/make_answer_pairs.py`): a question's right sections are the (source, section) of
its passages labelled 1 (a glossary entry by its term); a "what is X" question's glossary
definition, which the controller answers with whatever the passages say, counts as one more
passage read and passed; a question of kind `outside` has none and should be refused. The
`holdout` split is for totals only; nothing is fitted here.

    PYTHONPATH=. nice -n 10 python benchmarks/answer_reading.py [--split holdout] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PAIRS = Path(__file__).resolve().parents[1] / "brain" / "data" / "answer_pairs.jsonl"


@dataclass(slots=True)
class Question:
    """One labelled question: its text, language and the sections that answer it."""

    text: str
    lang: str
    outside: bool
    right: set[tuple[str, str]] = field(default_factory=set)


def questions(split: str) -> list[Question]:
    found: dict[tuple[str, str], Question] = {}
    for line in PAIRS.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["split"] != split:
            continue
        key = (row["question"], row["lang"])
        asked = found.setdefault(
            key, Question(row["question"], row["lang"], row["kind"] == "outside")
        )
        if row["label"] == 1:
            asked.right.add((row["source"], row["section"]))
    return [found[key] for key in sorted(found)]


def _key(hit_source: str, section: str, title: str) -> tuple[str, str]:
    """A hit's (source, section) as the pairs name it: a glossary entry's hit has the section
    "glossary" and the entry's term as its title, and the pairs name the entry by its term."""
    return (_relative(hit_source), title if section == "glossary" else section)


def _relative(source: str) -> str:
    """A hit's source as the pairs name it: relative to the sample knowledge base's folder."""
    marker = "/knowledge/sample/"
    return source.split(marker, 1)[1] if marker in source else source


def run(split: str) -> dict[str, dict[str, float]]:
    """Per language ("all" too): answerable questions, the ceiling, answered (a right passage
    passes), answered from a wrong passage only, unanswerable questions and refused."""
    os.environ.setdefault("BRAIN_HOME", tempfile.mkdtemp(prefix="brain-reading-"))
    from brain.engine import Brain
    from controllers.answering import (
        MAX_PASSAGES,
        closest_meaning,
        gather,
        read_first,
        verdict_of,
    )

    counts: dict[str, Counter[str]] = {"all": Counter(), "en": Counter(), "zh": Counter()}
    with Brain.open() as brain:
        knowledge = brain.services.knowledge
        assert knowledge is not None
        for asked in questions(split):
            evidence = gather(knowledge, asked.text)
            read = read_first(evidence.hits)[:MAX_PASSAGES]
            closest = closest_meaning(read)
            passed = [
                verdict_of(asked.text, hit, None, closest, evidence.named).passed for hit in read
            ]
            right = [_key(hit.source, hit.section, hit.title) in asked.right for hit in read]
            # A "what is X" question's glossary entry is answered whatever the passages say
            # (`controllers.answering.answer`): it counts as one more passage, passed.
            if evidence.definition is not None:
                term = evidence.definition
                passed.append(True)
                right.append(_key(term.source, "glossary", term.term) in asked.right)
            for lang in ("all", "en" if asked.lang == "en" else "zh"):
                tally = counts[lang]
                if asked.outside:
                    tally["unanswerable"] += 1
                    tally["refused"] += not any(passed)
                    continue
                answered = any(p and r for p, r in zip(passed, right, strict=True))
                tally["answerable"] += 1
                tally["ceiling"] += any(right)
                tally["answered"] += answered
                tally["answered_wrong_passage"] += not answered and any(passed)
    return {lang: _rates(tally) for lang, tally in counts.items()}


def _rates(tally: Counter[str]) -> dict[str, float]:
    answerable, unanswerable = max(tally["answerable"], 1), max(tally["unanswerable"], 1)
    return {
        "answerable": tally["answerable"],
        "ceiling": round(tally["ceiling"] / answerable, 4),
        "answered": round(tally["answered"] / answerable, 4),
        "answered_wrong_passage": round(tally["answered_wrong_passage"] / answerable, 4),
        "unanswerable": tally["unanswerable"],
        "refused": round(tally["refused"] / unanswerable, 4),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default="holdout")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    table = run(args.split)
    if args.json:
        print(json.dumps({"split": args.split, **table}, indent=2))
        return 0
    for lang, rates in table.items():
        print(f"{args.split} {lang}: " + " ".join(f"{k} {v}" for k, v in rates.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
