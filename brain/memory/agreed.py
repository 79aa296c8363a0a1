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
  users disagree makes none of them anyone's (a conflict: `brain memory conflicts`). Where many
  people corrected a desk's varied tickets, every neighbourhood holds corrections to several
  controllers: there the VOTERS nearest corrections vote, each user once, and a controller
  with at least `agreement` users and MAJORITY times the users of any other is the group's
  (two people against one is still a conflict).
- **Reach.** A message takes an agreed example's controller when that example is within FLOOR
  of it, is nearer than any correction to another controller, and is about as near as the
  nearest example the model was shipped with (`nearest`, at most MARGIN less): the agreed
  examples join the model's examples, and a message nearer one of the controller's own examples
  stays where the model puts it ("install Slack" stays with `access` after three people moved
  "install Docker" messages to `coding`); and while examples that alike were right for the
  corrections that came after them at least as often as wrong (`brain.memory.reach`: on a
  desk's long e-mails they mostly were not).

The thresholds are cosines of the embedding. LINK and FLOOR were set on the tuned stories of
`benchmarks/org_agreement_stories.py` and measured on its held-out ones (see that benchmark);
MARGIN makes a tie with a shipped example go to the agreed one (three people asked for it).
Chinese text has no embedding channel (MiniLM is English-only): its examples meet only by
character n-grams, with the memory's own gate for Chinese.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from brain.memory.entry import MOVED_TO, MemoryEntry, gram_set
from brain.memory.lessons import MemoryStore
from brain.memory.preference import Conflict, Preference, latest_per_user
from brain.memory.reach import WINDOW, ReachEvidence, ReachTest
from brain.memory.scan import NGRAM_GATES
from brain.semantic.features import single_thread_blas
from core.text.language import is_chinese

#: Two corrections this alike (embedding cosine) are about the same kind of message.
LINK = 0.30
#: A message this alike to an agreed example is a message like it.
FLOOR = 0.35
#: An agreed example may be this much less alike than the nearest shipped example.
MARGIN = 0.10
#: Character n-gram overlap that makes two texts alike when either is not Latin script.
GRAM_LINK = NGRAM_GATES["cjk"][0]


#: Where alike corrections disagree, the nearest this many vote (each user once) ...
VOTERS = 10
#: ... and a controller needs this many times the users of any other.
MAJORITY = 2

#: Rows the embedding matrix grows by at least (it doubles).
MIN_ROWS = 256


class _Pool:
    """The corrections as examples: their lessons, the embeddings of the Latin ones (a zero
    row for the others) and their character n-gram postings, so a message is compared with
    all of them in one product. It grows by appending, as the lesson scan does: a new
    correction is one more row, a removed one a dead row, so a correction costs no rebuild."""

    def __init__(self) -> None:
        self.entries: list[MemoryEntry | None] = []
        self.row_of: dict[str, int] = {}
        self.dead = 0
        self._matrix = np.zeros((0, 0), dtype=np.float32)
        self._rows: dict[str, list] = {"dense": [], "team": [], "controller": [], "size": []}
        self._postings: dict[str, list[int]] = {}
        self._arrays: dict[str, np.ndarray] | None = None
        self._posting_arrays: dict[str, np.ndarray] = {}
        #: How often the examples were right for the corrections that came after them.
        self.evidence = ReachEvidence()

    def add(self, entry: MemoryEntry) -> None:
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
            ("size", len(entry.grams)),
        ):
            self._rows[name].append(value)
        for gram in entry.grams:
            self._postings.setdefault(gram, []).append(row)
            self._posting_arrays.pop(gram, None)
        self._arrays = None

    def test(self, entry: MemoryEntry) -> ReachTest | None:
        """A new correction as a test of the examples before it (call before adding it): the
        nearest one of its workspace within FLOOR, and whether it named the same controller."""
        if not self.row_of:
            return None
        vector = entry.vector
        scores = self.alike(vector, entry.grams, entry.latin)
        alike = (self._array("team") == entry.team) & (
            scores >= self.threshold(vector, entry.latin, FLOOR)
        )
        if not alike.any():
            return None
        best = int(np.flatnonzero(alike)[np.argmax(scores[alike])])
        dense = bool(self.dense[best]) and vector is not None and entry.latin
        right = self.entry(best).controller == entry.controller
        return ReachTest(float(scores[best]), dense, right)

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
                "size": np.array(self._rows["size"], dtype=np.float32),
            }
        return self._arrays[name]

    @property
    def dense(self) -> np.ndarray:
        """Rows compared by the embedding (Latin text with one); the rest by n-grams."""
        return self._array("dense")

    def entry(self, row: int) -> MemoryEntry:
        found = self.entries[row]
        assert found is not None, "a dead row is never usable"
        return found

    def usable(self, team: str | None, names: Sequence[str]) -> np.ndarray:
        """Live rows of the workspace `team` whose controller is one of `names`."""
        return (self._array("team") == team) & np.isin(self._array("controller"), list(names))

    def same_team(self, row: int) -> np.ndarray:
        return self._array("team") == self._array("team")[row]

    def alike(self, vector: np.ndarray | None, grams: frozenset[str], latin: bool) -> np.ndarray:
        """Each example's similarity to a text: the embedding cosine where both are Latin
        text with embeddings, else the overlap of their character n-grams."""
        count = len(self.entries)
        by_vector = self.dense & (vector is not None and latin)
        scores = np.zeros(count, dtype=np.float32)
        if vector is not None and by_vector.any() and vector.shape[0] == self._matrix.shape[1]:
            # One matrix-vector product: a second BLAS thread only adds hand-off cost.
            with single_thread_blas():
                scores = self._matrix[:count] @ vector.astype(np.float32)
        if not by_vector.all():
            scores = np.where(by_vector, scores, self.overlaps(grams))
        return scores

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

    def threshold(self, vector: np.ndarray | None, latin: bool, dense_value: float) -> np.ndarray:
        """Per example: `dense_value` where compared by the embedding, else GRAM_LINK."""
        by_vector = self.dense & (vector is not None and latin)
        return np.where(by_vector, dense_value, GRAM_LINK)


