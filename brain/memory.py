"""Persistent memory: the routing lessons the AUDNP ring (`brain.memory_ring`) writes and reads.

Memories are routing lessons about *messages*, not global controller scores: each remembers the
text (and its embedding when the dense model is available), the ids it mentioned, the controller
and a signed weight. A new message is influenced only by memories of similar messages (embedding
cosine or character n-gram overlap) or of messages naming the same ticket/asset id.

Memory signal of a controller = 0.5 (neutral) + sum of matching weights x similarity x age
factor (entries older than 90 days weigh 50%), clipped to 0..1. A lesson applies to the user
who taught it; other users' lessons count only once enough distinct users (`[memory]
agreement_users`, default 3) taught the same lesson on similar messages (an organisation
lesson, `brain.preference`).

Every process sees every lesson: before each look-up the store follows the lesson store's
change feed (`LessonStore.changed_since`), so feedback given by `brain feedback` reaches a
running bot's next decision. Nothing is dropped to stay under a cap.

Persist rules (only high-value decisions are persisted):
- correction X -> Y: immediately, -0.15 for X and +0.10 for Y (seed 000's example);
- rejection of X: -0.10 for X;
- explicit confirmation (or a thumbs-up) of X: +0.10;
- two consecutive unchallenged successes of X in one session: +0.05.
"""

from __future__ import annotations

import base64
import logging
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from brain.routing import is_chinese
from core.records import Decision
from core.redact import redact
from core.stores.protocols import LessonStore
from core.text.sparse import char_ngrams

CORRECTION_WRONG = -0.15
CORRECTION_RIGHT = 0.10
REJECTION = -0.10
CONFIRMATION = 0.10
CONSECUTIVE = 0.05

MEMORY_NEUTRAL = 0.5
OLD_AFTER = timedelta(days=90)
OLD_FACTOR = 0.5
#: Similarity gates: below `gate` a memory is about something else; at `full` it counts fully.
#: MiniLM is English-only (two unrelated Chinese sentences can reach 0.8), so the embedding
#: channel is used only when both texts are mostly Latin script; the character n-gram channel
#: (cosine of 2-3-gram sets) works for every language.
COSINE_GATE, COSINE_FULL = 0.55, 0.80
#: Latin-script texts share many frequent character n-grams ("th", "in "), Chinese ones few:
#: the n-gram channel is gated higher for Latin text.
NGRAM_GATES = {"latin": (0.35, 0.70), "cjk": (0.20, 0.45)}
#: A lesson about the same knowledge-base scenario (the KB entry that best matched both
#: messages, e.g. the glossary's "钱没到" disbursement entry) is this similar at least: it is
#: what makes a Chinese paraphrase of an English message "a message like this".
SCENARIO_FACTOR = 0.6
TEXT_CAP = 500

log = logging.getLogger(__name__)


def _now() -> datetime:
    return datetime.now(UTC)


def _encode_vector(vector: np.ndarray | None) -> str | None:
    if vector is None:
        return None
    return base64.b64encode(np.asarray(vector, dtype=np.float16).tobytes()).decode("ascii")


def _decode_vector(text: str | None) -> np.ndarray | None:
    if not text:
        return None
    return np.frombuffer(base64.b64decode(text), dtype=np.float16).astype(np.float32)


def _gram_set(text: str) -> frozenset[str]:
    return frozenset(char_ngrams(text[:TEXT_CAP], 2, 3))


def _ramp(value: float, gate: float, full: float) -> float:
    return float(min(max((value - gate) / (full - gate), 0.0), 1.0))


@dataclass(slots=True)
class MemoryEntry:
    """One persisted routing lesson."""

    memory_id: str
    controller: str
    weight: float
    kind: str
    text: str
    decision_id: str
    user: str
    created_at: str
    ids: list[str] = field(default_factory=list)
    vector: np.ndarray | None = None
    grams: frozenset[str] = frozenset()
    latin: bool = True
    channel: str = ""
    #: The knowledge-base entry that best matched the message ("" when none did).
    scenario: str = ""
    #: The controller the message was moved from and to (a correction), else both "".
    moved_from: str = ""
    moved_to: str = ""
    #: Who wrote the message the lesson is about (may differ from who taught it).
    asker: str = ""

    def to_doc(self) -> dict[str, Any]:
        return {
            "memory_id": self.memory_id,
            "controller": self.controller,
            "weight": self.weight,
            "kind": self.kind,
            "text": self.text,
            "decision_id": self.decision_id,
            "user": self.user,
            "created_at": self.created_at,
            "ids": self.ids,
            "vector": _encode_vector(self.vector),
            "channel": self.channel,
            "scenario": self.scenario,
            "moved_from": self.moved_from,
            "moved_to": self.moved_to,
            "asker": self.asker,
        }

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> MemoryEntry:
        text = str(doc.get("text", ""))
        return cls(
            memory_id=str(doc["memory_id"]),
            controller=str(doc["controller"]),
            weight=float(doc["weight"]),
            kind=str(doc.get("kind", "")),
            text=text,
            decision_id=str(doc.get("decision_id", "")),
            user=str(doc.get("user", "")),
            created_at=str(doc.get("created_at", "")),
            ids=[str(i) for i in doc.get("ids", [])],
            vector=_decode_vector(doc.get("vector")),
            grams=_gram_set(text),
            latin=not is_chinese(text),
            channel=str(doc.get("channel", "")),
            scenario=str(doc.get("scenario", "")),
            moved_from=str(doc.get("moved_from", "")),
            moved_to=str(doc.get("moved_to", "")),
            asker=str(doc.get("asker", doc.get("user", ""))),
        )


