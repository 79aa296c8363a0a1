"""Who agrees about a message: the corrections that are, link by link, about the kind of
message it is, and how alike the message is to them taken together.

Three people who correct their own messages about one kind of problem word them differently:
on the correction stories (`benchmarks/org_agreement_stories.py`) their messages are 0.2-0.45
apart, so a group made of the corrections within LINK of one of them often left the third
person out, and nobody agreed ("a desk move", "the dns records" and "the guest wifi" stories
moved none of a fourth user's paraphrases). Two changes, both following the data rather than
one correction:

- **The message is the hub.** The corrections within LINK of the message, and the
  corrections to the same controller within LINK of those (single linkage, a few hops), are
  the message's group: three people who each wrote something alike to it, or alike to what
  another of them wrote, moved messages like it. Each user counts once.
- **The group is compared as a whole.** How alike the message is to the group is its cosine
  to the group's centroid, made from the pairwise similarities alone (each pair by its own
  measure, `brain.memory.example_pool`): sum_i s(m, i) / sqrt(sum_ij s(i, j)). What is
  particular to one person's wording averages out, so a paraphrase that is only loosely alike
  to each of three wordings is close to what they share. For one correction it is its own
  similarity.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from brain.memory.example_pool import ExamplePool, Probe, links

#: Single-linkage steps from the corrections linked to the message.
HOPS = 2
#: Corrections of a group compared with the message (the nearest ones, each user's latest).
MEMBERS = 12


@dataclass(frozen=True, slots=True)
class Around:
    """A message's group of corrections to one controller."""

    pool: ExamplePool
    controller: str
    #: Rows of the pool, nearest to the message first (each user's latest in the group).
    rows: tuple[int, ...]
    users: tuple[str, ...]
    #: The message's cosine to the group's centroid.
    score: float

    @property
    def correction(self) -> int | None:
        """The nearest row that is a correction (a group of confirmations alone moves
        nothing: the model already sends such messages there)."""
        return next((row for row in self.rows if self.pool.corrected[row]), None)


def around(
    pool: ExamplePool,
    scores: np.ndarray,
    measures: np.ndarray,
    usable: np.ndarray,
    controller: str,
) -> Around | None:
    """The corrections to `controller` linked to the message (whose similarities to every
    row are `scores`, by `measures`) directly or through one another; None when none is."""
    allowed = usable & (pool.controllers == controller)
    frontier = np.flatnonzero(allowed & (scores >= links(measures)))
    if not len(frontier):
        return None
    member = np.zeros(len(scores), dtype=bool)
    member[frontier] = True
    pair: dict[int, np.ndarray] = {}
    for _ in range(HOPS):
        grown = np.zeros_like(member)
        for row in frontier:
            found, kinds = pool.alike(Probe.of(pool.entry(int(row)), int(row)))
            pair[int(row)] = found
            grown |= allowed & (found >= links(kinds))
        frontier = np.flatnonzero(grown & ~member)
        member |= grown
        if not len(frontier):
            break
    rows = _latest_per_user(pool, np.flatnonzero(member), scores)[:MEMBERS]
    users = tuple(sorted({pool.entry(row).user for row in rows}))
    return Around(pool, controller, tuple(rows), users, centroid(pool, rows, scores, pair))


def _latest_per_user(pool: ExamplePool, rows: np.ndarray, scores: np.ndarray) -> list[int]:
    """Each user's latest correction among `rows`, nearest to the message first."""
    latest: dict[str, int] = {}
    for row in rows.tolist():
        user = pool.entry(row).user
        seen = latest.get(user)
        if seen is None or pool.entry(row).created_at > pool.entry(seen).created_at:
            latest[user] = row
    return sorted(latest.values(), key=lambda row: -float(scores[row]))


def centroid(
    pool: ExamplePool,
    rows: list[int],
    scores: np.ndarray,
    pair: dict[int, np.ndarray] | None = None,
) -> float:
    """The message's cosine to the centroid of `rows`, from pairwise similarities."""
    pair = {} if pair is None else pair
    among = np.eye(len(rows), dtype=np.float32)
    for i, row in enumerate(rows):
        found = pair.get(row)
        if found is None:
            found = pair[row] = pool.alike(Probe.of(pool.entry(row), row))[0]
        for j, other in enumerate(rows):
            if i != j:
                among[i, j] = found[other]
    spread = float(among.sum() + among.T.sum()) / 2  # the two directions may differ slightly
    return float(sum(float(scores[row]) for row in rows) / np.sqrt(max(spread, 1e-6)))
