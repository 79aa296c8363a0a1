"""A learned online layer over the corrections: a nearest-examples vote, calibrated on the
corrections that came after it, weighed against the model's own confidence.

The agreed-examples reach (`brain.memory.agreed`) moves a message by hand-set gates (LINK,
FLOOR, MARGIN to the model's nearest example). On a stream of a desk's varied tickets those
gates let little through: after 1,000 streamed IT tickets the brain was 13.6 points behind a
model refitted offline on the same rows (`benchmarks/learning_curve.py`). This layer is the
part of the model that moves between refits:

- **Examples a person sees.** The asker's own corrections, at once, and the corrections that
  people agree about (`shared`: the corrections within LINK of one, each user's nearest vote,
  and its controller has at least `agreement` users and a clear majority, the rule
  `brain.memory.agreed` already holds a message's neighbourhood to). A correction people
  disagree about is nobody's but its author's.
- **A vote.** Each user's nearest visible correction to each controller is one example (a
  person counts once per controller); the VOTES nearest of those vote, each weighted by
  exp((similarity - 1) / TEMPERATURE). The winner's share of the weight and its nearest
  example's similarity are the layer's reading.
- **Calibrated on held-out corrections.** Every correction, as it arrives, is a test of the
  examples its author could see before it: the layer's reading of its message, and whether the
  winner is where the person moved it (each test used only earlier rows: out of fold by
  construction). A logistic fit on the latest WINDOW tests turns a reading into the probability
  that the layer is right. Below MIN_TESTS tests the layer says nothing, nor for a message
  less alike to its nearest example than the learned floor, the least alike any test was when
  the layer was right (a line fitted on tests at 0.5 must not send a build failure after
  payroll lessons at a cosine of 0.15).
- **Weighed against the model.** The message moves to the layer's controller only when that
  probability is above the calibrated confidence of the model's own first choice (both are
  probabilities of being right; `brain.chain.evaluate` compares them).

Why not a fixed mixing weight chosen on the tests: every test is a message the model got
wrong (that is why it was corrected), so any weight fitted on them says "always follow the
corrections"; the layer's precision on those hard messages is a conservative reading instead.

The layer is made from the stored corrections as the example pool is (`brain.memory.agreed`
follows the lesson store), so every process and replica that reads the same lessons builds the
same layer; nothing lives only in one process's memory.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from brain.memory.entry import MOVED_TO, MemoryEntry
from brain.memory.example_pool import ExamplePool, Probe
from brain.memory.reach import WINDOW, Measure

#: Per-user examples that vote (the nearest ones).
VOTES = 7
#: How sharply nearer examples outvote farther ones (cosine units).
TEMPERATURE = 0.1
#: Tests the calibration needs before the layer speaks.
MIN_TESTS = 20
#: The logistic fit's L2 penalty (a few dozen tests must not give it extreme weights, nor
#: flatten the slope on similarity that separates the far wrong tests from the near right).
PENALTY = 0.1
#: Candidates of a message whose shared status is looked up (the nearest rows).
CANDIDATES = 60


@dataclass(frozen=True, slots=True)
class Reading:
    """What the visible examples say of a message."""

    controller: str
    #: The winner's share of the vote's weight.
    share: float
    #: The similarity of the winner's nearest example.
    nearest: float
    #: The winner's voting rows, nearest first.
    rows: tuple[int, ...]
    users: tuple[str, ...]

    def features(self) -> np.ndarray:
        return np.array([1.0, self.share, self.nearest], dtype=np.float64)


@dataclass(frozen=True, slots=True)
class OnlineChoice:
    """The layer's controller for a message and the probability it is right."""

    reading: Reading
    probability: float
    #: "user" when only the asker's own corrections voted for it, else "org".
    scope: str
    #: The winner's nearest example (the one the rationale names).
    lesson: MemoryEntry