@dataclass(slots=True)
class MemoryMatch:
    """A memory that influenced a controller's memory signal."""

    entry: MemoryEntry
    similarity: float
    contribution: float

    def describe(self) -> str:
        sign = "+" if self.contribution >= 0 else ""
        lesson = {
            "correction-wrong": "was corrected away from",
            "correction-right": "was corrected to",
            "rejection": "was rejected for",
            "confirmation": "was confirmed for",
            "consecutive": "succeeded twice for",
        }.get(self.entry.kind, "is remembered for")
        snippet = self.entry.text if len(self.entry.text) <= 60 else self.entry.text[:57] + "..."
        return (
            f"memory: a similar message ({snippet!r}, similarity {self.similarity:.2f}) {lesson} "
            f"{self.entry.controller} on {self.entry.created_at[:10]} -> "
            f"{sign}{self.contribution:.3f} {self.entry.controller}"
        )


class MemoryStore:
    """Persistent routing lessons (kept in a `LessonStore`), matched in memory; follows the
    store's change feed so lessons written by other processes are seen at once."""

    def __init__(self, lessons: LessonStore, *, agreement: int = 3) -> None:
        self.lessons = lessons
        #: Distinct users that make a lesson the organisation's (`[memory] agreement_users`).
        self.agreement = agreement
        self._lock = threading.RLock()
        self._entries: dict[str, MemoryEntry] = {}
        self._order: list[MemoryEntry] = []
        self._matrix: np.ndarray | None = None
        self._version = -1
        #: Embeds texts of lessons stored without a vector (e.g. feedback given from the CLI,
        #: which does not load the model); filled in memory only, once per process.
        self.embed: Callable[[list[str]], np.ndarray] | None = None
        self.refresh()

    # -- following the store ---------------------------------------------------------------
    def refresh(self) -> None:
        """Take in lessons written or removed since the last look (by any process)."""
        with self._lock:
            if self._version < 0:
                self._reload()
                return
            current, changed = self.lessons.changed_since(self._version)
            if current == self._version:
                return
            if changed is None:
                self._reload()
                return
            for key in changed:
                doc = self.lessons.get(key)
                if doc is None:
                    self._entries.pop(key, None)
                else:
                    self._entries[key] = MemoryEntry.from_doc(doc)
            self._version = current
            self._reindex()

    def _reload(self) -> None:
        version = self.lessons.version()
        self._entries = {}
        for doc in self.lessons.all():
            entry = MemoryEntry.from_doc(doc)
            self._entries[entry.memory_id] = entry
        self._version = version
        self._reindex()

    def _reindex(self) -> None:
        self._order = sorted(self._entries.values(), key=lambda e: (e.created_at, e.memory_id))
        self._matrix = None
        self._grams_index: dict[str, list[int]] | None = None

    def _gram_rows(self) -> tuple[dict[str, list[int]], np.ndarray]:
        """Character n-gram -> rows holding it, and each row's n-gram count: the overlap of a
        query with every lesson is then a count over the query's own n-grams, not a scan."""
        if getattr(self, "_grams_index", None) is None:
            index: dict[str, list[int]] = {}
            for row, entry in enumerate(self._order):
                for gram in entry.grams:
                    index.setdefault(gram, []).append(row)
            self._grams_index = index
            self._gram_sizes = np.array([len(e.grams) for e in self._order], dtype=np.float32)
            self._latin = np.array([e.latin for e in self._order], dtype=bool)
        assert self._grams_index is not None
        return self._grams_index, self._gram_sizes

    def __len__(self) -> int:
        self.refresh()
        with self._lock:
            return len(self._order)

    def entries(self) -> list[MemoryEntry]:
        """All lessons, oldest first."""
        self.refresh()
        with self._lock:
            return list(self._order)

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
    ) -> MemoryEntry:
        """Persist one lesson; the same (decision, controller, kind, teacher) is stored once.
        `user` is who taught it (default: the decision's asker)."""
        key = f"{decision.decision_id}:{controller}:{kind}"
        text = redact(decision.text)  # lessons are stored: never with a typed secret
        if user and user != decision.user:
            key += f":{user}"  # another person's lesson on the same decision is their own
        entry = MemoryEntry(
            memory_id=str(uuid.uuid5(uuid.NAMESPACE_URL, key)),
            controller=controller,
            weight=weight,
            kind=kind,
            text=text[:TEXT_CAP],
            decision_id=decision.decision_id,
            user=user or decision.user,
            created_at=_now().isoformat(timespec="seconds"),
            ids=list(ids),
            vector=vector,
            grams=_gram_set(text),
            latin=not is_chinese(text),
            channel=decision.channel,
            scenario=decision.scenario,
            moved_from=moved[0],
            moved_to=moved[1],
            asker=decision.user,
        )
        with self._lock:
            self.lessons.put_many([entry.to_doc()])  # durable when this returns
            self._entries[entry.memory_id] = entry
            self._reindex()
        return entry

    def forget(self, memory_ids: Sequence[str]) -> int:
        """Remove lessons by id (from the store and this process); how many there were."""
        with self._lock:
            known = [m for m in memory_ids if m in self._entries]
            self.lessons.remove(list(memory_ids))
            for memory_id in memory_ids:
                self._entries.pop(memory_id, None)
            self._reindex()
            return len(known)

    def _vectors(self, dim: int) -> np.ndarray:
        if self._matrix is None or self._matrix.shape[1] != dim:
            missing = [e for e in self._order if e.vector is None or e.vector.shape[0] != dim]
            if missing and self.embed is not None:
                try:
                    vectors = self.embed([e.text for e in missing])
                    for entry, vector in zip(missing, vectors, strict=True):
                        entry.vector = np.asarray(vector, dtype=np.float32)
                except Exception as exc:  # similarity then falls back to n-grams for them
                    log.warning("could not embed %d memories: %s", len(missing), exc)
            matrix = np.zeros((len(self._order), dim), dtype=np.float32)
            for row, entry in enumerate(self._order):
                if entry.vector is not None and entry.vector.shape[0] == dim:
                    matrix[row] = entry.vector
            self._matrix = matrix
        return self._matrix

    def similar(
        self,
        text: str,
        *,
        vector: np.ndarray | None,
        ids: Sequence[str],
        scenario: str = "",
    ) -> list[tuple[MemoryEntry, float]]:
        """Memories about similar messages, each with its similarity factor (0..1]: the
        embedding cosine (Latin text), character n-gram overlap (any language), a shared
        identifier, or the same knowledge-base scenario."""
        self.refresh()
        with self._lock:
            if not self._order:
                return []
            entries = self._order
            factors = np.zeros(len(entries), dtype=np.float32)
            if vector is not None and not is_chinese(text):
                cosines = self._vectors(int(vector.shape[0])) @ vector.astype(np.float32)
                factors = np.clip((cosines - COSINE_GATE) / (COSINE_FULL - COSINE_GATE), 0, 1)
            grams = _gram_set(text)
            gate, full = NGRAM_GATES["cjk" if is_chinese(text) else "latin"]
            index, sizes = self._gram_rows()
            factors = np.where(self._latin, factors, 0.0).astype(np.float32)
            if grams:
                shared = np.zeros(len(entries), dtype=np.float32)
                for gram in grams:
                    rows = index.get(gram)
                    if rows:
                        shared[rows] += 1.0
                with np.errstate(divide="ignore", invalid="ignore"):
                    overlap = np.where(
                        sizes > 0, shared / np.sqrt(len(grams) * np.maximum(sizes, 1.0)), 0.0
                    )
                ramped = np.clip((overlap - gate) / (full - gate), 0.0, 1.0)
                factors = np.maximum(factors, ramped.astype(np.float32))
            id_set = {i.upper() for i in ids}
            result: list[tuple[MemoryEntry, float]] = []
            for row in np.flatnonzero(factors > 0).tolist():
                result.append((entries[row], float(factors[row])))
            if id_set or scenario:
                seen = {entry.memory_id for entry, _ in result}
                boosted: list[tuple[MemoryEntry, float]] = []
                for entry, factor in result:
                    boosted.append((entry, self._boost(entry, factor, id_set, scenario)))
                for entry in entries:
                    if entry.memory_id not in seen:
                        factor = self._boost(entry, 0.0, id_set, scenario)
                        if factor > 0:
                            boosted.append((entry, factor))
                result = boosted
            return result

    @staticmethod
    def _boost(entry: MemoryEntry, factor: float, ids: set[str], scenario: str) -> float:
        """A shared identifier makes two messages about the same thing; the same KB
        scenario makes them alike."""
        if ids and ids.intersection(i.upper() for i in entry.ids):
            return 1.0
        if scenario and entry.scenario == scenario:
            return max(factor, SCENARIO_FACTOR)
        return factor

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
    ) -> tuple[np.ndarray, dict[str, list[MemoryMatch]]]:
        """The memory signal per controller (aligned with `names`) and the matches behind it:
        the user's own lessons, and others' where `agreement` distinct users taught them."""
        values = np.full(len(names), MEMORY_NEUTRAL, dtype=np.float32)
        matches: dict[str, list[MemoryMatch]] = {}
        similar = self.similar(text, vector=vector, ids=ids)
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
                MemoryMatch(entry=entry, similarity=factor, contribution=contribution)
            )
        return np.clip(values, 0.0, 1.0), matches


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
