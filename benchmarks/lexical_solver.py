"""The lexical expert's solver (fit time): fit CPU and held-out accuracy of the
semantic model with each logistic-regression setting of `brain.semantic.lexical`.

Rows: the first `--rows` of IT-tickets train, every fifth held out (a split carved from train;
val is never read). Every text is embedded once before the fits (`DenseEmbedder.remembering`),
so the CPU seconds printed are the fit's own. Held-out accuracy: the semantic model's top
controller (no asking back).

Run: `.venv/bin/python benchmarks/lexical_solver.py [--rows 8000]` (about 5 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

#: (solver, tol) tried; the first is the shipped setting.
SETTINGS = (("newton-cg", 1e-6), ("lbfgs", 1e-4))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(REPO.parent / "shared" / "data"))
    parser.add_argument("--rows", type=int, default=8000)
    args = parser.parse_args()

    from brain.evaluation.controllers import controllers_from_rows
    from brain.learning.labelled import LabelledRow
    from brain.semantic import lexical
    from brain.semantic.scorer import SemanticScorer
    from core.config import load_settings
    from core.text.email import email_body
    from core.text.embedder import get_dense_embedder

    path = Path(args.data) / "it_tickets" / "train.jsonl"
    with path.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line, _ in zip(handle, range(args.rows), strict=False)]
    fit = [LabelledRow(r["text"], r["intent"]) for i, r in enumerate(rows) if i % 5 != 4]
    held = [r for i, r in enumerate(rows) if i % 5 == 4]
    controllers, names = controllers_from_rows(fit)
    embedder = get_dense_embedder(load_settings())
    if embedder is None:
        raise SystemExit("needs the MiniLM embedder")
    print(f"{len(fit)} fit rows, {len(held)} held-out rows")
    with embedder.remembering():
        embedder.embed([r["text"] for r in held] + [email_body(r["text"]) for r in rows])
        for solver, tol in SETTINGS:
            lexical.LEXICAL_SOLVER, lexical.LEXICAL_TOL = solver, tol
            started = time.process_time()
            scorer = SemanticScorer.fit(controllers, embedder, negatives=[])
            cpu = time.process_time() - started
            details = scorer.analyse_many([r["text"] for r in held])
            right = [
                scorer.names[int(np.argmax(d.scores))] == names[r["intent"]]
                for d, r in zip(details, held, strict=True)
            ]
            print(
                f"{solver} tol={tol}: fit {cpu:.1f} CPU-s, (lexical weight, bayes scale) "
                f"{scorer.ensemble.chosen}, held-out top-1 {np.mean(right):.4f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
