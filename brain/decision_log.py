"""The decision log: every Decision, stored in sharded TinyDB files under the brain home.

TinyDB rewrites a whole file on every write, so one file for all decisions would make each write
slower as the log grows. The log is therefore split:

- ``decisions/shards/YYYYMMDD-NNN.json``: the decisions themselves, at most ``shard_size`` per
  file (one day can have several shards);
- ``decisions/index/XX.json``: decision id -> shard, in 256 small buckets;
- ``decisions/sessions/XX.json``: session key -> the latest decision ids of that conversation;
- ``decisions/latest/XX.json``: (user, channel) -> the latest decision id.

A write touches one shard plus three small buckets, whatever the size of the log. All files go
through `brain.storage.open_db` (atomic, crash-safe writes).
"""

from __future__ import annotations

import hashlib
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tinydb import Query, TinyDB

from brain.errors import UnknownDecision
from brain.storage import file_lock, open_db
from brain.types import Decision

#: Decisions per shard file; keeps each rewrite around a megabyte at most.
DEFAULT_SHARD_SIZE = 200
#: Decision ids remembered per session (the session signal needs only the recent ones).
SESSION_KEEP = 50

_Q = Query()


def _bucket(key: str) -> str:
    return hashlib.blake2s(key.encode("utf-8"), digest_size=1).hexdigest()


def _latest_key(user: str, channel: str) -> str:
    return f"{user}\x1f{channel}"


class DecisionLog:
    """Append, update and look up decisions; thread-safe within one process."""

    def __init__(self, root: Path, *, shard_size: int = DEFAULT_SHARD_SIZE) -> None:
        self.root = root
        self.shard_size = shard_size
        self._lock = threading.RLock()
        self._current: tuple[str, int] | None = None  # (shard name, decisions in it)
        for folder in ("shards", "index", "sessions", "latest"):
            (root / folder).mkdir(parents=True, exist_ok=True)

    # -- files ---------------------------------------------------------------------------
    def _open(self, folder: str, name: str) -> TinyDB:
        return open_db(self.root / folder / f"{name}.json")

    def _with_db(self, folder: str, name: str) -> tuple[threading.RLock, TinyDB]:
        path = self.root / folder / f"{name}.json"
        return file_lock(path), open_db(path)

    def _shard_for_new(self) -> str:
        day = datetime.now(UTC).strftime("%Y%m%d")
        if self._current is None or not self._current[0].startswith(day):
            existing = sorted(p.stem for p in (self.root / "shards").glob(f"{day}-*.json"))
            if existing:
                name = existing[-1]
                db = self._open("shards", name)
                count = len(db.table("decisions"))
                db.close()
            else:
                name, count = f"{day}-000", 0
            self._current = (name, count)
        name, count = self._current
        if count >= self.shard_size:
            number = int(name.rsplit("-", 1)[1]) + 1
            name, count = f"{day}-{number:03d}", 0
        self._current = (name, count)
        return name

    # -- writes --------------------------------------------------------------------------
    def append(self, decision: Decision) -> None:
        """Store a new decision and index it by id, session and (user, channel)."""
        with self._lock:
            shard = self._shard_for_new()
            lock, db = self._with_db("shards", shard)
            with lock:
                db.table("decisions").insert(decision.to_dict())
                db.close()
            assert self._current is not None
            self._current = (shard, self._current[1] + 1)
            self._put("index", decision.decision_id, {"shard": shard})
            self._put(
                "latest",
                _latest_key(decision.user, decision.channel),
                {"id": decision.decision_id},
            )
            session_key = f"{decision.channel}:{decision.thread or decision.user}"
            lock, db = self._with_db("sessions", _bucket(session_key))
            with lock:
                table = db.table("sessions")
                row = table.get(_Q.key == session_key)
                ids = list(row["ids"]) if isinstance(row, dict) else []
                ids = [*ids, decision.decision_id][-SESSION_KEEP:]
                table.upsert({"key": session_key, "ids": ids}, _Q.key == session_key)
                db.close()

    def update(self, decision: Decision) -> None:
        """Replace a stored decision (feedback, result); unknown id -> UnknownDecision."""
        with self._lock:
            shard = self._shard_of(decision.decision_id)
            lock, db = self._with_db("shards", shard)
            with lock:
                table = db.table("decisions")
                updated = table.update(
                    _replace(decision.to_dict()), _Q.decision_id == decision.decision_id
                )
                db.close()
            if not updated:
                raise UnknownDecision(decision.decision_id)

    def _put(self, folder: str, key: str, values: dict[str, Any]) -> None:
        lock, db = self._with_db(folder, _bucket(key))
        with lock:
            db.table(folder).upsert({"key": key, **values}, _Q.key == key)
            db.close()

    def _lookup(self, folder: str, key: str) -> dict[str, Any] | None:
        path = self.root / folder / f"{_bucket(key)}.json"
        if not path.exists():
            return None
        lock, db = self._with_db(folder, _bucket(key))
        with lock:
            row = db.table(folder).get(_Q.key == key)
            db.close()
        return dict(row) if isinstance(row, dict) else None

    # -- reads ---------------------------------------------------------------------------
    def _shard_of(self, decision_id: str) -> str:
        row = self._lookup("index", decision_id)
        if row is None:
            raise UnknownDecision(decision_id)
        return str(row["shard"])

    def get(self, decision_id: str) -> Decision:
        """The stored decision; raises UnknownDecision."""
        if not isinstance(decision_id, str) or not decision_id.strip():
            raise UnknownDecision(str(decision_id))
        decision_id = decision_id.strip()
        return self.get_many([decision_id])[0]

    def get_many(self, decision_ids: list[str]) -> list[Decision]:
        """Several decisions in the given order, reading each shard once."""
        by_shard: dict[str, list[str]] = {}
        for decision_id in decision_ids:
            by_shard.setdefault(self._shard_of(decision_id), []).append(decision_id)
        found: dict[str, Decision] = {}
        for shard, ids in by_shard.items():
            lock, db = self._with_db("shards", shard)
            with lock:
                rows = db.table("decisions").search(_Q.decision_id.one_of(ids))
                db.close()
            for row in rows:
                found[row["decision_id"]] = Decision.from_dict(dict(row))
        missing = [i for i in decision_ids if i not in found]
        if missing:
            raise UnknownDecision(missing[0])
        return [found[i] for i in decision_ids]

    def last_for(self, user: str, channel: str) -> Decision | None:
        """The latest decision of a user in a channel, or None."""
        row = self._lookup("latest", _latest_key(user, channel))
        if row is None:
            return None
        try:
            return self.get(str(row["id"]))
        except UnknownDecision:
            return None

    def session_ids(self, session_key: str) -> list[str]:
        """Ids of the session's latest decisions, oldest first."""
        row = self._lookup("sessions", session_key)
        return [str(i) for i in row["ids"]] if row else []

    def session(self, session_key: str, limit: int = SESSION_KEEP) -> list[Decision]:
        """The session's latest decisions, oldest first."""
        ids = self.session_ids(session_key)[-limit:]
        try:
            return self.get_many(ids)
        except UnknownDecision:
            return [d for d in (self._get_or_none(i) for i in ids) if d is not None]

    def _get_or_none(self, decision_id: str) -> Decision | None:
        try:
            return self.get(decision_id)
        except UnknownDecision:
            return None


def _replace(values: dict[str, Any]) -> Any:
    """A TinyDB update operation that replaces the whole document's fields."""

    def transform(document: dict[str, Any]) -> None:
        document.clear()
        document.update(values)

    return transform
