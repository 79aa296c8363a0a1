"""Agreed corrections as examples: what several people taught reaches everyone's paraphrases.

`brain.memory.preference` recalls a lesson for messages nearly like its own (the memory's
similarity factor, which starts at an embedding cosine of 0.55). Three people who each correct
their own message about one kind of problem word them differently: their messages are 0.3-0.6
apart, so they rarely formed a group, and a fourth person's paraphrase was rarely that close to
one of them (benchmarks/org_agreement_story.py: a fourth user's paraphrases moved 0 of 36).

Here the corrected messages are examples of the controller they were moved to, as the semantic
model's shipped examples are of theirs, in the same space (the MiniLM embedding for Latin text,
character n-grams otherwise):

- **Agreement.** A correction belongs to the group of the corrections within LINK of it (and
  itself); each user's latest counts once. A group whose users all moved their messages to one
  controller, with at least `agreement` users, makes its examples everyone's. A group whose
  users disagree makes none of them anyone's (a conflict: `brain memory conflicts`).
- **Reach.** A message takes an agreed example's controller when that example is within FLOOR
  of it, is nearer than any correction to another controller, and is about as near as the
  nearest example the model was shipped with (`nearest`, at most MARGIN less): the agreed
  examples join the model's examples, and a message nearer one of the controller's own examples
  stays where the model puts it ("install Slack" stays with `access` after three people moved
  "install Docker" messages to `coding`).

The thresholds are cosines of the embedding. LINK and FLOOR were set on the tuned stories of
`benchmarks/org_agreement_stories.py` and measured on its held-out ones (see that benchmark);
MARGIN makes a tie with a shipped example go to the agreed one (three people asked for it).
Chinese text has no embedding channel (MiniLM is English-only): its examples meet only by
character n-grams, with the memory's own gate for Chinese.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from brain.memory.entry import MOVED_TO, MemoryEntry, gram_set
from brain.memory.lessons import MemoryStore
from brain.memory.preference import Conflict, Preference, latest_per_user
from brain.memory.scan import NGRAM_GATES
from core.text.language import is_chinese

#: Two corrections this alike (embedding cosine) are about the same kind of message.
LINK = 0.30
#: A message this alike to an agreed example is a message like it.
FLOOR = 0.35
#: An agreed example may be this much less alike than the nearest shipped example.
MARGIN = 0.10
#: Character n-gram overlap that makes two texts alike when either is not Latin script.
GRAM_LINK = NGRAM_GATES["cjk"][0]


@dataclass(frozen=True, slots=True)
class _Pool:
    """The corrections as examples: their lessons, and the embeddings of the Latin ones
    (a zero row for the others), so a message is compared with all of them in one product."""

    entries: list[MemoryEntry]
    matrix: np.ndarray
    #: Rows compared by the embedding (Latin text with one); the rest by n-grams.
    dense: np.ndarray

    def alike(self, vector: np.ndarray | None, grams: frozenset[str], latin: bool) -> np.ndarray:
        """Each example's similarity to a text: the embedding cosine where both are Latin
        text with embeddings, else the overlap of their character n-grams."""
        scores = np.zeros(len(self.entries), dtype=np.float32)
        by_vector = self.dense & (vector is not None and latin)
        if vector is not None and by_vector.any():
            scores[by_vector] = self.matrix[by_vector] @ vector.astype(np.float32)
        for row in np.flatnonzero(~by_vector):
            scores[row] = _overlap(grams, self.entries[row].grams)
        return scores

    def threshold(self, vector: np.ndarray | None, latin: bool, dense_value: float) -> np.ndarray:
        """Per example: `dense_value` where compared by the embedding, else GRAM_LINK."""
        by_vector = self.dense & (vector is not None and latin)
        return np.where(by_vector, dense_value, GRAM_LINK)


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / float(np.sqrt(len(a) * len(b)))


def _nearer_than_shipped(score: float, dense: bool, nearest: float | None) -> bool:
    """An example this alike is no farther than the model's nearest own example (MARGIN)."""
    return not dense or nearest is None or score >= nearest - MARGIN


