"""The decision log: every Decision, stored in sharded TinyDB files under the brain home.

TinyDB rewrites a whole file on every write, so one file for all decisions would make each write
slower as the log grows. The log is therefore split:

- ``decisions/shards/YYYYMMDD-NNN.json``: the decisions themselves, at most ``shard_size`` per
  file (one day can have several shards);
- ``decisions/index/XX.json``: decision id -> shard, in 256 small buckets;
- ``decisions/sessions/XX.json``: session key -> the latest decision ids of that conversation;
- ``decisions/latest/XX.json``: (user, channel) -> the latest decision id.

A write touches one shard plus three small buckets, whatever the size of the log. All files go
through `open_db` (atomic, crash-safe writes) under the log's lock, which holds across threads
and processes, and every read-modify-write re-reads the file under it.

Durable acknowledgement with group commit: `append`, `update` and `add_feedback` return only
once the record is fsynced. Writers that arrive while a flush is running queue up, and the next
flush writes all of them at once (one rewrite per touched file, one fsync each), so concurrent
writers share the cost instead of paying one flush each. `durable=False` keeps the older
write-behind mode (a background thread flushes; a crash loses what was queued), measured
side by side in benchmarks/stores.py.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tinydb import Query, TinyDB
from tinydb.table import Table

from core.errors import UnknownDecision
from core.records import Decision
from core.stores.feedback_rules import add_entry, merged_feedback
from core.stores.tinydb.locks import store_lock
from core.stores.tinydb.storage import open_db, remove_stale_temporaries

#: Decisions per shard file; keeps each rewrite around a megabyte at most.
DEFAULT_SHARD_SIZE = 200
#: Decision ids remembered per session (the session signal needs only the recent ones).
SESSION_KEEP = 50

#: The log's sub-folders.
FOLDERS = ("shards", "index", "sessions", "latest")

_Q = Query()
log = logging.getLogger(__name__)


def _bucket(key: str) -> str:
    return hashlib.blake2s(key.encode("utf-8"), digest_size=1).hexdigest()


def _latest_key(user: str, channel: str) -> str:
    return f"{user}\x1f{channel}"


class TinyDecisionStore:
    """Append, update and look up decisions and their feedback; safe across threads and
    processes sharing the folder.

    Writes are queued and flushed in batches (one rewrite per touched file, however many
    decisions arrived meanwhile); with `durable` (the default) each write call returns once its
    batch is on disk. Reads see queued decisions at once. `close()` and interpreter exit flush.
    """

    def __init__(
        self, root: Path, *, shard_size: int = DEFAULT_SHARD_SIZE, durable: bool = True
    ) -> None:
        self.root = root
        self.shard_size = shard_size
        self.durable = durable
        self._lock = store_lock(root)  # threads and processes: every read-modify-write
        self._io = threading.RLock()  # one flush at a time in this process
        self._cond = threading.Condition()
        self._pending: dict[str, _Pending] = {}
        self._version = 0
        self._on_disk = 0  # every version up to this one is durable
        self._closed = False
        self._current: tuple[str, int] | None = None  # (shard name, decisions in it)
        with self._lock.held():
            for folder in FOLDERS:
                (root / folder).mkdir(parents=True, exist_ok=True)
                remove_stale_temporaries(root / folder)
        self._writer: threading.Thread | None = None
        if not durable:
            self._writer = threading.Thread(target=self._run, name="decision-log", daemon=True)
            self._writer.start()
        atexit.register(self.flush)

    # -- files ---------------------------------------------------------------------------
    def _with_db(self, folder: str, name: str) -> TinyDB:
        return open_db(self.root / folder / f"{name}.json")

    def _shard_for_new(self) -> str:
        day = datetime.now(UTC).strftime("%Y%m%d")
        if self._current is None or not self._current[0].startswith(day):
            existing = sorted(p.stem for p in (self.root / "shards").glob(f"{day}-*.json"))
            if existing:
                name = existing[-1]
                db = self._with_db("shards", name)
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
        """Store a new decision; it is indexed by id, session and (user, channel)."""
        self._commit(self._queue(decision, new=True))

    def update(self, decision: Decision) -> None:
        """Replace a logged decision (keeping feedback stored meanwhile); unknown id ->
        UnknownDecision."""
        with self._cond:
            queued = self._pending.get(decision.decision_id)
        if queued is None:
            self._shard_of(decision.decision_id)  # raises UnknownDecision
        self._commit(self._queue(decision, new=bool(queued and queued.new)))

    def add_feedback(self, decision_id: str, entry: Mapping[str, Any]) -> Decision:
        """Append one feedback item to the stored decision, atomically and durably."""
        with self._io:
            self._flush_once()  # the decision itself may still be queued
            shard = self._shard_of(decision_id)
            with self._lock.held():
                db = self._with_db("shards", shard)
                try:
                    table = db.table("decisions", cache_size=0)
                    row = table.get(_Q.decision_id == decision_id)
                    if not isinstance(row, dict):
                        raise UnknownDecision(decision_id)
                    values = dict(row)
                    feedback = [dict(item) for item in values.get("feedback") or []]
                    if add_entry(feedback, entry):
                        table.update({"feedback": feedback}, _Q.decision_id == decision_id)
                    values["feedback"] = feedback
                finally:
                    db.close()
        return Decision.from_dict(values)

    def _commit(self, version: int) -> None:
        """Group commit: return once `version` is on disk, flushing (with whatever else is
        queued) unless another thread's flush already took it."""
        if not self.durable:
            return
        while True:
            with self._cond:
                if self._on_disk >= version:
                    return
            with self._io:
                with self._cond:
                    if self._on_disk >= version:
                        return
                self._flush_once()

    def _queue(self, decision: Decision, *, new: bool) -> int:
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
            return self._version

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
            with self._lock.held():
                self._write_batch(batch)

    def _write_batch(self, batch: dict[str, _Pending]) -> None:
        """Write one batch (with the log's lock held) and mark it durable."""
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
            [p for p in sorted(batch.values(), key=lambda p: p.version) if p.decision_id in placed],
            placed,
        )
        with self._cond:
            self._on_disk = max(self._on_disk, *(p.version for p in batch.values()))
            for decision_id, done in batch.items():
                current = self._pending.get(decision_id)
                if current is not None and current.version == done.version:
                    del self._pending[decision_id]
                elif current is not None and decision_id in placed:
                    current.new = False

    def _write_shard(self, shard: str, documents: list[dict[str, Any]]) -> None:
        """At most two rewrites of the shard, however many decisions the batch holds."""
        db = self._with_db("shards", shard)
        table = db.table("decisions", cache_size=0)
        stored = {row["decision_id"]: row for row in table.all()}
        fresh = [d for d in documents if d["decision_id"] not in stored]
        changed = []
        for document in documents:
            earlier = stored.get(document["decision_id"])
            if earlier is not None:
                document["feedback"] = merged_feedback(
                    earlier.get("feedback") or [], document.get("feedback") or []
                )
                changed.append((_replace(document), _Q.decision_id == document["decision_id"]))
        if changed:
            table.update_multiple(changed)
        if fresh:
            table.insert_multiple(fresh)
        db.close()
        if self._current is not None and self._current[0] == shard:
            # Another process may append to the same shard: count what is really there.
            self._current = (shard, len(stored) + len(fresh))

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
                db = self._with_db(folder, bucket)
                _upsert_many(db.table(folder, cache_size=0), entries)
                db.close()
        by_bucket_sessions: dict[str, dict[str, list[str]]] = {}
        for key, ids in sessions.items():
            by_bucket_sessions.setdefault(_bucket(key), {})[key] = ids
        for bucket_name, session_rows in by_bucket_sessions.items():
            db = self._with_db("sessions", bucket_name)
            table = db.table("sessions", cache_size=0)
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
        db = self._with_db(folder, _bucket(key))
        row = db.table(folder, cache_size=0).get(_Q.key == key)
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
            db = self._with_db("shards", shard)
            rows = db.table("decisions", cache_size=0).search(_Q.decision_id.one_of(ids))
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
                return self.get_many([pending.decision_id])[0]
        row = self._lookup("latest", _latest_key(user, channel))
        if row is None:
            return None
        try:
            return self.get_many([str(row["id"])])[0]
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

    def close(self) -> None:
        """Flush and stop the writer."""
        self.flush()
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._writer is not None:
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
    values = {name: getattr(decision, name) for name in Decision.__dataclass_fields__}
    values["dry_runs"] = [asdict(record) for record in decision.dry_runs]
    return json.dumps(values, ensure_ascii=False, default=str)


def _session_key(decision: Decision) -> str:
    return f"{decision.channel}:{decision.thread or decision.user}"


def _replace(values: dict[str, Any]) -> Any:
    """A TinyDB update operation that replaces the whole document's fields."""

    def transform(document: dict[str, Any]) -> None:
        document.clear()
        document.update(values)

    return transform
