"""Similarity of a message to lessons: exactly, for a few candidates or for every lesson.

`similarity` scores one lesson (embedding cosine for Latin text, character n-gram overlap for
any language); `LessonScan` scores every lesson at once with numpy, for a process that does
not hold the Qdrant lesson index (`brain.memory.index`). The scan grows by appending: a new
lesson is one more row of the vector matrix and n-gram index, a removed one a tombstone
(rows are compacted once half are dead), so a write never rebuilds anything.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import numpy as np

from brain.memory.entry import Lesson

log = logging.getLogger(__name__)

#: Similarity gates: below `gate` a memory is about something else; at `full` it counts fully.
#: MiniLM is English-only (two unrelated Chinese sentences can reach 0.8), so the embedding
#: channel is used only when both texts are mostly Latin script; the character n-gram channel
#: (cosine of 2-3-gram sets) works for every language.
COSINE_GATE, COSINE_FULL = 0.55, 0.80
#: Latin-script texts share many frequent character n-grams ("th", "in "), Chinese ones few:
#: the n-gram channel is gated higher for Latin text.
NGRAM_GATES = {"latin": (0.35, 0.70), "cjk": (0.20, 0.45)}
#: Rows the matrix grows by at least (it doubles).
MIN_CAPACITY = 256


def _ramp(value: float, gate: float, full: float) -> float:
    return float(min(max((value - gate) / (full - gate), 0.0), 1.0))


def similarity(
    entry: Lesson,
    *,
    vector: np.ndarray | None,
    grams: frozenset[str],
    latin: bool,
) -> float:
    """How alike a message (its vector, n-grams, script) and one lesson are, 0..1. When both
    are Latin text with embeddings, the embedding alone says it: shared character n-grams of
    "install ... on my laptop" would make "install Slack" a message like "install Docker"."""
    stored = entry.vector
    usable = stored is not None and vector is not None and stored.shape == vector.shape
    if usable and latin and entry.latin:
        assert stored is not None and vector is not None
        return _ramp(float(np.dot(stored, vector.astype(np.float32))), COSINE_GATE, COSINE_FULL)
    factor = 0.0
    if grams and entry.grams:
        gate, full = NGRAM_GATES["latin" if latin else "cjk"]
        overlap = len(grams & entry.grams) / float(np.sqrt(len(grams) * len(entry.grams)))
        factor = max(factor, _ramp(overlap, gate, full))
    return factor


class LessonScan:
    """Every lesson as a row: vectors, n-gram postings, script; appended to, never rebuilt."""

    def __init__(self, embed: Callable[[list[str]], np.ndarray] | None = None) -> None:
        self.embed = embed
        self._reset()

    def _reset(self) -> None:
        self._rows: list[Lesson | None] = []
        self._row_of: dict[str, int] = {}
        self._postings: dict[str, list[int]] = {}
        self._sizes = np.zeros(MIN_CAPACITY, dtype=np.float32)
        self._latin = np.zeros(MIN_CAPACITY, dtype=bool)
        self._matrix: np.ndarray | None = None
        self._dead = 0

    def __len__(self) -> int:
        return len(self._row_of)

    def add(self, entry: Lesson) -> None:
        """Append a lesson (a lesson with the same id is replaced: tombstoned, appended)."""
        self.remove(entry.memory_id)
        row = len(self._rows)
        self._grow(row + 1)
        self._rows.append(entry)
        self._row_of[entry.memory_id] = row
        for gram in entry.grams:
            self._postings.setdefault(gram, []).append(row)
        self._sizes[row] = len(entry.grams)
        self._latin[row] = entry.latin
        if self._matrix is not None:
            self._set_vector(row, entry)

    def remove(self, memory_id: str) -> None:
        """Tombstone a lesson; compact the rows once half of them are dead."""
        row = self._row_of.pop(memory_id, None)
        if row is None:
            return
        self._rows[row] = None
        self._sizes[row] = 0.0
        self._latin[row] = False
        if self._matrix is not None:
            self._matrix[row] = 0.0
        self._dead += 1
        if self._dead > MIN_CAPACITY and self._dead * 2 > len(self._rows):
            self._compact()

    def _compact(self) -> None:
        alive = [entry for entry in self._rows if entry is not None]
        dim = None if self._matrix is None else self._matrix.shape[1]
        self._reset()
        for entry in alive:
            self.add(entry)
        if dim is not None:
            self._vectors(dim)

    def _grow(self, rows: int) -> None:
        capacity = self._sizes.shape[0]
        if rows <= capacity:
            return
        capacity = max(capacity * 2, rows, MIN_CAPACITY)
        self._sizes = np.resize(self._sizes, capacity)
        self._latin = np.resize(self._latin, capacity)
        if self._matrix is not None:
            grown = np.zeros((capacity, self._matrix.shape[1]), dtype=np.float32)
            grown[: self._matrix.shape[0]] = self._matrix
            self._matrix = grown

    def _set_vector(self, row: int, entry: Lesson) -> None:
        assert self._matrix is not None
        dim = self._matrix.shape[1]
        if (entry.vector is None or entry.vector.shape[0] != dim) and self.embed is not None:
            try:
                entry.vector = np.asarray(self.embed([entry.text])[0], dtype=np.float32)
            except Exception as exc:  # similarity then falls back to n-grams for it
                log.warning("could not embed a memory: %s", exc)
        if entry.vector is not None and entry.vector.shape[0] == dim:
            self._matrix[row] = entry.vector

    def _vectors(self, dim: int) -> np.ndarray:
        """The vector matrix, built once (and when the dimension changes), then appended to."""
        if self._matrix is None or self._matrix.shape[1] != dim:
            live = [e for e in self._rows if e is not None]
            missing = [e for e in live if e.vector is None or e.vector.shape[0] != dim]
            if missing and self.embed is not None:
                try:
                    vectors = self.embed([e.text for e in missing])
                    for entry, vector in zip(missing, vectors, strict=True):
                        entry.vector = np.asarray(vector, dtype=np.float32)
                except Exception as exc:  # similarity then falls back to n-grams for them
                    log.warning("could not embed %d memories: %s", len(missing), exc)
            self._matrix = np.zeros((self._sizes.shape[0], dim), dtype=np.float32)
            for row, kept in enumerate(self._rows):
                if kept is not None and kept.vector is not None and kept.vector.shape[0] == dim:
                    self._matrix[row] = kept.vector
        return self._matrix

    def factors(
        self, *, vector: np.ndarray | None, grams: frozenset[str], latin: bool
    ) -> list[tuple[Lesson, float]]:
        """Every lesson with a similarity above 0 (as `similarity` computes it)."""
        count = len(self._rows)
        if not self._row_of:
            return []
        factors = np.zeros(count, dtype=np.float32)
        embedded = np.zeros(count, dtype=bool)
        if vector is not None and latin:
            matrix = self._vectors(int(vector.shape[0]))[:count]
            cosines = matrix @ vector.astype(np.float32)
            factors = np.clip((cosines - COSINE_GATE) / (COSINE_FULL - COSINE_GATE), 0, 1)
            embedded = self._latin[:count] & np.any(matrix != 0.0, axis=1)
            factors = np.where(embedded, factors, 0.0).astype(np.float32)
        if grams:
            gate, full = NGRAM_GATES["latin" if latin else "cjk"]
            sizes = self._sizes[:count]
            shared = np.zeros(count, dtype=np.float32)
            for gram in grams:
                rows = self._postings.get(gram)
                if rows:
                    shared[rows] += 1.0
            with np.errstate(divide="ignore", invalid="ignore"):
                overlap = np.where(
                    sizes > 0, shared / np.sqrt(len(grams) * np.maximum(sizes, 1.0)), 0.0
                )
            ramped = np.clip((overlap - gate) / (full - gate), 0.0, 1.0)
            ramped = np.where(embedded, 0.0, ramped)  # the embedding says it (`similarity`)
            factors = np.maximum(factors, ramped.astype(np.float32))
        found: list[tuple[Lesson, float]] = []
        for row in np.flatnonzero(factors > 0).tolist():
            entry = self._rows[row]
            if entry is not None:
                found.append((entry, float(factors[row])))
        return found
