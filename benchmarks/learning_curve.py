"""The learning curve: a brain that starts from five examples per label and learns
only from people correcting it, beside a model refitted offline on everything seen.

A data set (`--data`: BANKING77 train, or the IT tickets) is shuffled; five rows per label
build the starting controllers (one per label, as `brain eval --train` builds them, in a
throwaway home). The rest are streamed through `Brain.decide` as messages of simulated users
(`--users` of them, at random); each wrong route (or none) is corrected by its asker to the
label's controller, as a person would in Slack. Every `--window` messages it prints the online
accuracy of that window (strict: an unrouted message is wrong), beside a logistic regression
on MiniLM embeddings refitted offline on every row seen before the window (the seed rows and
the streamed ones with their true labels), the same refit on the seed rows and the corrections
only (what the people's corrections alone can teach: why online trails), the number of
corrections so far, and the window's messages memory moved (by the online layer, by a
lesson), with how many of those moves were right. With
`--refit` the brain's organisation refit runs at every window (what a long-running bot's
background refit has done by then) and the organisation rows it had are printed.
Figures are reported, never asserted.

Run: `nice -n 10 .venv/bin/python benchmarks/learning_curve.py --data it_tickets [--limit 2000]`
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from brain.evaluation.run import trained_brain
from brain.learning.labelled import LabelledRow
from core.records import Message

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
SEED_PER_LABEL = 5


def _rows(name: str) -> list[tuple[str, str]]:
    path = DATA / name / "train.jsonl"
    if not path.is_file():
        path = Path("/work/shared/data") / name / "train.jsonl"
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        label = row.get("intent") or row.get("label")
        if row.get("text") and label:
            rows.append((str(row["text"]), str(label)))
    return rows


def _offline(embed: Any, seen: list[tuple[str, str]], window: list[tuple[str, str]]) -> float:
    """A logistic regression on `seen`'s embeddings, scored on `window`."""
    from sklearn.linear_model import LogisticRegression

    x = embed([t for t, _ in seen])
    model = LogisticRegression(max_iter=2000, C=10.0)
    model.fit(x, [label for _, label in seen])
    predicted = model.predict(embed([t for t, _ in window]))
    return float(np.mean([p == label for p, (_, label) in zip(predicted, window, strict=True)]))


def run(
    data: str, limit: int, window: int, users: int, seed: int, refit: bool = False
) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    rows = _rows(data)
    rng.shuffle(rows)
    by_label: dict[str, list[tuple[str, str]]] = defaultdict(list)
    stream: list[tuple[str, str]] = []
    for text, label in rows:
        if len(by_label[label]) < SEED_PER_LABEL:
            by_label[label].append((text, label))
        else:
            stream.append((text, label))
    seeds = [row for group in by_label.values() for row in group]
    stream = stream[:limit]
    report = []
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        train = [LabelledRow(text, label) for text, label in seeds]
        with trained_brain(train, Path(tmp) / "home") as (brain, names):
            embedder = brain.parts.embedder
            assert embedder is not None, "the learning curve needs the MiniLM embedder"
            seen, corrected = list(seeds), list(seeds)
            corrections = 0
            for start in range(0, len(stream), window):
                chunk = stream[start : start + window]
                offline = _offline(embedder.embed, seen, chunk)
                from_corrections = _offline(embedder.embed, corrected, chunk)
                moved = {"layer": [0, 0], "lesson": [0, 0]}
                if refit:  # what a long-running bot's background refit has done by now
                    brain.parts.org_training.refit_now()
                right = 0
                for text, label in chunk:
                    user = f"U{rng.randrange(users)}"
                    decision = brain.decide(Message(text, user=user, channel="C-stream"))
                    wanted = names[label]
                    if decision.preference:
                        by = "layer" if "the online layer" in decision.preference else "lesson"
                        moved[by][0] += 1
                        moved[by][1] += decision.controller == wanted
                    if decision.controller == wanted:
                        right += 1
                    else:
                        corrected.append((text, label))
                        brain.feedback(
                            decision.decision_id, "correct", controller=wanted, user=user
                        )
                        corrections += 1
                seen.extend(chunk)
                row = {
                    "messages": start + len(chunk),
                    "online": right / len(chunk),
                    "offline_refit": offline,
                    "offline_from_corrections": from_corrections,
                    "corrections": corrections,
                    "moved": moved,
                    "organisation rows": len(brain.parts.org_training.rows()) if refit else 0,
                }
                report.append(row)
                print(
                    f"{row['messages']:>6} messages: online {row['online']:.1%}  offline refit "
                    f"{offline:.1%} (on the corrections only {from_corrections:.1%})  "
                    f"corrections {corrections}  organisation rows {row['organisation rows']}  "
                    f"moved by the layer {moved['layer'][0]} (right {moved['layer'][1]}), "
                    f"by a lesson {moved['lesson'][0]} (right {moved['lesson'][1]})",
                    flush=True,
                )
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", choices=("banking77", "it_tickets"), default="it_tickets")
    parser.add_argument("--limit", type=int, default=2000, help="messages streamed")
    parser.add_argument("--window", type=int, default=500)
    parser.add_argument("--users", type=int, default=20, help="simulated users")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument(
        "--refit", action="store_true", help="refit on the organisation rows every window"
    )
    args = parser.parse_args()
    run(args.data, args.limit, args.window, args.users, args.seed, args.refit)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
