"""Whether a message is of the kind several people agreed about: a learned pair model.

Three people who each correct their own message about one kind of problem teach everyone
(`brain.memory.agreed`). Whether a fourth message is of that kind was decided by hand-set gates:
a cosine bar to the group's centroid, a MARGIN to the model's nearest own example, and a rule
letting a group that overrules that example through (`brain.memory.shipped_view`). Each gate was
set on the looked-at correction stories, and on wordings nobody tuned for a fourth user's
paraphrases moved half as often as on the tuned ones.

Here one logistic model over the same readings decides, all in the multilingual space (English
and Chinese alike):

- `centre`: the message's cosine to the unit centroid of the group's wordings;
- `gap`: `centre` less the message's cosine to the nearest example the model was shipped with
  of another controller (a message nearer what the model knows of another kind stays);
- `over`: how alike the group is to the message's NEAR nearest shipped examples (people who
  agree overrule the examples their own messages were nearest).

It is fitted by `scripts/fit_agreement_reach.py` on simulated agreements: the looked-at stories'
three taught wordings as a group, their twelve paraphrases as messages of the kind, and as
messages that are not, the other stories' paraphrases, their look-alikes (`must_not`) and every
shipped example of another controller. Its bar is the probability that at most NEGATIVE_SHARE of
those negatives reach (`brain/data/agreement_reach.json` holds the coefficients and the bar).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: The fitted model's file (written by scripts/fit_agreement_reach.py).
MODEL_FILE = Path(__file__).resolve().parents[1] / "data" / "agreement_reach.json"
#: The readings, in the order of the coefficients.
FEATURES = ("centre", "gap", "over")
#: Nearest shipped examples a group may overrule.
NEAR = 3


def readings(
    centre: np.ndarray, query: np.ndarray, shipped: np.ndarray, labels: np.ndarray, controller: str
) -> np.ndarray:
    """The model's inputs for a message (`query`, a unit vector) and a group of `controller`
    (`centre`, its unit centroid), against the shipped examples' unit rows and their labels
    (the fit script and the brain read them the same way)."""
    score = float(centre @ query)
    sims = shipped @ query
    other = sims[labels != controller]
    nearest_other = float(other.max()) if len(other) else -1.0
    near = np.argsort(-sims, kind="stable")[:NEAR]
    over = float((shipped[near] @ centre).max()) if len(near) else -1.0
    return np.array([score, score - nearest_other, over], dtype=np.float64)


@dataclass(frozen=True, slots=True)
class ReachModel:
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
def load(path: Path = MODEL_FILE) -> ReachModel | None:
    """The shipped model (None when its file is missing or of other readings)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if tuple(data.get("features", ())) != FEATURES:
        return None
    return ReachModel(
        tuple(float(c) for c in data["coef"]), float(data["intercept"]), float(data["bar"])
    )
