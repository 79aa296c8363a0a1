"""The online layer: the model's own examples and the corrections a person may see, as one
nearest-examples vote blended with the model's calibrated confidences.

The agreed-examples reach (`brain.memory.agreed`) moves a message by hand-set gates, and the
layer before this one (a vote of corrections alone, trusted only where its precision on later
corrections beat the model's confidence) spoke for 6 of 500 streamed IT tickets. Measured on
a stream's logged decisions (`benchmarks/learning_curve.py`, seed 13, messages 501-1000), most
of the gap to a model refitted offline on the same rows was not whose corrections count but
what they were compared with: a vote of the corrections alone (hard messages only, the
controllers the model gets wrong) lost to the model; the same vote with the model's own
examples beside the corrections, everyone's, matched the offline refit; the corrections a
person may see (their own, and the ones several people agree about near the message) came
within a point of it. So the layer is:

- **Examples a person sees.** The model's own examples (`ModelExamples`: each controller's
  examples and training rows, in the embedding space), the asker's own corrections within
  LINK of the message (one person's other topics do not pull it), and the corrections that
  several people agree about around the message: among the CENTRED nearest corrections within
  LINK of it, a controller that at least `agreement` distinct people moved messages to has
  all those corrections seen by everyone. One stranger's correction is seen by no one else,
  whatever its words; three people who moved alike messages to one place are.
- **A vote.** The VOTES nearest of those examples vote, each weighted by
  exp((similarity - 1) / TEMPERATURE); each controller's share of the weight is the layer's
  reading of the message.
- **Blended with the model.** `brain.chain.evaluate` adds the shares to the model's
  calibrated confidences (normalised over the candidates) at BLEND; a message moves to the
  blend's first choice when it differs from the model's and a seen correction backs it.

Why BLEND is set, not fitted on the corrections: every correction is a message the model got
wrong (that is why it was corrected), so a weight fitted on them says "always follow the
corrections". Both sides are probabilities of being right (the vote's share among alike
examples, the model's calibrated confidence), so they are weighed alike. Until MIN_TESTS
corrections have come in the layer says nothing: a few corrections are the lessons' work
(`brain.memory.agreed`, the correction stories), many are a desk's.

The layer is made from the stored corrections as the example pool is, so every process and
replica that reads the same lessons builds the same layer; nothing lives only in one
process's memory.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from brain.memory.entry import MOVED_TO, Lesson
from brain.memory.example_pool import LINK, ExamplePool, Probe
from brain.memory.reach import Measure

#: Examples that vote (the nearest ones).
VOTES = 7
#: How sharply nearer examples outvote farther ones (cosine units).
TEMPERATURE = 0.1
#: Corrections whose people may agree about a message (the nearest ones within LINK).
CENTRED = 20
#: Tests (corrections) the layer waits for before it speaks.
MIN_TESTS = 20
#: The vote's weight beside the model's normalised confidences.
BLEND = 0.5
#: Candidates of a message looked at (the nearest corrections).
CANDIDATES = 60


@dataclass(frozen=True, slots=True)
class Reading:
    """What the examples a person sees say of a message."""

    #: Controller -> its share of the vote's weight.
    shares: Mapping[str, float]
    #: Controller -> its seen corrections among the voters (pool rows), nearest first.
    rows: Mapping[str, tuple[int, ...]]
    #: Controller -> each voting correction's similarity, in the order of `rows`.
    scores: Mapping[str, tuple[float, ...]]
    #: Controller -> the people whose seen corrections went there (who agreed, or the asker).
    people: Mapping[str, tuple[str, ...]]

    @property
    def controller(self) -> str:
        """The vote's winner."""
        return max(sorted(self.shares), key=lambda name: self.shares[name])


@dataclass(frozen=True, slots=True)
class OnlineChoice:
    """The layer's reading of a message, with what a controller's seen corrections are."""

    reading: Reading
    user: str
    pool: ExamplePool

    def backing(self, controller: str) -> tuple[Lesson, float, tuple[str, ...]] | None:
        """The nearest seen correction to `controller` among the voters, its similarity and
        the people whose corrections voted for it; None when no correction did."""
        rows = self.reading.rows.get(controller, ())
        if not rows:
            return None
        people = self.reading.people[controller]
        return self.pool.entry(rows[0]), self.reading.scores[controller][0], people

    def scope(self, controller: str) -> str:
        """ "user" when only the asker's own corrections voted for it, else "org"."""
        found = self.backing(controller)
        return "user" if found is not None and found[2] == (self.user,) else "org"


class ModelRows:
    """The model's own examples in the embedding space (rows and their controllers)."""

    def __init__(self, vectors: np.ndarray, labels: np.ndarray) -> None:
        self.vectors = vectors
        self.labels = labels

    def of(self, names: list[str]) -> tuple[np.ndarray, np.ndarray]:
        usable = np.isin(self.labels, names)
        return self.vectors[usable], self.labels[usable]


