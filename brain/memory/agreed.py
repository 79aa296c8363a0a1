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
  controller, with at least `agreement` users, makes its examples everyone's (`agreed`, the
  organisation's training rows); a group whose users disagree makes none of them anyone's (a
  conflict: `brain memory conflicts`). Around a message, the group is the message's own
  (`brain.memory.agreement`): the corrections alike to it, and those linked to them, so three
  people whose own wordings are not alike to one another still agree about a message alike to
  what they wrote. Where many people corrected a desk's varied tickets, every neighbourhood
  holds corrections to several controllers: there the VOTERS nearest corrections vote, each
  user once, and a controller with at least `agreement` users and MAJORITY times the users of
  any other is the group's (two people against one is still a conflict). A route a person
  confirmed (👍) is that person's agreement too: two people who corrected and one who
  confirmed the same controller for a message like theirs are three who agree, online and in
  what the organisation agreed on (`agreed`, the training rows, where the confirmed message
  is an example too), and one who confirmed another controller disagrees (`conflicts`). A
  group of confirmations alone moves nothing and is no training row (the model already sends
  such messages there); confirmations test no examples.
- **Reach.** A message takes an agreed group's controller when it is within FLOOR of the
  group's centroid (its cosine to what the group's wordings share), is about as near by the
  embedding as the nearest example the model was shipped with (`nearest`, at most MARGIN
  less): the agreed examples join the model's examples, and a message nearer one of the
  controller's own examples stays where the model puts it ("install Slack" stays with `access`
  after three people moved "install Docker" messages to `coding`); and while examples that
  alike were right for the corrections that came after them at least as often as wrong
  (`brain.memory.reach`: on a desk's long e-mails they mostly were not).

- **Wordings alike to none.** When no group is found that way (the message is within LINK
  of no correction, or of too few people's) or the message is not within FLOOR of the group,
  each controller's corrections are one class example set compared in the multilingual space
  (`brain.memory.org_classes`), with a bar calibrated on held-out labelled rows instead of
  FLOOR (`brain.memory.shipped_view`), held to the same nearest-shipped checks.
- **A learned reach** (`[memory] learned_reach`): the hub group and its gates (FLOOR, MARGIN,
  the nearest-shipped rules) give way to one logistic model over the class example set's
  readings, fitted on simulated agreements (`brain.memory.reach_model`).
- **Chinese look-alikes.** The model's nearest example is a MiniLM cosine, meaningless for
  Chinese, so a Chinese message had no nearest-shipped check and its look-alikes moved; the
  check is also made in the multilingual space (`ShippedView.allows`), for this reach and for
  the memory's own organisation lessons (`trusted`).

The thresholds are cosines of the embedding. LINK and FLOOR were set on the tuned stories of
`benchmarks/org_agreement_stories.py` and measured on its held-out ones (see that benchmark);
MARGIN makes a tie with a shipped example go to the agreed one (three people asked for it).

Where Chinese is on either side, texts are compared by the multilingual encoder, with
thresholds of their own (`brain.memory.example_pool`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from brain.memory import reach_model
from brain.memory.agreement import around, centroid
from brain.memory.entry import CONFIRMED, MOVED_TO, Lesson
from brain.memory.example_pool import MIN_ROWS, ExamplePool, Probe, floors, links
from brain.memory.lessons import LessonRecall
from brain.memory.model_examples import ModelExamples
from brain.memory.online_layer import ModelRows, OnlineChoice, OnlineLayer
from brain.memory.org_classes import centre_of, class_agreement, class_match
from brain.memory.preference import Conflict, Preference, latest_per_user
from brain.memory.reach import WINDOW, Measure
from brain.memory.shipped_view import MARGIN, ShippedView

#: Where alike corrections disagree, the nearest this many vote (each user once) ...
VOTERS = 10
#: ... and a controller needs this many times the users of any other.
MAJORITY = 2


@dataclass(frozen=True, slots=True)
class AgreedGroup:
    """Corrections whose users agree: examples of `controller` for everyone."""

    controller: str
    users: tuple[str, ...]
    #: Each user's latest correction in the group.
    members: tuple[Lesson, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "controller": self.controller,
            "users": list(self.users),
            "texts": [e.text for e in self.members],
        }


def _nearer_than_shipped(score: float | None, nearest: float | None) -> bool:
    """An example this alike (by the embedding) is no farther than the model's nearest own
    example (MARGIN), which is known by the embedding only (None: not comparable)."""
    return score is None or nearest is None or score >= nearest - MARGIN


def _embedding(scores: np.ndarray, measures: np.ndarray, row: int) -> float | None:
    return float(scores[row]) if measures[row] == Measure.EMBEDDING else None


def _by_embedding(
    pool: ExamplePool, rows: Sequence[int], scores: np.ndarray, measures: np.ndarray
) -> float | None:
    """The message's similarity to the group by the embedding alone (the centroid of its
    members compared by it), the measure the model's nearest example is known by: a group with
    one Chinese member must not pass the check through that member's multilingual cosine
    while its English wordings are farther than the model's own examples."""
    english = [row for row in rows if measures[row] == Measure.EMBEDDING]
    return centroid(pool, english, scores) if english else None


class AgreedExamples:
    """The corrections of one brain's memory as examples, following the lesson store."""

    def __init__(
        self,
        store: LessonRecall,
        shipped: Callable[[], Mapping[str, Sequence[str]]] | None = None,
        folder: Path | None = None,
        agreement: int = 3,
        learned: bool = False,
        examples: ModelExamples | None = None,
    ) -> None:
        self._store = store
        #: The model's own examples, beside the corrections in the online layer's vote.
        self._examples = examples
        #: The learned reach model decides who agreed corrections reach (`[memory]
        #: learned_reach`), instead of the hand-set gates; None: the gates.
        self._model = reach_model.load() if learned else None
        #: Users who must agree before a correction is everyone's example in the online layer.
        self._agreement = agreement
        #: The model's own examples in the multilingual space (none: no such check), their
        #: rows kept in `folder`.
        self._shipped = ShippedView(shipped or dict, folder)
        self._lock = threading.Lock()
        self._version = -2
        self._pool = ExamplePool()
        self._layer = OnlineLayer(agreement)

    def _current(self) -> ExamplePool:
        version, entries = self._store.snapshot()
        with self._lock:
            if version != self._version:
                self._follow([e for e in entries if e.kind in (MOVED_TO, CONFIRMED)])
                self._version = version
            return self._pool

    def _follow(self, moves: list[Lesson]) -> None:
        """Take in the corrections as they stand: the removed ones die, new ones are added
        (the pool starts again when half of it is dead)."""
        pool = self._pool
        if pool.dead > MIN_ROWS and 2 * pool.dead > len(pool.entries):
            pool = self._pool = ExamplePool()
            self._layer = OnlineLayer(self._agreement)
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
            latest = index >= len(new) - WINDOW and entry.kind == MOVED_TO
            test = pool.test(entry) if latest else None
            if test is not None:
                pool.evidence.add(test)
            if latest:
                self._layer.test(entry)
            pool.add(entry)

    def follow(self) -> None:
        """Take in the corrections as they stand now (after a forget: the removed lessons,
        their texts with them, leave the pool at once, not at the next message)."""
        self._current()

    def warm(self) -> None:
        """Take in the corrections and make their multilingual vectors now, when there are
        any: a long-running brain's first message in Chinese then does not wait for the
        encoder to load (1.5 s), nor the first message alike to no correction for the model's
        own examples to be encoded (another 1.5 s)."""
        pool = self._current()
        if pool.row_of:
            pool.cross_matrix()
            self._shipped.warm()

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
        """Where the corrected (and confirmed) messages most like `text` say it belongs: the
        asker's own (scope "user"), else an agreed group's (scope "org"); None when nothing is
        alike enough, alike corrections disagree, or a shipped example is nearer."""
        pool = self._current()
        if not pool.row_of:
            return None
        probe = Probe.message(text, vector)
        scores, measures = pool.alike(probe)
        usable = pool.usable(team, names)
        linked = near_rows(usable, scores, measures)
        if len(linked):
            near = linked[scores[linked] >= floors(measures[linked])]
            # The asker's own examples count for them at once: what they corrected, and a
            # route they confirmed (they said where messages like it belong).
            own = [int(i) for i in near if pool.entry(int(i)).user == user]
            if (
                own
                and _nearer_than_shipped(_embedding(scores, measures, own[0]), nearest)
                and pool.evidence.reaches(float(scores[own[0]]), Measure(measures[own[0]]))
            ):
                entry = pool.entry(own[0])
                return Preference(entry.controller, "user", entry, float(scores[own[0]]), (user,))
        if not (usable & pool.corrected).any():
            return None  # confirmed routes alone move no one else: the model sends them there
        if len(linked):
            controllers = {pool.entry(int(i)).controller for i in linked}
            if len(controllers) > 1:  # alike corrections that disagree: a clear majority counts
                best, users = _majority(pool, linked, agreement)
                if users is None:
                    return None
                controllers = {pool.entry(best).controller}
            group = None
            if self._model is None:
                group = around(pool, scores, measures, usable, controllers.pop())
            if group is not None and len(group.users) >= agreement and group.correction is not None:
                best = group.correction
                if group.score >= float(floors(measures[best : best + 1])[0]):
                    by_embedding = _by_embedding(pool, group.rows, scores, measures)
                    if not _nearer_than_shipped(by_embedding, nearest):
                        return None  # one of the model's own examples is nearer
                    if by_embedding is None and not self._allowed(pool, group.rows, probe, names):
                        return None  # the same, in the multilingual space (Chinese)
                    return self._org(pool, group.rows, group.users, group.score, scores, measures)
        # Alike to none of the corrections, or to too few people's: the class example sets.
        match = class_match(
            pool,
            probe,
            usable,
            agreement=agreement,
            shipped=self._shipped,
            names=names,
            model=self._model,
        )
        if match is None:
            return None
        by_embedding = _by_embedding(pool, match.rows, scores, measures)
        if self._model is None and not _nearer_than_shipped(by_embedding, nearest):
            return None  # the model's own example is nearer in its own space (English)
        return self._org(pool, match.rows, match.users, match.score, scores, measures)

    def online(
        self,
        text: str,
        *,
        vector: np.ndarray | None,
        user: str,
        names: Sequence[str],
        team: str | None = None,
    ) -> OnlineChoice | None:
        """The online layer's reading of a message (`brain.memory.online_layer`): the vote of
        the model's examples, the asker's own corrections and the ones people agree about."""
        pool = self._current()
        if not pool.row_of:
            return None
        with self._lock:
            probe = Probe.message(text, vector)
            return self._layer.choose(pool, probe, user, team, list(names), self._model_rows)

    def online_tests(self) -> int:
        """How many corrections the online layer was tested on (`brain memory show`)."""
        self._current()
        return self._layer.tests

    def _model_rows(self) -> ModelRows | None:
        return None if self._examples is None else self._examples.rows()

    def _org(
        self,
        pool: ExamplePool,
        rows: Sequence[int],
        users: tuple[str, ...],
        score: float,
        scores: np.ndarray,
        measures: np.ndarray,
    ) -> Preference | None:
        """The organisation's lesson of a group (its nearest correction), unless examples as
        alike were mostly wrong for later corrections (`brain.memory.reach`)."""
        best = next(row for row in rows if pool.corrected[row])
        if not pool.evidence.reaches(float(scores[best]), Measure(measures[best])):
            return None
        entry = pool.entry(best)
        return Preference(entry.controller, "org", entry, score, users)

    def _allowed(
        self, pool: ExamplePool, rows: Sequence[int], probe: Probe, names: Sequence[str] | None
    ) -> bool:
        """Whether the model's own examples let the group of `rows` move the message, compared
        in the multilingual space (`ShippedView.allows`); True when the encoder cannot run."""
        matrix = pool.cross_matrix()
        query = probe.cross(pool)
        if matrix is None or query is None or not len(rows):
            return True
        centre = centre_of(matrix[list(rows)])
        return self._shipped.allows(centre, query, pool.entry(rows[0]).controller, names)

    def trusted(
        self,
        preference: Preference,
        text: str,
        *,
        vector: np.ndarray | None,
        names: Sequence[str] | None = None,
    ) -> bool:
        """Whether the corrections so far let `preference`'s lesson move `text`: examples as
        alike were right for later corrections at least as often as wrong (`brain.memory.reach`),
        and, for an organisation's lesson and a Chinese message, no shipped example of another
        controller is nearer (the MiniLM check does not exist for Chinese). The memory's own
        near-copy preference (`brain.memory.preference`) is held to it too."""
        pool = self._current()
        row = pool.row_of.get(preference.lesson.memory_id)
        if row is None:
            return True
        probe = Probe.message(text, vector)
        if preference.scope == "org" and not probe.latin:
            who = set(preference.users)
            agreed = pool.usable(preference.lesson.team, [preference.controller])
            rows = [r for r in np.flatnonzero(agreed).tolist() if pool.entry(r).user in who]
            if not self._allowed(pool, rows or [row], probe, names):
                return False
        if not len(pool.evidence):
            return True
        scores, measures = pool.alike(probe)
        return pool.evidence.reaches(float(scores[row]), Measure(measures[row]))

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

    def linked(self, entry: Lesson) -> list[tuple[str, float]]:
        """A correction's group as (memory id, similarity): itself and the corrections and
        confirmed routes of its workspace within LINK of it, the grouping the organisation's
        training rows are made by too (`brain.learning.org_lessons`), so what moves everyone
        online is what the refit learns."""
        pool = self._current()
        row = pool.row_of.get(entry.memory_id)
        if row is None:  # not (yet) in the pool: a group of its own
            return [(entry.memory_id, 1.0)]
        return [(e.memory_id, score) for e, score in _group(pool, row, pool.same_team(row))]

    def joined(self, entry: Lesson, names: Sequence[str]) -> AgreedGroup | None:
        """Who agrees with a correction that no group of linked wordings holds, by its
        controller's class example set (`org_classes.class_agreement`); None: too few."""
        pool = self._current()
        row = pool.row_of.get(entry.memory_id)
        if row is None or self._model is not None or not pool.corrected[row]:
            return None
        found = class_agreement(
            pool, row, agreement=self._agreement, shipped=self._shipped, names=names
        )
        if found is None:
            return None
        return AgreedGroup(found.controller, found.users, tuple(map(pool.entry, found.rows)))

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


def near_rows(usable: np.ndarray, scores: np.ndarray, measures: np.ndarray) -> np.ndarray:
    """The usable corrections within LINK of a message, nearest first."""
    found = np.flatnonzero(usable & (scores >= links(measures)))
    return found[np.argsort(-scores[found], kind="stable")]


def _majority(
    pool: ExamplePool, near: np.ndarray, agreement: int
) -> tuple[int, tuple[str, ...] | None]:
    """`majority` of the corrections at `near` (best first), with the winner's nearest example;
    (row, None) when no controller has that."""
    won = majority([pool.entry(int(row)) for row in near], agreement)
    if won is None:
        return int(near[0]), None
    winner, users = won
    voted: set[str] = set()
    for row in near[:VOTERS]:
        entry = pool.entry(int(row))
        if entry.user not in voted and entry.controller == winner:
            return int(row), users
        voted.add(entry.user)
    raise AssertionError("the winner has a voter")  # pragma: no cover


def majority(nearest: Sequence[Lesson], agreement: int) -> tuple[str, tuple[str, ...]] | None:
    """Among the VOTERS nearest corrections (best first), each user's nearest one is their vote:
    the controller at least `agreement` users voted for and at least MAJORITY times as many as
    any other, with its users; None when no controller has that. Many people correcting a
    desk's varied tickets leave every neighbourhood mixed; a near split (two people against
    one) is a conflict and moves no one. The organisation's training rows are held to the same
    vote (`brain.learning.org_lessons`), so what moves everyone online is what the refit
    learns."""
    votes: dict[str, str] = {}
    for entry in nearest[:VOTERS]:
        votes.setdefault(entry.user, entry.controller)
    counts: dict[str, list[str]] = {}
    for user, controller in votes.items():
        counts.setdefault(controller, []).append(user)
    if not counts:
        return None
    ranked = sorted(counts.items(), key=lambda item: -len(item[1]))
    winner, users = ranked[0]
    runner_up = len(ranked[1][1]) if len(ranked) > 1 else 0
    if len(users) < agreement or len(users) < MAJORITY * runner_up:
        return None
    return winner, tuple(sorted(users))


def _agreeing(latest: dict[str, tuple[Lesson, float]], agreement: int) -> bool:
    """At least `agreement` users, and each one's latest correction went to one controller."""
    return len(latest) >= agreement and len({e.controller for e, _ in latest.values()}) == 1


def _latest_groups(
    pool: ExamplePool, done: set[str]
) -> Iterator[tuple[Lesson, dict[str, tuple[Lesson, float]]]]:
    """Each correction not yet in `done` (the caller adds the ones a group used up, as it
    goes) with its group in its workspace, as each user's latest correction or confirmed
    route there (a person who confirmed a route for a message like it is one more voice)."""
    for row, entry in enumerate(pool.entries):
        if entry is not None and entry.memory_id not in done and pool.corrected[row]:
            yield entry, latest_per_user(_group(pool, row, pool.same_team(row)))


def _group(pool: ExamplePool, row: int, usable: np.ndarray) -> list[tuple[Lesson, float]]:
    """A correction's group: itself and the usable corrections and confirmed routes within
    LINK of it."""
    example = pool.entry(row)
    scores, measures = pool.alike(Probe.of(example, row))
    linked = usable & (scores >= links(measures))
    linked[row] = True
    return [(pool.entry(int(i)), float(scores[i])) for i in np.flatnonzero(linked)]
