"""Persistent-memory signal (seed 000, 10%): adapter over `brain.memory.MemoryStore`."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from brain.memory import MemoryMatch, MemoryStore


def memory_signal(
    store: MemoryStore | None,
    text: str,
    *,
    vector: np.ndarray | None,
    ids: Sequence[str],
    user: str,
    names: Sequence[str],
) -> tuple[np.ndarray, dict[str, list[MemoryMatch]]]:
    """(memory signal per controller aligned with `names`, the memories behind it)."""
    if store is None or len(store) == 0:
        return np.full(len(names), 0.5, dtype=np.float32), {}
    return store.signal(text, vector=vector, ids=ids, user=user, names=names)
