"""The bar at which a passage word covers a question's key term by meaning
(`knowledge.term_meaning.NEAR_BAR`), swept on labelled question-passage pairs.

For each bar, the product's verification rules (`controllers.verification.verify`) read every
question's passages as the answering controller would (its best three by retrieval relevance),
and the share of answerable questions answered by a right passage and of unanswerable ones
refused is printed. The bar is chosen on the `train` split: the most answers while refusing
at least as many unanswerable questions as exact terms alone (the first row, bar off). The
`holdout` split is for the before/after reading of the chosen bar only.

    PYTHONPATH=. nice -n 10 python benchmarks/term_bar.py [--split train] [--bars 0.6,0.7]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

#: Bars tried by default; above 1 no word is near enough (exact terms alone).
BARS = (1.01, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5)


def main() -> int:
    from answer_verifier import labelled, pairs, question_rates, readings, rules_verdicts

    import knowledge.term_meaning as term_meaning

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default="train")
    parser.add_argument("--bars", default=",".join(map(str, BARS)))
    args = parser.parse_args()
    rows = labelled(args.split)
    read = readings(rows)
    all_pairs = pairs(rows, read)
    scores = [p.score for p in all_pairs]
    for bar in (float(b) for b in args.bars.split(",")):
        term_meaning.NEAR_BAR = bar
        rates = question_rates(rows, rules_verdicts(rows, read, all_pairs), scores)
        print(f"{args.split} bar {bar}: " + " ".join(f"{k} {v}" for k, v in rates.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
