"""The organisation's agreed corrections as class examples in one multilingual space.

`brain.memory.agreement` finds who agrees about a message through links between wordings, each
pair compared by its own measure (MiniLM for two English texts, the multilingual encoder where
Chinese is on a side). A fourth person's paraphrase that shares meaning but no words with the
three corrections is within LINK of none of them, and three wordings that are not alike to one
another are not linked into one group: on the looked-at correction stories most of a fourth
user's missed paraphrases were one or the other.

Here, when that finds nothing, every controller's corrections (and confirmed routes) of the
workspace are one class example set, compared in the multilingual space only:

- each user's correction to the controller nearest the message (the MEMBERS nearest users)
  is the message's group, needing no bar of its own;
- the message's cosine to the group's centroid must reach the bar calibrated on held-out
  labelled rows (`brain.memory.shipped_view`: about 0.39), and the model's own examples must
  allow it (`ShippedView.allows`), so a look-alike nearer a shipped example of another kind
  of message stays where the model puts it, in Chinese as in English;
- two controllers' groups both passing is a disagreement: nothing moves.

Measured on the looked-at stories (`benchmarks/org_agreement_story.py`, the fresh, stranger and
tune sets, 216 paraphrases of a fourth user): linking the three wordings first (single linkage
at the multilingual LINK) moved 2 more than without this path; each user's nearest correction,
10 more, with no other story's paraphrase moved.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from brain.memory.example_pool import ExamplePool, Probe
from brain.memory.reach_model import ReachModel, readings
from brain.memory.shipped_view import ShippedView

#: Users whose corrections make a message's group (the nearest ones).
MEMBERS = 12


@dataclass(frozen=True, slots=True)
class ClassMatch:
    """The controller whose agreed examples a message is like, in the multilingual space."""

    controller: str
    #: Pool rows of the group, nearest to the message first (each user's nearest).
    rows: tuple[int, ...]
    users: tuple[str, ...]
    #: The message's cosine to the group's centroid.
    score: float


def centre_of(vectors: np.ndarray) -> np.ndarray:
    """The unit centroid of unit rows."""
    centre = vectors.sum(axis=0)
    return np.asarray(centre / max(float(np.linalg.norm(centre)), 1e-6), dtype=np.float32)


def class_match(
    pool: ExamplePool,
    probe: Probe,
    usable: np.ndarray,
    *,
    agreement: int,
    shipped: ShippedView,
    names: Sequence[str],
    model: ReachModel | None = None,
) -> ClassMatch | None:
    """The one controller whose agreed examples the message is like; None when none is, when
    two are (a disagreement), or when the encoder cannot run. With `model`, the learned reach
    model (`brain.memory.reach_model`) decides instead of the bar and `ShippedView.allows`."""
    matrix = pool.cross_matrix()
    query = probe.cross(pool)
    if matrix is None or query is None:
        return None
    examples = shipped.examples(names) if model is not None else None
    vectors = matrix[: len(pool.entries)]
    sims = vectors @ query
    passing: list[tuple[ClassMatch, np.ndarray]] = []
    for controller in sorted(set(pool.controllers[usable].tolist())):
        rows = _nearest_per_user(pool, sims, usable & (pool.controllers == controller))
        users = tuple(sorted({pool.entry(row).user for row in rows}))
        if len(users) < agreement or not any(pool.corrected[row] for row in rows):
            continue
        centre = centre_of(vectors[list(rows)])
        score = float(centre @ query)
        if model is not None and examples is not None:
            reached = model.reaches(readings(centre, query, *examples, controller))
        else:
            reached = score >= shipped.bar
        if reached:
            passing.append((ClassMatch(controller, rows, users, score), centre))
    if len(passing) != 1:
        return None
    found, centre = passing[0]
    if model is not None and examples is not None:
        return found  # the model read the shipped examples already
    return found if shipped.allows(centre, query, found.controller, names) else None


def _nearest_per_user(pool: ExamplePool, sims: np.ndarray, allowed: np.ndarray) -> tuple[int, ...]:
    """Each user's row nearest the message among `allowed`, nearest first (MEMBERS users)."""
    rows = np.flatnonzero(allowed)
    rows = rows[np.argsort(-sims[rows], kind="stable")]
    seen: set[str] = set()
    found: list[int] = []
    for row in rows.tolist():
        user = pool.entry(row).user
        if user not in seen:
            seen.add(user)
            found.append(row)
            if len(found) == MEMBERS:
                break
    return tuple(found)


def class_agreement(
    pool: ExamplePool, row: int, *, agreement: int, shipped: ShippedView, names: Sequence[str]
) -> ClassMatch | None:
    """Who agrees with the correction at `row` through its controller's class example set, as
    a message alike to none of them is moved online (`class_match`, its own user left out):
    the other users' corrections (and confirmed routes) of its controller nearest it, when its
    cosine to their centroid reaches the calibrated bar, no other controller's set does and
    the model's own examples allow it. The match's rows and users include the correction's
    own; None when too few people agree. The organisation's training rows take such groups
    too (`brain.learning.org_lessons`), so what moves everyone online is what the refit
    learns."""
    entry = pool.entry(row)
    others = pool.same_team(row) & (pool.users != entry.user)
    others &= np.isin(pool.controllers, list(names))
    found = class_match(
        pool,
        Probe.of(entry, row),
        others,
        agreement=max(agreement - 1, 1),
        shipped=shipped,
        names=names,
    )
    if found is None or found.controller != entry.controller:
        return None
    users = tuple(sorted({*found.users, entry.user}))
    return ClassMatch(found.controller, (row, *found.rows), users, found.score)