@dataclass(frozen=True, slots=True)
class AgreedGroup:
    """Corrections whose users agree: examples of `controller` for everyone."""

    controller: str
    users: tuple[str, ...]
    #: Each user's latest correction in the group.
    members: tuple[MemoryEntry, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "controller": self.controller,
            "users": list(self.users),
            "texts": [e.text for e in self.members],
        }


#: The workspace of a removed row (equal to no message's).
_GONE = object()


def _nearer_than_shipped(score: float, dense: bool, nearest: float | None) -> bool:
    """An example this alike is no farther than the model's nearest own example (MARGIN)."""
    return not dense or nearest is None or score >= nearest - MARGIN


class AgreedExamples:
    """The corrections of one brain's memory as examples, following the lesson store."""

    def __init__(self, store: MemoryStore) -> None:
        self._store = store
        self._lock = threading.Lock()
        self._version = -2
        self._pool = _Pool()

    def _current(self) -> _Pool:
        version, entries = self._store.snapshot()
        with self._lock:
            if version != self._version:
                self._follow([e for e in entries if e.kind == MOVED_TO])
                self._version = version
            return self._pool

    def _follow(self, moves: list[MemoryEntry]) -> None:
        """Take in the corrections as they stand: the removed ones die, new ones are added
        (the pool starts again when half of it is dead)."""
        pool = self._pool
        if pool.dead > MIN_ROWS and 2 * pool.dead > len(pool.entries):
            pool = self._pool = _Pool()
        ids = {e.memory_id for e in moves}
        for gone in [m for m in pool.row_of if m not in ids]:
            pool.remove(gone)
        new = [
            e
            for e in moves
            if e.memory_id not in pool.row_of or pool.entries[pool.row_of[e.memory_id]] is not e
        ]
        missing = [e for e in new if e.vector is None and e.latin]
        if missing and self._store.embed is not None:
            # Compared by meaning in every process, also one where the lesson came unembedded.
            vectors = self._store.embed([e.text for e in missing])
            for entry, vector in zip(missing, vectors, strict=True):
                entry.vector = np.asarray(vector, dtype=np.float32)
        new.sort(key=lambda e: e.order)
        for index, entry in enumerate(new):
            pool.remove(entry.memory_id)  # a lesson rewritten under its id is replaced
            # The latest corrections test the examples before them (`brain.memory.reach`).
            test = pool.test(entry) if index >= len(new) - WINDOW else None
            if test is not None:
                pool.evidence.add(test)
            pool.add(entry)

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
        if not pool.row_of:
            return None
        latin = not is_chinese(text)
        scores = pool.alike(vector, gram_set(text), latin)
        dense = pool.dense & (vector is not None and latin)
        usable = pool.usable(team, names)
        near = np.flatnonzero(usable & (scores >= pool.threshold(vector, latin, FLOOR)))
        near = near[np.argsort(-scores[near], kind="stable")]
        if not len(near):
            return None
        own = [int(i) for i in near if pool.entry(int(i)).user == user]
        if (
            own
            and _nearer_than_shipped(float(scores[own[0]]), bool(dense[own[0]]), nearest)
            and pool.evidence.reaches(float(scores[own[0]]), bool(dense[own[0]]))
        ):
            entry = pool.entry(own[0])  # the asker's own examples count for them at once
            return Preference(entry.controller, "user", entry, float(scores[own[0]]), (user,))
        if len({pool.entry(int(i)).controller for i in near}) == 1:
            best = int(near[0])
            users = self._agreed(pool, best, usable, agreement)
        else:  # alike corrections that disagree: only a clear majority of people counts
            best, users = _majority(pool, near, agreement)
        if users is None:
            return None
        if not _nearer_than_shipped(float(scores[best]), bool(dense[best]), nearest):
            return None  # one of the model's own examples is nearer
        if not pool.evidence.reaches(float(scores[best]), bool(dense[best])):
            return None  # examples this alike were mostly wrong for later corrections
        entry = pool.entry(best)
        return Preference(entry.controller, "org", entry, float(scores[best]), users)

    def trusted(self, preference: Preference, text: str, *, vector: np.ndarray | None) -> bool:
        """Whether the corrections so far let `preference`'s lesson move `text`: examples as
        alike were right for later corrections at least as often as wrong (`brain.memory.reach`).
        The memory's own near-copy preference (`brain.memory.preference`) is held to it too."""
        pool = self._current()
        row = pool.row_of.get(preference.lesson.memory_id)
        if row is None or not len(pool.evidence):
            return True
        latin = not is_chinese(text)
        score = float(pool.alike(vector, gram_set(text), latin)[row])
        dense = bool(pool.dense[row]) and vector is not None and latin
        return pool.evidence.reaches(score, dense)

    def conflicts(self) -> list[Conflict]:
        """Groups whose users' latest corrections went to different controllers (what
        `brain memory conflicts` reports beside the memory's own near-copy groups)."""
        found: list[Conflict] = []
        reported: set[str] = set()
        for entry, latest in _latest_groups(self._current(), reported):
            targets: dict[str, set[str]] = {}
            for other, _ in latest.values():
                targets.setdefault(other.controller, set()).add(other.user)
            if len(targets) > 1:
                reported.update(other.memory_id for other, _ in latest.values())
                found.append(
                    Conflict(entry, {name: tuple(sorted(u)) for name, u in targets.items()})
                )
        return found

    def agreed(self, agreement: int) -> list[AgreedGroup]:
        """The groups whose examples count for everyone (what `brain memory show --org`
        lists beside the training rows), each once, oldest correction first."""
        found: list[AgreedGroup] = []
        covered: set[str] = set()
        for entry, latest in _latest_groups(self._current(), covered):
            if not _agreeing(latest, agreement):
                continue
            members = tuple(sorted((e for e, _ in latest.values()), key=lambda e: e.order))
            covered.update(e.memory_id for e in members)
            found.append(AgreedGroup(entry.controller, tuple(sorted(latest)), members))
        return found

    @staticmethod
    def _agreed(
        pool: _Pool, row: int, usable: np.ndarray, agreement: int
    ) -> tuple[str, ...] | None:
        """The users of the example's group, when they are at least `agreement` and each
        one's latest correction went to one controller."""
        latest = latest_per_user(_group(pool, row, usable))
        return tuple(sorted(latest)) if _agreeing(latest, agreement) else None


