"""The corrections as examples in one matrix each measure, compared with a message at once.

`brain.memory.agreed` decides who a correction reaches; this is the space it decides in. Two
texts are compared by the MiniLM cosine when both are Latin script with embeddings, by the
multilingual encoder (`core.text.multilingual`) when either is Chinese, and by character
n-gram overlap when no encoder serves the pair. Each measure has its own thresholds, since
similarities of different measures are not comparable:

- LINK and FLOOR (MiniLM) were set on the tuned stories of
  `benchmarks/org_agreement_stories.py` and measured on its held-out ones.
- CROSS_LINK and CROSS_FLOOR (multilingual) are matched to them, not tuned on the stories: of
  the training rows (brain/data/training.jsonl), 72% of the English ones have a row of
  another controller at least FLOOR alike by MiniLM (87% at LINK); the multilingual cosine
  that the same share of Chinese rows reach to a row of another controller is the threshold,
  with English rows on the other side (MIXED) or Chinese ones (CHINESE)
  (`benchmarks/multilingual_thresholds.py`).

MiniLM is English-only and character n-grams do not cross scripts: before the multilingual
measure, a Chinese message never met an English correction, nor a Chinese one worded with
other characters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from brain.memory.entry import MOVED_TO, Lesson, gram_set
from brain.memory.reach import Measure, ReachEvidence, ReachTest
from brain.memory.scan import NGRAM_GATES
from brain.semantic.features import single_thread_blas
from core.text.language import is_chinese
from core.text.multilingual import multilingual_vectors

#: Two corrections this alike (embedding cosine) are about the same kind of message.
LINK = 0.30
#: A message this alike to an agreed example is a message like it.
FLOOR = 0.35
#: Character n-gram overlap that makes two texts alike when either is not Latin script and
#: the multilingual encoder cannot run.
GRAM_LINK = NGRAM_GATES["cjk"][0]
#: LINK and FLOOR for the multilingual cosine, Chinese on one side (MIXED) or both (CHINESE).
CROSS_LINK = {Measure.MIXED: 0.30, Measure.CHINESE: 0.355}
CROSS_FLOOR = {Measure.MIXED: 0.33, Measure.CHINESE: 0.38}

#: The workspace of a removed row (equal to no message's).
_GONE = object()


#: Rows the embedding matrix grows by at least (it doubles).
MIN_ROWS = 256


class ExamplePool:
    """The corrections as examples: their lessons, the embeddings of the Latin ones (a zero
    row for the others) and their character n-gram postings, so a message is compared with
    all of them in one product. It grows by appending, as the lesson scan does: a new
    correction is one more row, a removed one a dead row, so a correction costs no rebuild."""

    def __init__(self) -> None:
        self.entries: list[Lesson | None] = []
        self.row_of: dict[str, int] = {}
        self.dead = 0
        self._matrix = np.zeros((0, 0), dtype=np.float32)
        #: Multilingual vectors of the first `_cross_rows` rows, made when a comparison needs them.
        self._cross = np.zeros((0, 0), dtype=np.float32)
        self._cross_rows = 0
        self._rows: dict[str, list] = {
            "dense": [],
            "team": [],
            "controller": [],
            "user": [],
            "size": [],
            "latin": [],
            "corrected": [],
        }
        self._postings: dict[str, list[int]] = {}
        self._arrays: dict[str, np.ndarray] | None = None
        self._posting_arrays: dict[str, np.ndarray] = {}
        #: How often the examples were right for the corrections that came after them.
        self.evidence = ReachEvidence()

    def add(self, entry: Lesson) -> None:
        row = len(self.entries)
        vector = entry.vector
        if vector is not None and self._matrix.shape[1] == 0:
            self._matrix = np.zeros((MIN_ROWS, vector.shape[0]), dtype=np.float32)
        dense = entry.latin and vector is not None and vector.shape[0] == self._matrix.shape[1]
        if dense:
            if row >= self._matrix.shape[0]:
                grown = np.zeros((max(2 * row, MIN_ROWS), self._matrix.shape[1]), np.float32)
                grown[: self._matrix.shape[0]] = self._matrix
                self._matrix = grown
            self._matrix[row] = vector
        self.entries.append(entry)
        self.row_of[entry.memory_id] = row
        for name, value in (
            ("dense", dense),
            ("team", entry.team),
            ("controller", entry.controller),
            ("user", entry.user),
            ("size", len(entry.grams)),
            ("latin", entry.latin),
            ("corrected", entry.kind == MOVED_TO),
        ):
            self._rows[name].append(value)
        for gram in entry.grams:
            self._postings.setdefault(gram, []).append(row)
            self._posting_arrays.pop(gram, None)
        self._arrays = None

    def test(self, entry: Lesson) -> ReachTest | None:
        """A new correction as a test of the examples before it (call before adding it): the
        nearest one of its workspace within FLOOR, and whether it named the same controller."""
        if not self.row_of:
            return None
        scores, measures = self.alike(Probe.of(entry))
        alike = (self._array("team") == entry.team) & (scores >= floors(measures)) & self.corrected
        if not alike.any():
            return None
        best = int(np.flatnonzero(alike)[np.argmax(scores[alike])])
        right = self.entry(best).controller == entry.controller
        return ReachTest(float(scores[best]), Measure(int(measures[best])), right)

    def remove(self, memory_id: str) -> None:
        row = self.row_of.pop(memory_id, None)
        if row is None:
            return
        self.entries[row] = None
        self._rows["team"][row] = _GONE  # no message's workspace: never usable again
        self.dead += 1
        self._arrays = None

    def _array(self, name: str) -> np.ndarray:
        if self._arrays is None:
            self._arrays = {
                "dense": np.array(self._rows["dense"], dtype=bool),
                "team": np.array(self._rows["team"], dtype=object),
                "controller": np.array(self._rows["controller"], dtype=object),
                "user": np.array(self._rows["user"], dtype=object),
                "size": np.array(self._rows["size"], dtype=np.float32),
                "latin": np.array(self._rows["latin"], dtype=bool),
                "corrected": np.array(self._rows["corrected"], dtype=bool),
            }
        return self._arrays[name]

    @property
    def dense(self) -> np.ndarray:
        """Rows compared by the embedding (Latin text with one); the rest by n-grams."""
        return self._array("dense")

    @property
    def corrected(self) -> np.ndarray:
        """Rows that are corrections (the others: routes a person confirmed, which count as
        that person's agreement but move no message by themselves)."""
        return self._array("corrected")

    @property
    def controllers(self) -> np.ndarray:
        """Each row's controller."""
        return self._array("controller")

    @property
    def users(self) -> np.ndarray:
        """Each row's user."""
        return self._array("user")

    def entry(self, row: int) -> Lesson:
        found = self.entries[row]
        assert found is not None, "a dead row is never usable"
        return found

    def usable(self, team: str | None, names: Sequence[str]) -> np.ndarray:
        """Live rows of the workspace `team` whose controller is one of `names`."""
        return (self._array("team") == team) & np.isin(self._array("controller"), list(names))

    def same_team(self, row: int) -> np.ndarray:
        return self._array("team") == self._array("team")[row]

    def alike(self, probe: Probe) -> tuple[np.ndarray, np.ndarray]:
        """Each example's similarity to a text, and the Measure it was compared by: the
        embedding cosine where both are Latin text with embeddings, the multilingual cosine
        where either is Chinese, else the overlap of their character n-grams."""
        count = len(self.entries)
        vector = probe.vector
        by_vector = self.dense & (vector is not None and probe.latin)
        scores = np.zeros(count, dtype=np.float32)
        measures = np.full(count, Measure.NGRAMS, dtype=np.int8)
        if vector is not None and by_vector.any() and vector.shape[0] == self._matrix.shape[1]:
            # One matrix-vector product: a second BLAS thread only adds hand-off cost.
            with single_thread_blas():
                scores = self._matrix[:count] @ vector.astype(np.float32)
            measures[by_vector] = Measure.EMBEDDING
        latin_rows = self._array("latin")
        crossing = ~latin_rows | (not probe.latin)
        if crossing.any():
            matrix = self.cross_matrix()
            query = probe.cross(self)
            if matrix is not None and query is not None:
                with single_thread_blas():
                    scores = np.where(crossing, matrix[:count] @ query, scores)
                both = ~latin_rows & (not probe.latin)
                measures[crossing] = np.where(both, Measure.CHINESE, Measure.MIXED)[crossing]
        by_grams = measures == Measure.NGRAMS
        if by_grams.any():
            scores = np.where(by_grams, self.overlaps(probe.grams), scores)
        return scores, measures

    def cross_matrix(self) -> np.ndarray | None:
        """The examples' multilingual vectors (rows in pool order); None when the encoder
        cannot run. Made on the first comparison that needs them, then one row per new
        example, so a pool of English corrections asked in English never loads the encoder."""
        count = len(self.entries)
        if self._cross_rows < count:
            texts = [e.text if e is not None else "" for e in self.entries[self._cross_rows :]]
            vectors = multilingual_vectors(texts)
            if vectors is None:
                return None
            if self._cross.shape[0] < count:
                grown = np.zeros((max(2 * count, MIN_ROWS), vectors.shape[1]), np.float32)
                if self._cross_rows:
                    grown[: self._cross_rows] = self._cross[: self._cross_rows]
                self._cross = grown
            self._cross[self._cross_rows : count] = vectors
            self._cross_rows = count
        return self._cross

    def overlaps(self, grams: frozenset[str]) -> np.ndarray:
        """Each example's character n-gram overlap with `grams` (cosine of the sets),
        counted through the n-gram postings instead of comparing every example's set."""
        shared = np.zeros(len(self.entries), dtype=np.float32)
        for gram in grams:
            rows = self._posting_arrays.get(gram)
            if rows is None and gram in self._postings:
                rows = self._posting_arrays[gram] = np.array(self._postings[gram], np.int64)
            if rows is not None:
                shared[rows] += 1.0
        if not grams:
            return shared
        return shared / np.sqrt(np.maximum(self._array("size") * len(grams), 1.0))


@dataclass(slots=True)
class Probe:
    """A text compared with the examples. Its multilingual vector is made only when a
    comparison needs it (an example of the pool's own: its row of the pool's matrix)."""

    text: str
    vector: np.ndarray | None
    grams: frozenset[str]
    latin: bool
    row: int | None = None
    _cross: np.ndarray | None = field(default=None, init=False, repr=False)
    _tried: bool = field(default=False, init=False, repr=False)

    @classmethod
    def message(cls, text: str, vector: np.ndarray | None) -> Probe:
        """A message, with its embedding when it has one."""
        return cls(text, vector, gram_set(text), not is_chinese(text))

    @classmethod
    def of(cls, entry: Lesson, row: int | None = None) -> Probe:
        """A correction: a new one, or the pool's own at `row`."""
        vector = entry.vector if entry.latin else None
        return cls(entry.text, vector, entry.grams, entry.latin, row)

    def cross(self, pool: ExamplePool) -> np.ndarray | None:
        if self.row is not None:
            matrix = pool.cross_matrix()
            return None if matrix is None else matrix[self.row]
        if not self._tried:
            self._tried = True
            found = multilingual_vectors([self.text])
            self._cross = None if found is None else found[0]
        return self._cross


def _thresholds(embedding: float, cross: dict[Measure, float]) -> np.ndarray:
    table = {Measure.NGRAMS: GRAM_LINK, Measure.EMBEDDING: embedding, **cross}
    return np.array([table[m] for m in sorted(Measure)], dtype=np.float32)


_FLOORS = _thresholds(FLOOR, CROSS_FLOOR)
_LINKS = _thresholds(LINK, CROSS_LINK)
#: How corrections are linked into groups, as saved groups record it (other values: regroup).
LINKING = "link " + " ".join(f"{value:.3f}" for value in _LINKS.tolist())


def floors(measures: np.ndarray) -> np.ndarray:
    """Per example, how alike a message must be to it to be a message like it."""
    return _FLOORS[measures]


def links(measures: np.ndarray) -> np.ndarray:
    """Per example, how alike another correction must be to be about the same kind."""
    return _LINKS[measures]