#: The model's examples, made when first needed (None: no embedder).
Rows = Callable[[], "ModelRows | None"]


class OnlineLayer:
    """The vote over one example pool, and the corrections as tests of it."""

    def __init__(self, agreement: int = 3) -> None:
        self._agreement = agreement
        #: Corrections that came in (a process loading many counts the latest `reach.WINDOW`).
        self._corrections = 0

    @property
    def tests(self) -> int:
        """The corrections the layer has seen (it speaks after MIN_TESTS)."""
        return self._corrections

    def test(self, entry: Lesson) -> None:
        """A new correction of a Latin message with an embedding (one the layer can read)."""
        if entry.kind == MOVED_TO and entry.vector is not None and entry.latin:
            self._corrections += 1

    def read(
        self,
        pool: ExamplePool,
        probe: Probe,
        user: str,
        team: str | None,
        names: list[str],
        model: ModelRows | None,
    ) -> Reading | None:
        """The vote of the examples `user` sees on a Latin message (None: no correction to
        see, or no embedding)."""
        if probe.vector is None or not probe.latin or not pool.row_of:
            return None
        scores, measures = pool.alike(probe)
        usable = pool.usable(team, names) & pool.corrected & (measures == Measure.EMBEDDING)
        rows = np.flatnonzero(usable)
        rows = rows[np.argsort(-scores[rows], kind="stable")][:CANDIDATES]
        agreed = self._agreed(pool, rows, scores)
        own = [r for r in rows.tolist() if scores[r] >= LINK and pool.entry(r).user == user]
        seen = [r for r in rows.tolist() if r in agreed or r in own]
        if not seen:
            return None
        voters = [(float(scores[row]), pool.entry(row).controller, row) for row in seen]
        if model is not None:
            vectors, labels = model.of(names)
            sims = vectors @ probe.vector.astype(np.float32)
            for index in np.argsort(-sims, kind="stable")[:VOTES].tolist():
                voters.append((float(sims[index]), str(labels[index]), -1))
        voters.sort(key=lambda voter: -voter[0])
        voters = voters[:VOTES]
        weights = np.exp((np.array([v[0] for v in voters]) - 1.0) / TEMPERATURE)
        shares: dict[str, float] = {}
        backing: dict[str, list[tuple[int, float]]] = {}
        for (similarity, name, row), weight in zip(voters, weights.tolist(), strict=True):
            shares[name] = shares.get(name, 0.0) + weight / float(weights.sum())
            if row >= 0:
                backing.setdefault(name, []).append((row, similarity))
        people: dict[str, set[str]] = {}
        for row in seen:
            entry = pool.entry(row)
            people.setdefault(entry.controller, set()).add(entry.user)
        return Reading(
            shares,
            {name: tuple(r for r, _ in found) for name, found in backing.items()},
            {name: tuple(s for _, s in found) for name, found in backing.items()},
            {name: tuple(sorted(users)) for name, users in people.items()},
        )

    def _agreed(self, pool: ExamplePool, nearest: np.ndarray, scores: np.ndarray) -> set[int]:
        """The corrections everyone sees for this message: of the CENTRED nearest within LINK
        of it, those whose controller at least `agreement` distinct people moved them to."""
        centred = [int(row) for row in nearest[:CENTRED] if scores[row] >= LINK]
        people: dict[str, set[str]] = {}
        for row in centred:
            entry = pool.entry(row)
            people.setdefault(entry.controller, set()).add(entry.user)
        enough = {name for name, users in people.items() if len(users) >= self._agreement}
        return {row for row in centred if pool.entry(row).controller in enough}

    def choose(
        self,
        pool: ExamplePool,
        probe: Probe,
        user: str,
        team: str | None,
        names: list[str],
        model: Rows,
    ) -> OnlineChoice | None:
        """The layer's reading of a message; None while the tests are too few or no
        correction is seen."""
        if self._corrections < MIN_TESTS:
            return None
        reading = self.read(pool, probe, user, team, names, model())
        return None if reading is None else OnlineChoice(reading, user, pool)


def blended(confidences: Mapping[str, float], shares: Mapping[str, float]) -> dict[str, float]:
    """The model's calibrated confidences (normalised over the candidates) and the vote's
    shares, weighed at BLEND: what the layer's choice is the first of."""
    total = sum(confidences.values())
    names = set(confidences) | set(shares)
    return {
        name: (1.0 - BLEND) * (confidences.get(name, 0.0) / total if total > 0 else 0.0)
        + BLEND * shares.get(name, 0.0)
        for name in names
    }
