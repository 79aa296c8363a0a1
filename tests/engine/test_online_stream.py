"""The online layer on a stream of corrections: a brain built from five examples per
controller (as `brain eval --train` builds one), fed the shipped English training rows by ten
people who correct every wrong route, as `benchmarks/learning_curve.py` streams a desk's tickets.

Once the people's corrections have tested it, the layer (`brain.memory.online_layer`: the
model's own examples and the corrections a person sees, voting beside the model's calibrated
confidences) moves messages the model alone sends elsewhere, most of them to where their
people want them, and says so in the rationale; a correction it shows to someone else is one
at least three people agree about.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path

from brain.evaluation.run import trained_brain
from brain.learning.labelled import LabelledRow
from core.records import Message

TRAINING = Path(__file__).resolve().parents[2] / "brain" / "data" / "training.jsonl"
SEEDS_PER_CONTROLLER = 5
STREAM = 160
PEOPLE = 10


def _rows() -> tuple[list[LabelledRow], list[LabelledRow]]:
    rows = [json.loads(line) for line in TRAINING.read_text(encoding="utf-8").splitlines()]
    english = [r for r in rows if r.get("lang") == "en" and r["controller"] != "oos"]
    random.Random(5).shuffle(english)
    seeds: dict[str, list[LabelledRow]] = defaultdict(list)
    stream: list[LabelledRow] = []
    for row in english:
        found = seeds[row["controller"]]
        target = found if len(found) < SEEDS_PER_CONTROLLER else stream
        target.append(LabelledRow(row["text"], row["controller"]))
    return [row for rows in seeds.values() for row in rows], stream[:STREAM]


def test_the_layer_moves_a_streams_messages_mostly_where_people_want_them(
    tmp_path: Path,
) -> None:
    seeds, stream = _rows()
    people = random.Random(7)
    moved: list[tuple[bool, str]] = []
    with trained_brain(seeds, tmp_path / "home") as (brain, names):
        for row in stream:
            user = f"P{people.randrange(PEOPLE)}"
            decision = brain.decide(Message(row.text, user=user, channel="C-stream"))
            wanted = names[str(row.label)]
            if "the online layer" in decision.preference:
                moved.append((decision.controller == wanted, decision.preference))
            if decision.controller != wanted:
                brain.feedback(decision.decision_id, "correct", controller=wanted, user=user)

    right = [why for ok, why in moved if ok]
    assert len(moved) >= 5, moved
    assert len(right) > len(moved) - len(right), moved
    for _, why in moved:  # the asker's own corrections, or at least three people's
        assert why.startswith("you ") or int(why.split(" people")[0]) >= 3, why
