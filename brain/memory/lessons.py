"""Persistent memory: the routing lessons the AUDNP ring (`brain.learning.ring`) writes and reads.

Memories are routing lessons about *messages*, not global controller scores: each remembers the
text (and its embedding when the dense model is available), the ids it mentioned, the controller
and a signed weight. A new message is influenced only by memories of similar messages (embedding
cosine or character n-gram overlap) or of messages naming the same ticket/asset id.

Memory signal of a controller = 0.5 (neutral) + sum of matching weights x similarity x age
factor (entries older than 90 days weigh 50%), clipped to 0..1. A lesson applies to the user
who taught it; other users' lessons count only once enough distinct users (`[memory]
agreement_users`, default 3) taught the same lesson on similar messages (an organisation
lesson, `brain.memory.preference`).

Every process sees every lesson: before each look-up the store follows the lesson store's
change feed (`LessonStore.changed_since`), so feedback given by `brain feedback` reaches a
running bot's next decision. Nothing is dropped to stay under a cap. Lessons are recalled
through the Qdrant lesson index (`brain.memory.index`) when this process holds it, else by
scanning them in memory (`brain.memory.scan`); `brain.memory.mirror` keeps both in step with
the records at a constant cost per write.

Persist rules (only high-value decisions are persisted):
- correction X -> Y: immediately, -0.15 for X and +0.10 for Y (the design's example);
- rejection of X: -0.10 for X;
- explicit confirmation (or a thumbs-up) of X: +0.10;
- two consecutive unchallenged successes of X in one session: +0.05.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta

import numpy as np

from brain.memory.entry import TEXT_CAP, Lesson, LessonMatch, gram_set
from brain.memory.mirror import LessonMirror
from brain.memory.scan import similarity
from core.records import Decision
from core.redact import redact
from core.text.language import is_chinese

CORRECTION_WRONG = -0.15
CORRECTION_RIGHT = 0.10
REJECTION = -0.10
CONFIRMATION = 0.10
CONSECUTIVE = 0.05

MEMORY_NEUTRAL = 0.5
OLD_AFTER = timedelta(days=90)
OLD_FACTOR = 0.5
#: A lesson about the same knowledge-base scenario (the KB entry that best matched both
#: messages, e.g. the glossary's "钱没到" disbursement entry) is this similar at least: it is
#: what makes a Chinese paraphrase of an English message "a message like this".
SCENARIO_FACTOR = 0.6

log = logging.getLogger(__name__)


def _now() -> datetime:
    return datetime.now(UTC)


class _Stamps:
    """When lessons are made: to the microsecond, and each strictly later than the last one
    this process made. Lessons are ordered by it (then by their id, a hash of a random decision
    id), and a brain opened afresh replays the corrections in that order to calibrate its
    online layer (each correction tests the ones before it) and to find each user's latest
    vote: at one-second stamps, corrections made in the same second came back in a random
    order, so a replica or the next process could calibrate a different layer than the one
    that saw them arrive."""

    def __init__(self) -> None:
        self._last = datetime.min.replace(tzinfo=UTC)
        self._lock = threading.Lock()

    def next(self) -> str:
        with self._lock:
            stamp = max(_now(), self._last + timedelta(microseconds=1))
            self._last = stamp
        return stamp.isoformat(timespec="microseconds")


_stamps = _Stamps()


class LessonRecall(LessonMirror):
    """Persistent routing lessons (kept in a `LessonStore`), recalled through the Qdrant
    lesson index when this process holds it (else matched in memory); follows the store's
    change feed so lessons written by other processes are seen at once."""

    def add(
        self,
        *,
        controller: str,
        weight: float,
        kind: str,
        decision: Decision,
        vector: np.ndarray | None,
        ids: Sequence[str],
        user: str | None = None,
        moved: tuple[str, str] = ("", ""),
    ) -> Lesson:
        """Persist one lesson; the same (decision, controller, kind, teacher) is stored once.
        `user` is who taught it (default: the decision's asker)."""
        entry = self.lesson(
            controller=controller,
            weight=weight,
            kind=kind,
            decision=decision,
            vector=vector,
            ids=ids,
            user=user,
            moved=moved,
        )
        self.write_many([entry])
        return entry

    def lesson(
        self,
        *,
        controller: str,
        weight: float,
        kind: str,
        decision: Decision,
        vector: np.ndarray | None,
        ids: Sequence[str],
        user: str | None = None,
        moved: tuple[str, str] = ("", ""),
    ) -> Lesson:
        """One lesson, not yet stored (`write_many` stores several with one durable write)."""
        key = f"{decision.decision_id}:{controller}:{kind}"
        text = redact(decision.text)  # lessons are stored: never with a typed secret
        if user and user != decision.user:
            key += f":{user}"  # another person's lesson on the same decision is their own
        entry = Lesson(
            memory_id=str(uuid.uuid5(uuid.NAMESPACE_URL, key)),
            controller=controller,
            weight=weight,
            kind=kind,
            text=text[:TEXT_CAP],
            decision_id=decision.decision_id,
            user=user or decision.user,
            created_at=_stamps.next(),
            ids=list(ids),
            vector=vector,
            latin=not is_chinese(text),
            channel=decision.channel,
            scenario=decision.scenario,
            moved_from=moved[0],
            moved_to=moved[1],
            asker=decision.user,
            team=decision.team,
        )
        return entry

    def similar(
        self,
        text: str,
        *,
        vector: np.ndarray | None,
        ids: Sequence[str],
        scenario: str = "",
        user: str | None = None,
        refresh: bool = True,
        team: str | None = None,
    ) -> list[tuple[Lesson, float]]:
        """Memories about similar messages, oldest first, each with its similarity factor
        (0..1]: the embedding cosine (Latin text), character n-gram overlap (any language),
        a shared identifier, or the same knowledge-base scenario. With the lesson index the
        nearest lessons (`user`'s own and everyone's) are the candidates; without it, all.
        Only lessons of the message's Slack workspace `team` are recalled (with one
        workspace every lesson has none)."""
        latin = not is_chinese(text)
        query = vector if latin else None
        grams = gram_set(text)
        id_set = {i.upper() for i in ids}
        if refresh:
            self.refresh()
        with self._lock:
            pool = self.candidates(text, vector=query, user=user, ids=id_set, scenario=scenario)
            if pool is None:
                scored = self.scan().factors(vector=query, grams=grams, latin=latin)
                pool = self.related(id_set, scenario)
                seen = {entry.memory_id for entry, _ in scored}
                scored += [(e, 0.0) for e in pool if e.memory_id not in seen]
            else:
                scored = [(e, similarity(e, vector=query, grams=grams, latin=latin)) for e in pool]
        result = [
            (entry, _boost(entry, factor, id_set, scenario))
            for entry, factor in scored
            if entry.team == team
        ]
        result = [(entry, factor) for entry, factor in result if factor > 0]
        result.sort(key=lambda item: item[0].order)
        return result

    def signal(
        self,
        text: str,
        *,
        vector: np.ndarray | None,
        ids: Sequence[str],
        user: str,
        names: Sequence[str],
        now: datetime | None = None,
        agreement: int | None = None,
        team: str | None = None,
    ) -> tuple[np.ndarray, dict[str, list[LessonMatch]]]:
        """The memory signal per controller (aligned with `names`) and the matches behind it:
        the user's own lessons, and others' where `agreement` distinct users taught them."""
        values = np.full(len(names), MEMORY_NEUTRAL, dtype=np.float32)
        matches: dict[str, list[LessonMatch]] = {}
        similar = self.similar(text, vector=vector, ids=ids, user=user, team=team)
        if not similar:
            return values, matches
        agreement = self.agreement if agreement is None else agreement
        teachers: dict[tuple[str, str], set[str]] = {}
        for entry, _ in similar:
            teachers.setdefault((entry.controller, entry.kind), set()).add(entry.user)
        position = {name: i for i, name in enumerate(names)}
        now = now or _now()
        for entry, factor in similar:
            index = position.get(entry.controller)
            if index is None:
                continue
            if entry.user != user and len(teachers[(entry.controller, entry.kind)]) < agreement:
                continue  # another user's lesson, not (yet) the organisation's
            age = OLD_FACTOR if _older_than(entry.created_at, now, OLD_AFTER) else 1.0
            contribution = entry.weight * factor * age
            values[index] += contribution
            matches.setdefault(entry.controller, []).append(
                LessonMatch(entry=entry, similarity=factor, contribution=contribution)
            )
        return np.clip(values, 0.0, 1.0), matches


def _boost(entry: Lesson, factor: float, ids: set[str], scenario: str) -> float:
    """A shared identifier makes two messages about the same thing; the same KB scenario
    makes them alike."""
    if ids and ids.intersection(i.upper() for i in entry.ids):
        return 1.0
    if scenario and entry.scenario == scenario:
        return max(factor, SCENARIO_FACTOR)
    return factor


def _older_than(created_at: str, now: datetime, age: timedelta) -> bool:
    try:
        created = datetime.fromisoformat(created_at)
    except ValueError:
        return False
    if created.tzinfo is None:
        created = created.replace(tzinfo=UTC)
    return now - created > age


def decision_ids_mentioned(entities: Mapping[str, Sequence[str]]) -> list[str]:
    """The identifiers of a decision's entities that make two messages "about the same thing"."""
    found: list[str] = []
    for kind in ("ticket_id", "asset_tag"):
        found.extend(str(v) for v in entities.get(kind, []))
    return found
