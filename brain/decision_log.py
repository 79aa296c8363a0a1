"""The decision log: every Decision, stored in sharded TinyDB files under the brain home.

TinyDB rewrites a whole file on every write, so one file for all decisions would make each write
slower as the log grows. The log is therefore split:

- ``decisions/shards/YYYYMMDD-NNN.json``: the decisions themselves, at most ``shard_size`` per
  file (one day can have several shards);
- ``decisions/index/XX.json``: decision id -> shard, in 256 small buckets;
- ``decisions/sessions/XX.json``: session key -> the latest decision ids of that conversation;
- ``decisions/latest/XX.json``: (user, channel) -> the latest decision id.

A write touches one shard plus three small buckets, whatever the size of the log. All files go
through `core.storage.open_db` (atomic, crash-safe writes). Writes are batched by a background
writer so that a decision never waits for fsync; a crash can lose only what was queued in the
last moments (normally a few milliseconds' worth), never a file.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import logging
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tinydb import Query, TinyDB
from tinydb.table import Table

from core.errors import UnknownDecision
from core.records import Decision
from core.storage import file_lock, open_db

#: Decisions per shard file; keeps each rewrite around a megabyte at most.
DEFAULT_SHARD_SIZE = 200
#: Decision ids remembered per session (the session signal needs only the recent ones).
SESSION_KEEP = 50

_Q = Query()
log = logging.getLogger(__name__)


def _bucket(key: str) -> str:
    return hashlib.blake2s(key.encode("utf-8"), digest_size=1).hexdigest()


def _latest_key(user: str, channel: str) -> str:
    return f"{user}\x1f{channel}"


class DecisionLog:
    """Append, update and look up decisions; thread-safe within one process.

    Writes are queued and flushed by a background writer (in batches: one rewrite per touched
    file, however many decisions arrived meanwhile), so deciding never waits for the disk.
    Reads see queued decisions at once. `flush()` waits until everything is on disk; `close()`
    and interpreter exit flush too.
    """

    def __init__(self, root: Path, *, shard_size: int = DEFAULT_SHARD_SIZE) -> None:
        self.root = root
        self.shard_size = shard_size
        self._io = threading.RLock()  # one flush at a time
        self._cond = threading.Condition()
        self._pending: dict[str, _Pending] = {}
        self._version = 0
        self._closed = False
        self._current: tuple[str, int] | None = None  # (shard name, decisions in it)
        for folder in ("shards", "index", "sessions", "latest"):
            (root / folder).mkdir(parents=True, exist_ok=True)
        self._writer = threading.Thread(target=self._run, name="decision-log", daemon=True)
        self._writer.start()
        atexit.register(self.flush)

    # -- files ---------------------------------------------------------------------------
    def _with_db(self, folder: str, name: str) -> tuple[threading.RLock, TinyDB]:
        path = self.root / folder / f"{name}.json"
        return file_lock(path), open_db(path)

    def _shard_for_new(self) -> str:
        day = datetime.now(UTC).strftime("%Y%m%d")
        if self._current is None or not self._current[0].startswith(day):
            existing = sorted(p.stem for p in (self.root / "shards").glob(f"{day}-*.json"))
            if existing:
                name = existing[-1]
                lock, db = self._with_db("shards", name)
                with lock:
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
        """Queue a new decision; it is indexed by id, session and (user, channel)."""
        self._queue(decision, new=True)

    def update(self, decision: Decision) -> None:
        """Queue a replacement of a logged decision; unknown id -> UnknownDecision."""
        with self._cond:
            queued = self._pending.get(decision.decision_id)
        if queued is None:
            self._shard_of(decision.decision_id)  # raises UnknownDecision
        self._queue(decision, new=bool(queued and queued.new))

    def _queue(self, decision: Decision, *, new: bool) -> None:
        payload = _dumps(decision)
        with self._cond:
            if self._closed:
                raise RuntimeError("the decision log is closed")
            self._version += 1
            self._pending[decision.decision_id] = _Pending(
                self._version,
                payload,
                new,
                decision.decision_id,
                _latest_key(decision.user, decision.channel),
                _session_key(decision),
            )
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._closed:
                    self._cond.wait()
                if self._closed and not self._pending:
                    return
            try:
                self._flush_once()
            except Exception:  # keep the queue; retry after a pause rather than lose decisions
                log.exception("writing the decision log failed; retrying")
                time.sleep(0.5)

    def flush(self) -> None:
        """Write everything queued so far (in the calling thread)."""
        while True:
            with self._cond:
                if not self._pending:
                    return
            self._flush_once()

    def _flush_once(self) -> None:
        with self._io:
            with self._cond:
                batch = dict(self._pending)
            if not batch:
                return
            by_shard: dict[str, list[dict[str, Any]]] = {}
            placed: dict[str, str] = {}
            for pending in sorted(batch.values(), key=lambda p: p.version):
                document = json.loads(pending.payload)
                shard = self._find_shard(pending.decision_id)
                if shard is None:
                    if not pending.new:
                        log.error("decision %s vanished from the index", pending.decision_id)
                        continue
                    shard = self._shard_for_new()
                    assert self._current is not None
                    self._current = (shard, self._current[1] + 1)
                    placed[pending.decision_id] = shard
                by_shard.setdefault(shard, []).append(document)
            for shard, documents in by_shard.items():
                self._write_shard(shard, documents)
            self._index_new(
                [
                    p
                    for p in sorted(batch.values(), key=lambda p: p.version)
                    if p.decision_id in placed
                ],
                placed,
            )
            with self._cond:
                for decision_id, done in batch.items():
                    current = self._pending.get(decision_id)
                    if current is not None and current.version == done.version:
                        del self._pending[decision_id]
                    elif current is not None and decision_id in placed:
                        current.new = False

    def _write_shard(self, shard: str, documents: list[dict[str, Any]]) -> None:
        """At most two rewrites of the shard, however many decisions the batch holds."""
        lock, db = self._with_db("shards", shard)
        with lock:
            table = db.table("decisions")
            stored = {row["decision_id"] for row in table.all()}
            fresh = [d for d in documents if d["decision_id"] not in stored]
            changed = [
                (_replace(d), _Q.decision_id == d["decision_id"])
                for d in documents
                if d["decision_id"] in stored
            ]
            if changed:
                table.update_multiple(changed)
            if fresh:
                table.insert_multiple(fresh)
            db.close()

    def _index_new(self, decisions: list[_Pending], placed: dict[str, str]) -> None:
        updates: dict[str, dict[str, dict[str, Any]]] = {}
        sessions: dict[str, list[str]] = {}
        for pending in decisions:
            updates.setdefault("index", {})[pending.decision_id] = {
                "shard": placed[pending.decision_id]
            }
            updates.setdefault("latest", {})[pending.latest_key] = {"id": pending.decision_id}
            sessions.setdefault(pending.session_key, []).append(pending.decision_id)
        for folder, rows in updates.items():
            by_bucket: dict[str, dict[str, dict[str, Any]]] = {}
            for key, values in rows.items():
                by_bucket.setdefault(_bucket(key), {})[key] = values
            for bucket, entries in by_bucket.items():
                lock, db = self._with_db(folder, bucket)
                with lock:
                    _upsert_many(db.table(folder), entries)
                    db.close()
        by_bucket_sessions: dict[str, dict[str, list[str]]] = {}
        for key, ids in sessions.items():
            by_bucket_sessions.setdefault(_bucket(key), {})[key] = ids
        for bucket_name, session_rows in by_bucket_sessions.items():
            lock, db = self._with_db("sessions", bucket_name)
            with lock:
                table = db.table("sessions")
                known = {row["key"]: list(row["ids"]) for row in table.all()}
                merged: dict[str, dict[str, Any]] = {}
                for key, ids in session_rows.items():
                    before = known.get(key, [])
                    ids_after = [*before, *(i for i in ids if i not in before)][-SESSION_KEEP:]
                    merged[key] = {"ids": ids_after}
                _upsert_many(table, merged)
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
    def _find_shard(self, decision_id: str) -> str | None:
        row = self._lookup("index", decision_id)
        return None if row is None else str(row["shard"])

    def _shard_of(self, decision_id: str) -> str:
        shard = self._find_shard(decision_id)
        if shard is None:
            raise UnknownDecision(decision_id)
        return shard

    def _queued(self, decision_id: str) -> Decision | None:
        with self._cond:
            queued = self._pending.get(decision_id)
        return None if queued is None else queued.decision()

    def get(self, decision_id: str) -> Decision:
        """The logged decision; raises UnknownDecision."""
        if not isinstance(decision_id, str) or not decision_id.strip():
            raise UnknownDecision(str(decision_id))
        return self.get_many([decision_id.strip()])[0]

    def get_many(self, decision_ids: list[str]) -> list[Decision]:
        """Several decisions in the given order, reading each shard once."""
        found: dict[str, Decision] = {}
        by_shard: dict[str, list[str]] = {}
        for decision_id in decision_ids:
            queued = self._queued(decision_id)
            if queued is not None:
                found[decision_id] = queued
            else:
                by_shard.setdefault(self._shard_of(decision_id), []).append(decision_id)
        for shard, ids in by_shard.items():
            lock, db = self._with_db("shards", shard)
            with lock:
                rows = db.table("decisions").search(_Q.decision_id.one_of(ids))
                db.close()
            for row in rows:
                found.setdefault(row["decision_id"], Decision.from_dict(dict(row)))
        missing = [i for i in decision_ids if i not in found]
        if missing:
            raise UnknownDecision(missing[0])
        return [found[i] for i in decision_ids]

    def _queued_new(self) -> list[_Pending]:
        with self._cond:
            items = sorted(self._pending.values(), key=lambda item: item.version)
        return [p for p in items if p.new]

    def last_for(self, user: str, channel: str) -> Decision | None:
        """The latest decision of a user in a channel, or None."""
        wanted = _latest_key(user, channel)
        for pending in reversed(self._queued_new()):
            if pending.latest_key == wanted:
                return self.get(pending.decision_id)
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
        ids = [str(i) for i in row["ids"]] if row else []
        ids += [
            p.decision_id
            for p in self._queued_new()
            if p.session_key == session_key and p.decision_id not in ids
        ]
        return ids[-SESSION_KEEP:]

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

    def close(self) -> None:
        """Flush and stop the writer."""
        self.flush()
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._writer.join(timeout=5)
        atexit.unregister(self.flush)


def _upsert_many(table: Table, rows: dict[str, dict[str, Any]]) -> None:
    """Insert or replace rows keyed by "key" with at most two rewrites of the file."""
    existing = {row["key"] for row in table.all()}
    changed = [({"key": k, **v}, _Q.key == k) for k, v in rows.items() if k in existing]
    fresh = [{"key": k, **v} for k, v in rows.items() if k not in existing]
    if changed:
        table.update_multiple(changed)
    if fresh:
        table.insert_multiple(fresh)


@dataclass(slots=True)
class _Pending:
    """A decision waiting for the writer, frozen as JSON when it was queued."""

    version: int
    payload: str
    new: bool
    decision_id: str
    latest_key: str
    session_key: str

    def decision(self) -> Decision:
        return Decision.from_dict(json.loads(self.payload))


def _dumps(decision: Decision) -> str:
    """The decision as JSON; one C-level pass instead of dataclasses.asdict's deep copy."""
    return json.dumps(decision.json_fields(), ensure_ascii=False, default=str)


def _session_key(decision: Decision) -> str:
    return f"{decision.channel}:{decision.thread or decision.user}"


def _replace(values: dict[str, Any]) -> Any:
    """A TinyDB update operation that replaces the whole document's fields."""

    def transform(document: dict[str, Any]) -> None:
        document.clear()
        document.update(values)

    return transform
