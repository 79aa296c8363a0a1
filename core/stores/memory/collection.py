"""Keyed documents in a dict, with the same copy-on-read/write semantics as a file."""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from core.stores.protocols import Document, KeyOf


class MemoryCollection:
    """A `Collection` in process memory; documents are deep-copied in and out."""

    def __init__(self, key: KeyOf) -> None:
        self._key = key
        self._documents: dict[str, Document] = {}
        self._lock = threading.RLock()

    def get(self, key: str) -> Document | None:
        with self._lock:
            found = self._documents.get(key)
            return copy.deepcopy(found) if found is not None else None

    def all(self) -> list[Document]:
        with self._lock:
            return copy.deepcopy(list(self._documents.values()))

    def view(self) -> list[Document]:
        return self.all()

    def put_many(self, documents: Iterable[Mapping[str, Any]]) -> None:
        fresh = [copy.deepcopy(dict(document)) for document in documents]
        with self._lock:
            for document in fresh:
                self._documents[self._key(document)] = document

    def insert(self, document: Mapping[str, Any]) -> bool:
        key = self._key(document)
        with self._lock:
            if key in self._documents:
                return False
            self._documents[key] = copy.deepcopy(dict(document))
            return True

    def modify(self, key: str, change: Callable[[Document], None]) -> Document | None:
        with self._lock:
            found = self._documents.get(key)
            if found is None:
                return None
            changed = copy.deepcopy(found)
            change(changed)
            self._documents[key] = changed
            return copy.deepcopy(changed)

    def remove(self, keys: Iterable[str]) -> None:
        with self._lock:
            for key in list(keys):
                self._documents.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._documents.clear()

    def count(self) -> int:
        with self._lock:
            return len(self._documents)

    def flush(self) -> None:
        return None
