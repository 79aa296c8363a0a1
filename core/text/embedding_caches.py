"""The embedder's caches: recent queries (LRU, `recall` / `remember`), vectors kept for a
whole run, keyed by the exact text (`Remembered`, `DenseEmbedder.remembering`), and a process's
routing-fit texts kept for its next fit (`TrainingVectors`).

`brain eval --train` fits the routing model twice (on the calibration fold, then on every row)
and `brain controllers import` does too (without the held-out rows, then with them), so
without this every training text went through MiniLM twice: 65% of a fit's time was
embedding. A text's vector does not depend on the texts batched with it (ONNX Runtime gives
byte-identical vectors whatever the batch, checked in benchmarks/HISTORY.md), so a vector
kept from the first fit is exactly the one the second would compute.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from core.text.kept import drop, register

#: Training texts whose vectors a process keeps between routing fits (`TrainingVectors`), the
#: newest kept: a fit of the built-in controllers has about 2,100; 1.5 KB a text.
TRAINING_SIZE = 20_000


def recall(cache: OrderedDict[Any, Any], key: Any) -> Any:
    """An LRU dict's entry (now the newest), or None (lock held)."""
    value = cache.get(key)
    if value is not None:
        cache.move_to_end(key)
    return value


def remember(cache: OrderedDict[Any, Any], key: Any, value: Any, size: int) -> None:
    """Store `value` as the newest entry of an LRU dict, dropping the oldest beyond `size`
    (lock held). Cached vectors are shared by every caller, so they become read-only."""
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > size:
        cache.popitem(last=False)


def stacked(vectors: Mapping[str, np.ndarray], texts: Sequence[str], dim: int) -> np.ndarray:
    """The vectors of `texts` (each in `vectors`) as a new (len(texts), dim) float32 array."""
    if not texts:
        return np.zeros((0, dim), dtype=np.float32)
    return np.stack([vectors[t] for t in texts]).astype(np.float32, copy=False)


class Remembered:
    """Text -> vector, unbounded, only while some caller holds it open (`hold`/`release`):
    outside a run nothing is kept, so a long-lived bot's memory does not grow."""

    def __init__(self) -> None:
        self._vectors: dict[str, np.ndarray] = {}
        self._holders = 0

    @property
    def active(self) -> bool:
        return self._holders > 0

    def hold(self) -> None:
        self._holders += 1

    def release(self) -> None:
        """One holder less; the last one forgets every vector."""
        self._holders = max(0, self._holders - 1)
        if not self._holders:
            self._vectors.clear()

    def get(self, text: str) -> np.ndarray | None:
        return self._vectors.get(text) if self._holders else None

    def missing(self, texts: Sequence[str]) -> list[str]:
        """The distinct texts with no kept vector, in first-seen order."""
        return [t for t in dict.fromkeys(texts) if t not in self._vectors]

    def keep(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Keep one vector a text (read-only: every caller shares it), when active."""
        if not self._holders:
            return
        for text, vector in zip(texts, vectors, strict=True):
            vector.flags.writeable = False
            self._vectors[text] = vector

    def stack(self, texts: Sequence[str], dim: int) -> np.ndarray:
        """The kept vectors of `texts` (all kept), as a new (len(texts), dim) float32 array."""
        return stacked(self._vectors, texts, dim)

    def texts(self) -> list[str]:
        return list(self._vectors)

    def forget(self, forgotten: Callable[[str], bool]) -> None:
        """Drop the vectors of the texts `forgotten` names (a forgotten person's words)."""
        drop(self._vectors, forgotten)


class ShippedVectors(Protocol):
    """The vectors of the texts that ship with the installation (the built-in controllers'
    examples, the shipped training rows and negatives: no one's words), kept once per
    installation by the layer that knows which texts those are
    (`brain.learning.shipped_vectors`)."""

    def kept(self) -> dict[str, np.ndarray]:
        """The kept vectors by text, or {} when there are none yet (or they cannot be read)."""
        ...

    def offer(self, vectors: dict[str, np.ndarray]) -> None:
        """A fit's vectors by text: kept when they hold every shipped text and none are kept."""
        ...


class TrainingVectors:
    """Text -> vector of the routing model's training texts, kept from one fit to the next in
    a process (the newest `TRAINING_SIZE`). Every refit (a new or evolved controller, the
    organisation's lessons, a home's training rows, `Brain.refit`) sent all its texts through
    MiniLM again, the thousands of shipped examples and negatives among them, though only a
    few were new: most of a refit's time (a decision after a new YAML controller: 5.5 s of its
    8.3 s fit). The vectors are exact: a text's vector does not depend on its batch.

    With `shipped` set, a process's first fit does not embed the shipped texts either: their
    vectors are read from the installation's copy (made by the first fit that embedded them
    all), so every `brain` process and test process after the first skips them."""

    def __init__(self, size: int = TRAINING_SIZE) -> None:
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._size = size
        self.shipped: ShippedVectors | None = None
        self._read_shipped = False

    def vectors(
        self, texts: Sequence[str], embed: Callable[[list[str]], np.ndarray], dim: int
    ) -> np.ndarray:
        """The vectors of `texts` as a new (len(texts), dim) float32 array, running `embed` on
        the distinct texts not kept, which are kept from then on (lock held)."""
        found = {text: recall(self._vectors, text) for text in dict.fromkeys(texts)}
        missing = [text for text, vector in found.items() if vector is None]
        if missing and self.shipped is not None and not self._read_shipped:
            self._read_shipped = True
            for text, vector in self.shipped.kept().items():
                remember(self._vectors, text, vector, self._size)
            found.update((text, recall(self._vectors, text)) for text in missing)
            missing = [text for text in missing if found[text] is None]
        if missing:
            for text, vector in zip(missing, embed(missing), strict=True):
                found[text] = vector
                remember(self._vectors, text, vector, self._size)
            if self.shipped is not None:
                self.shipped.offer(found)
        return stacked(found, texts, dim)

    def clear(self) -> None:
        self._vectors.clear()
        self._read_shipped = False

    def texts(self) -> list[str]:
        return list(self._vectors)

    def forget(self, forgotten: Callable[[str], bool]) -> None:
        """Drop the vectors of the texts `forgotten` names (a forgotten person's words): the
        shipped examples' vectors, most of a fit, stay (lock held), and any dropped with them
        are read again from the installation's copy at the next fit."""
        drop(self._vectors, forgotten)
        self._read_shipped = False


class EmbedderTexts:
    """An embedder's caches, reached by `core.text.kept` (registered when made): its query
    caches (text, or (view, text), -> vector or states), keyed by what anyone asked, empty on
    a forget; its run and training vectors drop only the texts a forgotten person's words
    name (re-embedding every shipped example would make the next refit wait)."""

    def __init__(
        self,
        lock: threading.Lock,
        queries: Sequence[OrderedDict[Any, Any]],
        kept: Sequence[Remembered | TrainingVectors],
    ) -> None:
        self._lock, self._queries, self._kept = lock, queries, kept
        register(self)

    def kept_texts(self) -> list[str]:
        with self._lock:
            keys = [key for cache in self._queries for key in cache]
            texts = [key[1] if isinstance(key, tuple) else key for key in keys]
            return texts + [text for cache in self._kept for text in cache.texts()]

    def forget_texts(self, forgotten: Callable[[str], bool]) -> None:
        with self._lock:
            for cache in self._queries:
                cache.clear()
            for kept in self._kept:
                kept.forget(forgotten)