class AgreedExamples:
    """The corrections of one brain's memory as examples, kept per lesson-store version."""

    def __init__(self, store: MemoryStore) -> None:
        self._store = store
        self._lock = threading.Lock()
        self._version = -2
        self._pool: _Pool | None = None

    def _current(self) -> _Pool:
        version, entries = self._store.snapshot()
        with self._lock:
            if self._pool is None or version != self._version:
                self._pool = self._build([e for e in entries if e.kind == MOVED_TO])
                self._version = version
            return self._pool

    def _build(self, moves: list[MemoryEntry]) -> _Pool:
        missing = [e for e in moves if e.vector is None and e.latin]
        if missing and self._store.embed is not None:
            # Compared by meaning in every process, also one where the lesson came unembedded.
            vectors = self._store.embed([e.text for e in missing])
            for entry, vector in zip(missing, vectors, strict=True):
                entry.vector = np.asarray(vector, dtype=np.float32)
        dims = {e.vector.shape[0] for e in moves if e.vector is not None}
        dim = max(dims) if dims else 1
        matrix = np.zeros((len(moves), dim), dtype=np.float32)
        dense = np.zeros(len(moves), dtype=bool)
        for row, entry in enumerate(moves):
            if entry.latin and entry.vector is not None and entry.vector.shape[0] == dim:
                matrix[row] = entry.vector
                dense[row] = True
        return _Pool(moves, matrix, dense)

    def preference(
        self,
        text: str,
        *,
        vector: np.ndarray | None,
        user: str,
        names: Sequence[str],
        agreement: int,
        nearest: float | None,
        team: str | None = None,
    ) -> Preference | None:
        """Where the corrected messages most like `text` say it belongs: the asker's own
        (scope "user"), else an agreed group's (scope "org"); None when nothing is alike
        enough, alike corrections disagree, or a shipped example is nearer."""
        pool = self._current()
        if not pool.entries:
            return None
        latin = not is_chinese(text)
        if vector is not None and vector.shape[0] != pool.matrix.shape[1]:
            vector = None
        scores = pool.alike(vector, gram_set(text), latin)
        dense = pool.dense & (vector is not None and latin)
        known = set(names)
        usable = np.array([e.team == team and e.controller in known for e in pool.entries])
        near = np.flatnonzero(usable & (scores >= pool.threshold(vector, latin, FLOOR)))
        near = near[np.argsort(-scores[near], kind="stable")]
        if not len(near):
            return None
        own = [int(i) for i in near if pool.entries[i].user == user]
        if own and _nearer_than_shipped(float(scores[own[0]]), bool(dense[own[0]]), nearest):
            entry = pool.entries[own[0]]  # the asker's own examples count for them at once
            return Preference(entry.controller, "user", entry, float(scores[own[0]]), (user,))
        if len({pool.entries[i].controller for i in near}) != 1:
            return None  # alike corrections that disagree: a conflict moves no one
        best = int(near[0])
        if not _nearer_than_shipped(float(scores[best]), bool(dense[best]), nearest):
            return None  # one of the model's own examples is nearer
        users = self._agreed(pool, best, usable, agreement)
        if users is None:
            return None
        entry = pool.entries[best]
        return Preference(entry.controller, "org", entry, float(scores[best]), users)

    def conflicts(self) -> list[Conflict]:
        """Groups whose users' latest corrections went to different controllers (what
        `brain memory conflicts` reports beside the memory's own near-copy groups)."""
        pool = self._current()
        found: list[Conflict] = []
        reported: set[str] = set()
        for row, entry in enumerate(pool.entries):
            if entry.memory_id in reported:
                continue
            usable = np.array([e.team == entry.team for e in pool.entries])
            latest = latest_per_user(_group(pool, row, usable))
            targets: dict[str, set[str]] = {}
            for other, _ in latest.values():
                targets.setdefault(other.controller, set()).add(other.user)
            if len(targets) > 1:
                reported.update(other.memory_id for other, _ in latest.values())
                found.append(
                    Conflict(entry, {name: tuple(sorted(u)) for name, u in targets.items()})
                )
        return found

    @staticmethod
    def _agreed(
        pool: _Pool, row: int, usable: np.ndarray, agreement: int
    ) -> tuple[str, ...] | None:
        """The users of the example's group, when they are at least `agreement` and each
        one's latest correction went to one controller."""
        latest = latest_per_user(_group(pool, row, usable))
        if len({entry.controller for entry, _ in latest.values()}) != 1 or len(latest) < agreement:
            return None
        return tuple(sorted(latest))


def _group(pool: _Pool, row: int, usable: np.ndarray) -> list[tuple[MemoryEntry, float]]:
    """A correction's group: itself and the usable corrections within LINK of it."""
    example = pool.entries[row]
    vector = example.vector if pool.dense[row] else None
    scores = pool.alike(vector, example.grams, example.latin)
    linked = usable & (scores >= pool.threshold(vector, example.latin, LINK))
    linked[row] = True
    return [(pool.entries[i], float(scores[i])) for i in np.flatnonzero(linked)]
