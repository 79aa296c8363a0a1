"""A bounded, thread-safe LRU cache of intent results keyed by message, history and LLM mode.

Seed 002 clears its whole cache past 1,000 entries; a least-recently-used bound keeps the hot
entries instead. The key includes whether the LLM took part, so a result computed without the
LLM (fast path, or no client) is never served when an LLM-backed result is asked for.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import NamedTuple

from core.records import IntentResult
from core.text.kept import register

__all__ = ["CacheKey", "IntentCache"]


class CacheKey(NamedTuple):
    """What a recognition result depends on."""

    text: str
    history: tuple[str, ...]
    with_llm: bool


class IntentCache:
    """LRU of `IntentResult`; callers get copies, so mutating a result never alters the cache."""

    def __init__(self, maxsize: int = 1000) -> None:
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.maxsize = maxsize
        self._items: OrderedDict[CacheKey, IntentResult] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        register(self)  # a forgotten person's messages leave it (`core.text.kept`)

    @staticmethod
    def key(text: str, history: Sequence[str], with_llm: bool) -> CacheKey:
        """The cache key of one recognition request."""
        return CacheKey(text, tuple(history), with_llm)

    def get(self, key: CacheKey) -> IntentResult | None:
        """A copy of the cached result (and mark it recently used), or None."""
        with self._lock:
            result = self._items.get(key)
            if result is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return copy.deepcopy(result)

    def put(self, key: CacheKey, result: IntentResult) -> None:
        """Store a copy; evicts the least recently used entry beyond ``maxsize``."""
        stored = copy.deepcopy(result)
        with self._lock:
            self._items[key] = stored
            self._items.move_to_end(key)
            while len(self._items) > self.maxsize:
                self._items.popitem(last=False)

    def clear(self) -> None:
        """Forget everything (e.g. after the taxonomy or knowledge base changed)."""
        with self._lock:
            self._items.clear()

    def kept_texts(self) -> list[str]:
        """The messages and histories it holds (`core.text.kept`)."""
        with self._lock:
            return [text for key in self._items for text in (key.text, *key.history)]

    def forget_texts(self, forgotten: Callable[[str], bool]) -> None:
        """A person was forgotten: their messages are not told apart, so all go."""
        self.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._items
