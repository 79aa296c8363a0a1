"""Organisation lessons in the semantic model: what a refit costs and what it teaches.

For each class of the dev set in `learning.CYCLE`, three users (U1-U3) ask the same TEACH
teaching rows and each corrects them to the class's "wanted" controller (`learning._wanted`):
an organisation lesson per row (`brain.learning.org_lessons`). The warmed brain refits its semantic
model in the background (`brain.learning.org_training`); then the class's held-out rows are scored
by
the semantic model alone (no memory involved) before and after, side by side: the share whose
top controller is the wanted one, over all held-out rows of the class and over the "near" ones
(those the memory finds similar to a taught row, the issue's near paraphrases). Rows of the
other labels show what the refit costs them (share still on their own label). Also: the refit
time, cold (the first: every training text embedded) and warm (a second refit after one more
lesson per class: embeddings kept), next to a full fit from scratch (`SemanticScorer._fit`).

Run: `.venv/bin/python benchmarks/org_training.py [--home FITTED_HOME] [--teach 3]`
(the home is copied, never changed; without one, a fresh home). Figures are reported, never
asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from learning import CYCLE, _pct, _wanted  # noqa: E402  (the learning benchmark's classes)

USERS = ("U1", "U2", "U3")


def _top(model: Any, text: str) -> str:
    scores = dict(model.score(text))
    return max(scores, key=lambda name: scores[name])


def _teach(brain: Any, texts: list[str], wanted: str, tag: str) -> None:
    from core.records import Message

    for user in USERS:
        for index, text in enumerate(texts):
            decision = brain.decide(Message(text, user=user, channel=f"C-{tag}-{user}-{index}"))
            if decision.controller != wanted:
                brain.feedback(decision.decision_id, "correct", controller=wanted, user=user)


def _shares(model: Any, held: dict[str, list[str]], near: dict[str, set[str]]) -> dict[str, Any]:
    hits = total = near_hits = near_total = 0
    for label, texts in held.items():
        wanted = _wanted(label)
        for text in texts:
            right = _top(model, text) == wanted
            hits += right
            total += 1
            if text in near[label]:
                near_hits += right
                near_total += 1
    return {"hits": hits, "total": total, "near_hits": near_hits, "near_total": near_total}


def _kept(model: Any, others: list[tuple[str, str]]) -> tuple[int, int]:
    return sum(_top(model, text) == label for text, label in others), len(others)


def run(home: Path, rows: list[Any], teach: int) -> dict[str, Any]:
    from brain.engine import Brain
    from brain.semantic.scorer import SemanticScorer
    from core.config import MemoryConfig, load_settings

    by_class: dict[str, list[str]] = defaultdict(list)
    others: list[tuple[str, str]] = []
    for row in rows:
        if row.label in CYCLE:
            by_class[row.label].append(row.text)
        elif row.label is not None:
            others.append((row.text, row.label))
    settings = load_settings({**os.environ, "BRAIN_HOME": str(home)})
    # Refits only when asked below (a long delay), so the cold and warm fits are timed apart.
    settings = settings.model_copy(update={"memory": MemoryConfig(org_refit_delay_s=3600)})
    report: dict[str, Any] = {}
    with Brain.open(settings) as brain:
        brain.org_training.follow()
        base = brain.semantic_model
        taught = {label: texts[:teach] for label, texts in by_class.items()}
        held = {label: texts[teach + 1 :] for label, texts in by_class.items()}
        for label, texts in taught.items():
            _teach(brain, texts, _wanted(label), label)
        brain.org_training.schedule(delay=0.0)
        assert brain.org_training.wait_idle(3600), brain.org_training.last_error
        model = brain.org_training.model()
        if model is None:
            raise SystemExit(f"no org-trained model: {brain.org_training.last_error or 'no rows'}")
        near: dict[str, set[str]] = {}
        for label, texts in held.items():
            near[label] = set()
            for text in texts:
                vector = brain.embedder.embed_query(text) if brain.embedder else None
                found = brain.memory.similar(text, vector=vector, ids=[])
                if any(
                    e.text in taught[label] and f >= settings.memory.preference_similarity
                    for e, f in found
                ):
                    near[label].add(text)
        report["rows"] = len(model.rows)
        report["before"] = _shares(base, held, near)
        report["after"] = _shares(model, held, near)
        report["others_before"] = _kept(base, others)
        report["others_after"] = _kept(model, others)
        report["refit_cold_s"] = round(model.seconds, 1)
        for label, texts in by_class.items():  # one more lesson per class: a warm refit
            _teach(brain, texts[teach : teach + 1], _wanted(label), f"{label}-more")
        brain.org_training.schedule(delay=0.0)
        assert brain.org_training.wait_idle(3600), brain.org_training.last_error
        again = brain.org_training.model()
        report["refit_warm_s"] = round(again.seconds, 1) if again is not None else None
        report["rows_warm"] = len(again.rows) if again is not None else 0
        # A full fit from scratch of the same data, for comparison (nothing cached).
        from brain.learning.org_training import _with_rows, row_weights
        from brain.learning.training import load_training
        from brain.semantic.files import chosen_negatives as _negatives

        training = load_training(settings)
        org = again.rows if again is not None else ()
        started = time.perf_counter()
        SemanticScorer._fit(
            brain.parts.view.controllers,
            brain.embedder,
            _negatives(home / "models", None, training.negatives),
            _with_rows(training.examples, org),
            settings.training.tune_encoder,
            row_weights(org),
        )
        report["full_fit_s"] = round(time.perf_counter() - started, 1)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, default=None, help="a fitted brain home (copied)")
    parser.add_argument("--devset", type=Path, default=REPO / "benchmarks/data/devset.jsonl")
    parser.add_argument("--teach", type=int, default=3, help="teaching rows per class")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()

    from brain.learning.labelled import read_rows

    rows, _ = read_rows(args.devset, "controller")
    home = Path(tempfile.mkdtemp(prefix="org-training-"))
    try:
        if args.home is not None:
            shutil.copytree(args.home, home, dirs_exist_ok=True, symlinks=True)
        report = run(home, rows, args.teach)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    before, after = report["before"], report["after"]
    print(f"organisation rows trained on: {report['rows']} ({args.teach} per class x 3 users)")
    print("semantic model alone, held-out rows of the taught classes -> the wanted controller:")
    print(f"{'':24}{'before':>10}{'after':>10}")
    print(
        f"{'all held-out':24}{_pct(before['hits'], before['total']):>10}"
        f"{_pct(after['hits'], after['total']):>10}   (n={before['total']})"
    )
    print(
        f"{'near paraphrases':24}{_pct(before['near_hits'], before['near_total']):>10}"
        f"{_pct(after['near_hits'], after['near_total']):>10}   (n={before['near_total']})"
    )
    kept_before, kept_after = report["others_before"], report["others_after"]
    print(
        f"{'other labels kept':24}{_pct(*kept_before):>10}{_pct(*kept_after):>10}"
        f"   (n={kept_before[1]})"
    )
    print(
        f"refit: cold {report['refit_cold_s']} s, warm {report['refit_warm_s']} s "
        f"({report['rows_warm']} rows); full fit from scratch {report['full_fit_s']} s"
    )
    if args.json:
        args.json.write_text(json.dumps(report, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
