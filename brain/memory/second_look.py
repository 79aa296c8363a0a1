"""A second look where the gates found no agreed group: a learned model over more readings.

Three people who agree teach everyone a kind of message (`brain.memory.agreed`), through
hand-set gates: a link between wordings, a floor, the centroid bar in the multilingual space
(`brain.memory.shipped_view`) and the rule that a nearer shipped example keeps the message
where the model puts it. On the looked-at correction stories the fourth user's paraphrases the
gates did not reach were far from the three taught wordings and nearer one of the model's own
examples; lowering any one gate moved other stories' paraphrases as often as it moved them
(benchmarks/HISTORY.md, the `agree` rounds).

Where the gates found nothing, this model reads five things of the message against each
controller's agreed corrections (each user's nearest, as the class example sets are formed):

- `centre`: its multilingual cosine to the unit centroid of the group;
- `gap`: `centre` less its cosine to the nearest shipped example of another controller;
- `over`: how alike the group is to the message's NEAR nearest shipped examples;
- `minilm`: for an English message, its MiniLM cosine to the centroid of the group's English
  wordings (the embedding the semantic model reads; `centre` when either side has none);
- `p_target`: the semantic model's own probability of the group's controller for the message.

The first three are `brain.memory.reach_model`'s; the last two are what that model lacked. Read
pair by pair on the looked-at stories, each set held out in turn (`scripts/fit_second_look.py`),
they separate a story's paraphrases from other stories' paraphrases and look-alikes better than
the three alone. The model is fitted by that script (looked-at stories only, never
`fresh2_hold`) and its bar lets at most a small share of those negatives and of the shipped
examples of other controllers through; `second_look.json` beside this module holds it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from brain.memory.example_pool import ExamplePool, Probe
from brain.memory.org_classes import ClassMatch, centre_of, class_groups
from brain.memory.reach_model import readings as base_readings
from brain.memory.shipped_view import ShippedView

#: The fitted model's file (written by scripts/fit_second_look.py).
MODEL_FILE = Path(__file__).with_name("second_look.json")
#: The readings, in the order of the coefficients.
FEATURES = ("centre", "gap", "over", "minilm", "p_target")


def readings(
    centre: np.ndarray,
    query: np.ndarray,
    shipped: tuple[np.ndarray, np.ndarray],
    controller: str,
    *,
    english: np.ndarray | None,
    vector: np.ndarray | None,
    p_target: float,
) -> np.ndarray:
    """The model's inputs: `centre` and `query` are unit multilingual vectors, `shipped` the
    model's examples' multilingual rows and labels, `english` the MiniLM rows of the group's
    English wordings and `vector` the message's MiniLM vector (None: not English). The fit
    script and the brain read them the same way."""
    first = base_readings(centre, query, shipped[0], shipped[1], controller)
    minilm = float(first[0])
    if english is not None and len(english) and vector is not None:
        minilm = float(centre_of(english) @ np.asarray(vector, dtype=np.float32))
    return np.array([*first.tolist(), minilm, float(p_target)], dtype=np.float64)


@dataclass(frozen=True, slots=True)
class SecondLook:
    """A logistic model over `readings` and the probability it must reach."""

    coef: tuple[float, ...]
    intercept: float
    bar: float

    def probability(self, values: np.ndarray) -> float:
        z = float(np.dot(self.coef, values)) + self.intercept
        return float(1.0 / (1.0 + np.exp(-np.clip(z, -50.0, 50.0))))

    def reaches(self, values: np.ndarray) -> bool:
        return self.probability(values) >= self.bar

    def to_dict(self) -> dict[str, object]:
        return {
            "features": list(FEATURES),
            "coef": list(self.coef),
            "intercept": self.intercept,
            "bar": self.bar,
        }


@functools.lru_cache(maxsize=2)
def load(path: Path = MODEL_FILE) -> SecondLook | None:
    """The shipped model (None when its file is missing or of other readings)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if tuple(data.get("features", ())) != FEATURES:
        return None
    return SecondLook(
        tuple(float(c) for c in data["coef"]), float(data["intercept"]), float(data["bar"])
    )


def second_look(
    pool: ExamplePool,
    probe: Probe,
    usable: np.ndarray,
    *,
    agreement: int,
    shipped: ShippedView,
    names: Sequence[str],
    semantic: Mapping[str, float],
    model: SecondLook | None,
) -> ClassMatch | None:
    """The one controller whose agreed group the model says the message is of; None when none
    is, when two are (a disagreement), without the model's semantic scores (nothing to read)
    or when the encoder cannot run."""
    if model is None or not semantic:
        return None
    matrix = pool.cross_matrix()
    query = probe.cross(pool)
    examples = shipped.examples(names)
    if matrix is None or query is None or examples is None:
        return None
    vector = probe.vector if probe.latin else None
    reached: list[ClassMatch] = []
    for found, centre in class_groups(pool, matrix, query, usable, agreement):
        english = [pool.entry(row).vector for row in found.rows if pool.entry(row).latin]
        words = [v for v in english if v is not None]
        values = readings(
            centre,
            query,
            examples,
            found.controller,
            english=np.stack(words) if words else None,
            vector=vector,
            p_target=semantic.get(found.controller, 0.0),
        )
        if model.reaches(values):
            reached.append(found)
    return reached[0] if len(reached) == 1 else None
