"""The lessons of the record store as this process sees them, kept in step at a constant cost.

The mirror holds every lesson (the records are the truth: `LessonStore`), the look-ups by
identifier and knowledge-base scenario, the in-memory scan (`brain.memory.scan`, built only
when this process has no lesson index) and the Qdrant lesson index (`brain.memory.index`,
opened on the first look-up). A write, the process's own or one taken in from the change
feed, changes one entry, one scan row and one point: nothing is re-sorted or rebuilt.

Who holds the index: the embedded Qdrant Edge shard is held by one process. Another process
(`brain feedback` from a terminal while the bot runs) still records its lessons - in the
records only - and matches in memory; the holder takes those lessons into the index from the
change feed before its next look-up. An index that is missing, of another schema, or further
behind than the feed remembers is rebuilt from the records when opened (`brain memory
reindex` does it on demand), so a lost index never loses a lesson.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from brain.memory.entry import CONFIRMED, MOVED_TO
from brain.memory.index import LessonIndex
from brain.memory.scan import LessonScan
from core.llm_calls import paused
from core.stores.protocols import LessonStore

if TYPE_CHECKING:
    from brain.memory.entry import Lesson
    from knowledge.vectors import VectorStore

log = logging.getLogger(__name__)

Embed = Callable[[list[str]], np.ndarray]


class LessonMirror:
    """Every lesson in memory, with the index and scan that recall them (see module doc)."""

    def __init__(
        self,
        lessons: LessonStore,
        *,
        agreement: int = 3,
        index: Callable[[], VectorStore] | None = None,
    ) -> None:
        self.lessons = lessons
        #: Distinct users that make a lesson the organisation's (`[memory] agreement_users`).
        self.agreement = agreement
        self._lock = threading.RLock()
        self._entries: dict[str, Lesson] = {}
        self._sorted: list[Lesson] | None = None
        self._by_id: dict[str, set[str]] = {}
        self._by_scenario: dict[str, set[str]] = {}
        #: Lessons held without an embedding (their stored one is fetched from the index).
        self._no_vector: set[str] = set()
        #: Corrections' "moved to" lessons (organisation lessons form only from them).
        self._moves: set[str] = set()
        #: Routes a person confirmed (their own examples, and voices in a group).
        self._confirmed: set[str] = set()
        self._scan: LessonScan | None = None
        self._opener = index
        self._index: LessonIndex | None = None
        self._index_tried = False
        #: Keys this process wrote or removed itself since `_version` (the feed repeats them).
        self._own: set[str] = set()
        self._version = -1
        self._embed: Embed | None = None
        self.refresh()

    @property
    def embed(self) -> Embed | None:
        """Embeds texts of lessons stored without a vector (e.g. feedback given from the CLI,
        which does not load the model); set by the brain once its embedder opens."""
        return self._embed

    @embed.setter
    def embed(self, embed: Embed | None) -> None:
        self._embed = embed
        if self._scan is not None:
            self._scan.embed = embed

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
                if self._index is not None:
                    self._rebuild(self._index)
                return
            written: list[Lesson] = []
            removed: list[str] = []
            for key in changed:
                if key in self._own:
                    continue  # this process applied it already
                entry = self.lessons.get(key)
                if entry is None:
                    self._drop(key)
                    removed.append(key)
                else:
                    self._put(entry)
                    written.append(entry)
            self._own.clear()
            self._version = current
            if self._index is not None:
                self._ensure_vectors(written)
                self._index.put(written)
                self._index.delete(removed)
                self._index.mark(current)

    def _reload(self) -> None:
        version = self.lessons.version()
        self._entries, self._sorted, self._scan = {}, None, None
        self._by_id, self._by_scenario, self._no_vector = {}, {}, set()
        self._moves, self._confirmed = set(), set()
        for entry in self.lessons.all():
            self._put(entry)
        self._own.clear()
        self._version = version

    def _put(self, entry: Lesson) -> None:
        if entry.memory_id in self._entries:
            self._drop(entry.memory_id)
        self._entries[entry.memory_id] = entry
        if entry.vector is None:
            self._no_vector.add(entry.memory_id)
        if entry.kind == MOVED_TO:
            self._moves.add(entry.memory_id)
        elif entry.kind == CONFIRMED:
            self._confirmed.add(entry.memory_id)
        for ident in entry.ids:
            self._by_id.setdefault(ident.upper(), set()).add(entry.memory_id)
        if entry.scenario:
            self._by_scenario.setdefault(entry.scenario, set()).add(entry.memory_id)
        if self._sorted is not None:
            if not self._sorted or entry.order >= self._sorted[-1].order:
                self._sorted.append(entry)
            else:
                self._sorted = None
        if self._scan is not None:
            self._scan.add(entry)

    def _drop(self, memory_id: str) -> None:
        entry = self._entries.pop(memory_id, None)
        if entry is None:
            return
        self._no_vector.discard(memory_id)
        self._moves.discard(memory_id)
        self._confirmed.discard(memory_id)
        for ident in entry.ids:
            self._by_id.get(ident.upper(), set()).discard(memory_id)
        if entry.scenario:
            self._by_scenario.get(entry.scenario, set()).discard(memory_id)
        self._sorted = None
        if self._scan is not None:
            self._scan.remove(memory_id)

    def _advance(self, keys: Sequence[str]) -> None:
        """After this process's own change of `keys`: when no other process changed lessons
        meanwhile, the index is marked current at once (else the next refresh catches up)."""
        self._own.update(keys)
        current = self.lessons.version()
        if current == self._version + len(keys):
            self._version = current
            self._own.clear()
            if self._index is not None:
                self._index.mark(current)

    # -- writes ----------------------------------------------------------------------------
    def write(self, entry: Lesson) -> None:
        """Store one lesson (durable when this returns) and take it in here."""
        self.write_many([entry])

    def write_many(self, entries: Sequence[Lesson]) -> None:
        """Store lessons with one durable write (e.g. a correction's two) and take them in."""
        if not entries:
            return
        with self._lock:
            self.lessons.put_many(entries)
            for entry in entries:
                self._put(entry)
            if self._index is not None:
                self._ensure_vectors(entries)
                self._index.put(entries)
            self._advance([entry.memory_id for entry in entries])

    def forget(self, memory_ids: Sequence[str]) -> int:
        """Remove lessons by id (from the records, this process and the index); how many
        there were."""
        wanted = list(dict.fromkeys(memory_ids))
        with self._lock:
            known = [m for m in wanted if m in self._entries]
            if not wanted:
                return 0
            self.lessons.remove(wanted)
            for memory_id in wanted:
                self._drop(memory_id)
            if self._index is not None:
                self._index.delete(wanted)
            elif self._opener is not None:
                # Not open here yet: remove the points now if the index is free (else its
                # holder removes them when it reads the change feed).
                index = LessonIndex.open(self._opener)
                if index is not None:
                    index.delete(wanted)
                    index.close()
            self._advance(wanted)
            return len(known)

    # -- the index -------------------------------------------------------------------------
    def open_index(self, *, strict: bool = False) -> bool:
        """Open the lesson index once and bring it up to date with the records; False when
        this process cannot hold it (`strict`: raise StoreLockedError instead)."""
        with self._lock:
            if self._index is not None:
                return True
            if self._opener is None or (self._index_tried and not strict):
                return False
            self._index_tried = True
            with paused():  # opening the index is not the decision's LLM time
                index = LessonIndex.open(self._opener, strict=strict)
                if index is None:
                    return False
                self.refresh()
                self._sync(index)
            self._index = index
            return True

    def reindex(self) -> int:
        """Rebuild the lesson index from the records; how many lessons it holds."""
        with self._lock:
            self.refresh()
            if self._index is None:
                self.open_index(strict=True)
            assert self._index is not None
            self._rebuild(self._index)
            return self._index.lessons()

    def _sync(self, index: LessonIndex) -> None:
        state = index.state()
        if state is None or state > self._version:
            self._rebuild(index)
            return
        if state < self._version:
            _, changed = self.lessons.changed_since(state)
            if changed is None:
                self._rebuild(index)
                return
            present = [self._entries[k] for k in changed if k in self._entries]
            self._ensure_vectors(present)
            index.put(present)
            index.delete([k for k in changed if k not in self._entries])
        if index.lessons() != len(self._entries):
            self._rebuild(index)
            return
        index.mark(self._version)

    def _rebuild(self, index: LessonIndex) -> None:
        log.info("rebuilding the lesson index from %d lesson records", len(self._entries))
        index.clear()
        entries = list(self._entries.values())
        self._ensure_vectors(entries)
        index.put(entries)
        index.optimize()
        index.mark(self._version)

    def _ensure_vectors(self, entries: Iterable[Lesson]) -> None:
        """Embed lessons stored without a vector, so their points carry the dense channel."""
        missing = [e for e in entries if e.vector is None]
        if not missing or self._embed is None:
            return
        if self._index is not None and not self._index.vectors.has_dense:
            return
        try:
            vectors = self._embed([e.text for e in missing])
        except Exception as exc:  # the point then has the n-gram channel only
            log.warning("could not embed %d lessons: %s", len(missing), exc)
            return
        for entry, vector in zip(missing, vectors, strict=True):
            entry.vector = np.asarray(vector, dtype=np.float32)
            self._no_vector.discard(entry.memory_id)

    def close(self) -> None:
        """Release the lesson index (and, embedded, its lock on the shard)."""
        with self._lock:
            if self._index is not None:
                self._index.close()
                self._index = None
            self._index_tried = False

    # -- reading ---------------------------------------------------------------------------
    def __len__(self) -> int:
        self.refresh()
        with self._lock:
            return len(self._entries)

    def has_corrections(self) -> bool:
        """Whether any lesson says where a message belongs (cheap: no scan)."""
        self.refresh()
        with self._lock:
            return bool(self._moves)

    def has_examples(self) -> bool:
        """Whether any lesson is an example of a controller: a correction, or a route a person
        confirmed (cheap: no scan)."""
        self.refresh()
        with self._lock:
            return bool(self._moves or self._confirmed)

    def snapshot(self) -> tuple[int, list[Lesson]]:
        """The change-feed version this process has taken in, and every lesson as of it."""
        with self._lock:
            entries = self.entries()
            return self._version, entries

    def entries(self) -> list[Lesson]:
        """All lessons, oldest first."""
        self.refresh()
        with self._lock:
            if self._sorted is None:
                self._sorted = sorted(self._entries.values(), key=lambda e: e.order)
            return list(self._sorted)

    def candidates(
        self,
        text: str,
        *,
        vector: np.ndarray | None,
        user: str | None,
        ids: set[str],
        scenario: str,
    ) -> list[Lesson] | None:
        """The lessons worth scoring for a message: the index's nearest ones and those sharing
        an identifier or scenario; None when this process has no index (score them all)."""
        if self._index is None and not self._entries:
            # Nothing learned yet (the caller has just read the lesson feed): the index's shard
            # is not even loaded (60 ms a process); the first lesson's lookup opens it and
            # catches up.
            return []
        if not self.open_index():
            return None
        assert self._index is not None
        if not self._entries:  # nothing learned any more: no index query (0.5 ms)
            return []
        found = self._index.nearest(
            text, vector=vector, user=user, with_dense=bool(self._no_vector)
        )
        near: list[Lesson] = []
        for key, dense in found.items():
            entry = self._entries.get(key)
            if entry is None:
                continue
            if entry.vector is None and dense is not None:
                entry.vector = np.asarray(dense, dtype=np.float32)
                self._no_vector.discard(key)
            near.append(entry)
        # Lessons given where no model was loaded (`brain feedback`) are embedded once here,
        # so every process compares them by meaning alike.
        self._ensure_vectors([e for e in near if e.vector is None])
        return near + [e for e in self.related(ids, scenario) if e.memory_id not in found]

    def related(self, ids: set[str], scenario: str) -> list[Lesson]:
        """Lessons that name one of `ids` or are about `scenario`."""
        keys: set[str] = set()
        for ident in ids:
            keys |= self._by_id.get(ident, set())
        if scenario:
            keys |= self._by_scenario.get(scenario, set())
        return [self._entries[k] for k in keys if k in self._entries]

    def scan(self) -> LessonScan:
        """Every lesson as scan rows (built on first use, then appended to)."""
        if self._scan is None:
            scan = LessonScan(self._embed)
            for entry in sorted(self._entries.values(), key=lambda e: e.order):
                scan.add(entry)
            self._scan = scan
        return self._scan