class OnlineLayer:
    """The tests of one example pool and the calibration fitted on them."""

    def __init__(self) -> None:
        self._tests: deque[tuple[np.ndarray, bool]] = deque(maxlen=WINDOW)
        self._added = 0
        self._fitted_at = -1
        self._weights: np.ndarray | None = None
        self._floor = 1.0
        self._shared: dict[int, bool] = {}

    @property
    def tests(self) -> int:
        """The tests the calibration is fitted on."""
        return len(self._tests)

    def changed(self) -> None:
        """The pool changed: who agrees about which correction may have too."""
        self._shared.clear()

    def test(self, pool: ExamplePool, entry: MemoryEntry, shared: Callable[[int], bool]) -> None:
        """A new correction (before it joins the pool) as a test of what its author saw."""
        if entry.kind != MOVED_TO or entry.vector is None or not entry.latin:
            return
        reading = self.read(pool, Probe.of(entry), entry.user, entry.team, None, shared)
        if reading is not None:
            self._tests.append((reading.features(), reading.controller == entry.controller))
            self._added += 1

    def read(
        self,
        pool: ExamplePool,
        probe: Probe,
        user: str,
        team: str | None,
        names: list[str] | None,
        shared: Callable[[int], bool],
    ) -> Reading | None:
        """The vote of the examples `user` sees on a Latin message (None: none to see)."""
        if probe.vector is None or not probe.latin or not pool.row_of:
            return None
        scores, measures = pool.alike(probe)
        if names is None:  # a test: every controller corrections went to
            names = sorted(set(pool.controllers[pool.corrected].tolist()))
        usable = pool.usable(team, names) & pool.corrected & (measures == Measure.EMBEDDING)
        rows = np.flatnonzero(usable)
        rows = rows[np.argsort(-scores[rows], kind="stable")][:CANDIDATES]
        seen: set[tuple[str, str]] = set()
        votes: list[int] = []
        for row in rows.tolist():
            entry = pool.entry(row)
            key = (entry.user, entry.controller)
            if key in seen or (entry.user != user and not self._is_shared(row, shared)):
                continue
            seen.add(key)
            votes.append(row)
            if len(votes) == VOTES:
                break
        if not votes:
            return None
        weights = np.exp((scores[votes].astype(np.float64) - 1.0) / TEMPERATURE)
        by: dict[str, float] = {}
        for row, weight in zip(votes, weights.tolist(), strict=True):
            name = pool.entry(row).controller
            by[name] = by.get(name, 0.0) + weight
        winner = max(sorted(by), key=lambda name: by[name])
        mine = tuple(row for row in votes if pool.entry(row).controller == winner)
        return Reading(
            winner,
            by[winner] / float(weights.sum()),
            float(scores[mine[0]]),
            mine,
            tuple(sorted({pool.entry(row).user for row in mine})),
        )

    def choose(
        self,
        pool: ExamplePool,
        probe: Probe,
        user: str,
        team: str | None,
        names: list[str],
        shared: Callable[[int], bool],
    ) -> OnlineChoice | None:
        """The layer's controller for a message with its calibrated probability; None while
        the tests are too few or nothing visible is alike."""
        weights = self._calibration()
        if weights is None:
            return None
        reading = self.read(pool, probe, user, team, names, shared)
        if reading is None or reading.nearest < self._floor:
            return None
        probability = float(1.0 / (1.0 + np.exp(-reading.features() @ weights)))
        scope = "user" if reading.users == (user,) else "org"
        return OnlineChoice(reading, probability, scope, pool.entry(reading.rows[0]))

    def _is_shared(self, row: int, shared: Callable[[int], bool]) -> bool:
        found = self._shared.get(row)
        if found is None:
            found = self._shared[row] = shared(row)
        return found

    def _calibration(self) -> np.ndarray | None:
        """The logistic fit on the latest tests (refitted when a test came in)."""
        if len(self._tests) < MIN_TESTS:
            return None
        if self._fitted_at != self._added:
            x = np.stack([features for features, _ in self._tests])
            y = np.array([right for _, right in self._tests], dtype=np.float64)
            self._weights = fit_logistic(x, y)
            self._floor = learned_floor(x[:, 2], y)
            self._fitted_at = self._added
        return self._weights


def fit_logistic(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Weights of a logistic regression with an L2 penalty (not on the intercept, column 0),
    by Newton's method: a few features and at most WINDOW rows."""
    weights = np.zeros(x.shape[1], dtype=np.float64)
    penalty = np.full(x.shape[1], PENALTY)
    penalty[0] = 1e-6
    for _ in range(25):
        p = 1.0 / (1.0 + np.exp(-x @ weights))
        gradient = x.T @ (p - y) + penalty * weights
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if float(np.abs(step).max()) < 1e-6:
            break
    return weights


def learned_floor(nearest: np.ndarray, right: np.ndarray) -> float:
    """The least alike a test's nearest example was when the layer was right (1.0: never
    right): below it nothing says the layer knows the wording."""
    found = nearest[right > 0]
    return float(found.min()) if len(found) else 1.0
