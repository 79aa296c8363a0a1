"""Answer verification on labelled question-passage pairs: the product's word-and-cosine rules
(`controllers.verification.verify`), and a learned verifier (`benchmarks/answer_verifier.py`)
fitted now on the train split, by itself and beside the rules (a passage passes on the rules'
verdict or on the model's at its bar). Each bar is chosen on the train split's out-of-fold
readings (the most answers while refusing as many unanswerable questions as the rules).

Rows: brain/data/answer_pairs.jsonl (`scripts/make_answer_pairs.py`). The `holdout` split
(whole facts and unanswerable topics) is never fitted or tuned on; `train` figures are the
out-of-fold readings. A question's passages are read together, as the answering controller
reads what it retrieved: an answerable question is answered when a passage that answers it
passes, an unanswerable one refused when none does, of the three passages it would read (the
best by the retrieval's relevance). Totals only; `ceiling` is what a verifier passing every
answering passage would answer (the rest are not among the three read).

    PYTHONPATH=. nice -n 10 python benchmarks/answer_pairs.py [--split holdout] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> int:
    from answer_verifier import (
        fit_train,
        full_design,
        labelled,
        pairs,
        question_rates,
        readings,
        rules_verdicts,
    )

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default="holdout")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    table: dict[str, dict[str, float]] = {}
    rows = labelled(args.split)
    read = readings(rows)
    all_pairs = pairs(rows, read)
    x = full_design(rows, all_pairs)
    scores = [p.score for p in all_pairs]
    rules = rules_verdicts(rows, read, all_pairs)
    table["rules"] = question_rates(rows, rules, scores)
    for alone in (False, True):
        name = "model_alone" if alone else "rules_or_model"
        model, train, train_rules, train_scores = fit_train(alone)
        oof = [bool(p >= model.bar) for p in model.out_of_fold]
        if not alone:
            oof = [o or r for o, r in zip(oof, train_rules, strict=True)]
        table[f"train_oof_{name}"] = {
            **question_rates(train, oof, train_scores),
            "bar": model.bar,
        }
        passed = [bool(p >= model.bar) for p in model.probabilities(x)]
        if not alone:
            passed = [p or r for p, r in zip(passed, rules, strict=True)]
        table[name] = {**question_rates(rows, passed, scores), "bar": model.bar}
    table["train_oof_rules"] = question_rates(train, train_rules, train_scores)
    # What any verifier could answer: the answering passage is among the three read.
    table["ceiling"] = question_rates(rows, [r.row["label"] == 1 for r in rows], scores)
    table["train_ceiling"] = question_rates(
        train, [r.row["label"] == 1 for r in train], train_scores
    )
    if args.json:
        print(json.dumps({"split": args.split, **table}, indent=2))
        return 0
    for name, rates in table.items():
        split = "train" if name.startswith("train_") else args.split
        print(f"{split} {name}: " + " ".join(f"{k} {v}" for k, v in rates.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
