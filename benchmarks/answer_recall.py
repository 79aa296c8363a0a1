"""Retrieval recall of the answering path: is a section that answers the question among the
hits of the knowledge search for k=5 (`KnowledgeSkill.search(..., meaning=True)`, as the
answering controller asks it: for a Chinese or mixed question, the words' first five and up to
`knowledge.meaning.MEANING_EXTRA` more found on meaning)?

Rows: the answerable questions of brain/data/answer_pairs.jsonl; a question's right sections
are the (source, section) of its passages labelled 1. Verification can only pass a passage that
retrieval found, so this bounds how many answerable questions can be answered. Totals only,
per split and language.

    PYTHONPATH=. nice -n 10 python benchmarks/answer_recall.py [--split holdout] [--k 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PAIRS = Path(__file__).resolve().parents[1] / "brain" / "data" / "answer_pairs.jsonl"


def answers(split: str) -> dict[tuple[str, str], set[tuple[str, str]]]:
    """(question, language) -> the (source, section) of every passage that answers it."""
    right: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
    for line in PAIRS.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["split"] == split and row["label"] == 1:
            right[(row["question"], row["lang"])].add((row["source"], row["section"]))
    return right


def run(split: str, k: int) -> dict[str, dict[str, float]]:
    """language ("all" too) -> questions and the share whose answer is in the first k."""
    os.environ.setdefault("BRAIN_HOME", tempfile.mkdtemp(prefix="brain-recall-"))
    from brain.engine import Brain

    found: dict[str, list[int]] = defaultdict(list)
    with Brain.open() as brain:
        knowledge = brain.services.knowledge
        assert knowledge is not None
        for (question, lang), right in sorted(answers(split).items()):
            hits = knowledge.search(question, k=k, meaning=True)
            hit = int(any((_relative(h.source), h.section) in right for h in hits))
            found[lang].append(hit)
            found["all"].append(hit)
    return {lang: {"n": len(v), "recall": round(sum(v) / len(v), 3)} for lang, v in found.items()}


def _relative(source: str) -> str:
    """A hit's source as the pairs name it: relative to the sample knowledge base's folder."""
    marker = "/knowledge/sample/"
    return source.split(marker, 1)[1] if marker in source else source


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default="holdout")
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    table = run(args.split, args.k)
    if args.json:
        print(json.dumps({"split": args.split, "k": args.k, **table}, indent=2))
        return 0
    for lang, rates in sorted(table.items()):
        print(f"{args.split} recall@{args.k} {lang}: {rates['recall']:.1%} (n={rates['n']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