def _majority(pool: _Pool, near: np.ndarray, agreement: int) -> tuple[int, tuple[str, ...] | None]:
    """Among the VOTERS nearest corrections (best first), each user's nearest one is their vote:
    the controller at least `agreement` users voted for and at least MAJORITY times as many as
    any other, with its nearest example; (row, None) when no controller has that. Many people
    correcting a desk's varied tickets leave every neighbourhood mixed; a near split (two
    people against one) is a conflict and moves no one."""
    votes: dict[str, str] = {}
    first: dict[str, int] = {}
    for row in near[:VOTERS]:
        entry = pool.entry(int(row))
        if entry.user not in votes:
            votes[entry.user] = entry.controller
            first.setdefault(entry.controller, int(row))
    counts: dict[str, list[str]] = {}
    for user, controller in votes.items():
        counts.setdefault(controller, []).append(user)
    ranked = sorted(counts.items(), key=lambda item: -len(item[1]))
    winner, users = ranked[0]
    runner_up = len(ranked[1][1]) if len(ranked) > 1 else 0
    if len(users) < agreement or len(users) < MAJORITY * runner_up:
        return int(near[0]), None
    return first[winner], tuple(sorted(users))


def _agreeing(latest: dict[str, tuple[MemoryEntry, float]], agreement: int) -> bool:
    """At least `agreement` users, and each one's latest correction went to one controller."""
    return len(latest) >= agreement and len({e.controller for e, _ in latest.values()}) == 1


def _latest_groups(
    pool: _Pool, done: set[str]
) -> Iterator[tuple[MemoryEntry, dict[str, tuple[MemoryEntry, float]]]]:
    """Each correction not yet in `done` (the caller adds the ones a group used up, as it
    goes) with its group in its workspace, as each user's latest correction there."""
    for row, entry in enumerate(pool.entries):
        if entry is not None and entry.memory_id not in done:
            yield entry, latest_per_user(_group(pool, row, pool.same_team(row)))


def _group(pool: _Pool, row: int, usable: np.ndarray) -> list[tuple[MemoryEntry, float]]:
    """A correction's group: itself and the usable corrections within LINK of it."""
    example = pool.entry(row)
    vector = example.vector if pool.dense[row] else None
    scores = pool.alike(vector, example.grams, example.latin)
    linked = usable & (scores >= pool.threshold(vector, example.latin, LINK))
    linked[row] = True
    return [(pool.entry(int(i)), float(scores[i])) for i in np.flatnonzero(linked)]
