"""What the console's pages read: the brain (the bot's own, or one opened for `brain console`)
and the stores behind it, through the brain's public APIs and the store protocols."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from core.config import Settings
from core.records import Decision, RetrievalHit
from core.stores.protocols import DecisionPages
from core.stores.records import ManifestEntry

if TYPE_CHECKING:
    from brain import Brain

#: Knowledge passages shown for a message whose decision recorded none.
SEARCH_HITS = 5


class ConsoleState:
    """One console's access to the brain; every call here blocks (run it in a thread)."""

    def __init__(self, settings: Settings, brain: Callable[[], Brain]) -> None:
        self.settings = settings
        self._brain = brain
        self._lock = threading.Lock()

    @property
    def brain(self) -> Brain:
        with self._lock:
            return self._brain()

    def pages(self) -> DecisionPages:
        store = self.brain.log.store
        if not isinstance(store, DecisionPages):
            raise TypeError("this decision store cannot be paged")
        return store

    def decision(self, decision_id: str) -> Decision:
        """A logged decision; raises core.errors.UnknownDecision."""
        return self.brain.get_decision(decision_id)

    def manifest(self) -> list[ManifestEntry]:
        """What the knowledge base was ingested from, read through the brain's own stores (the
        console opens none of its own)."""
        knowledge = self.brain.knowledge
        if knowledge is None or knowledge.manifest is None:
            return []
        return knowledge.manifest.entries()

    def search(self, text: str, k: int = SEARCH_HITS) -> list[RetrievalHit]:
        """The knowledge passages the KB routing skill finds for `text` (its search), as the
        decision record's hits (`core.records.RetrievalHit`, not marked used)."""
        knowledge = self.brain.knowledge
        if knowledge is None:
            return []
        return [
            RetrievalHit(
                passage_id=hit.chunk_id,
                source=hit.source,
                title=hit.title,
                text=hit.text[:300],
                score=round(float(hit.score), 4),
            )
            for hit in knowledge.search(text, k=k)
        ]

    def lessons_of(self, decision_id: str) -> list[dict[str, object]]:
        """The routing lessons a decision's feedback made."""
        from brain import lesson_view

        return [
            lesson_view(entry)
            for entry in self.brain.memory.entries()
            if entry.decision_id == decision_id
        ]
