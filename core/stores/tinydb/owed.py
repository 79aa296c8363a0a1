"""Slack events acknowledged and still owed an answer, for the embedded default: a journal.

Each owed event is one appended line (fsynced: about half a millisecond) before the event is
acknowledged, and its settling another line; rewriting a JSON file per event instead (a
TinyDB collection) cost the acknowledgement its speed (measured: 205 -> 28 acks/s). The
events still owed are read once when the home is opened (what a crashed run left), and the
journal is compacted to them then, whenever nothing is owed any more (so an answered
message's event does not outlive its answer on disk) and whenever settled lines pile up.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from core.stores.tinydb.journal import Journal
from core.stores.tinydb.storage import AtomicJSONStorage

#: Settled lines tolerated before the journal is rewritten with only the owed ones.
COMPACT_AFTER = 5_000


class OwedJournal:
    """Owed events by key, in `path` (one process per home writes it)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._journal = Journal(path)
        self._guard = threading.Lock()
        self._owed: dict[str, dict[str, Any]] = {}
        for record in self._journal.snapshot()[0]:
            key = str(record.get("key", ""))
            if record.get("done"):
                self._owed.pop(key, None)
            elif key:
                self._owed[key] = dict(record)
        self._left_over = list(self._owed.values())
        self._settled = 0
        self._compact()

    def all(self) -> list[dict[str, Any]]:
        """The events owed when the home was opened (a crashed run's), as {"key", "payload"}."""
        return list(self._left_over)

    def put_many(self, documents: Iterable[Mapping[str, Any]]) -> None:
        """Owe answers to these events (durable when this returns)."""
        rows = [dict(document) for document in documents]
        if not rows:
            return
        with self._guard:
            self._journal.append([json.dumps(row, ensure_ascii=False) for row in rows])
            for row in rows:
                self._owed[str(row["key"])] = row

    def remove(self, keys: Iterable[str]) -> None:
        """The answers of these keys are being sent (unknown keys are ignored)."""
        with self._guard:
            settled = [str(key) for key in keys if str(key) in self._owed]
            if not settled:
                return
            lines = [json.dumps({"key": key, "done": True}) for key in settled]
            self._journal.append(lines)
            for key in settled:
                del self._owed[key]
            self._settled += len(settled)
            if not self._owed or self._settled >= COMPACT_AFTER:  # empty: a cheap rewrite
                self._compact()

    def _compact(self) -> None:
        """Rewrite the journal with only the owed events (atomic: temp file and rename)."""
        lines = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in self._owed.values())
        with self._journal.lock.held():
            AtomicJSONStorage(self._journal.path).write_bytes(lines.encode("utf-8"))
        self._settled = 0
