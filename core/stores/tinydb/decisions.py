"""The decision log: every Decision, stored in sharded TinyDB files under the brain home.

TinyDB rewrites a whole file on every write, so one file for all decisions would make each write
slower as the log grows. The log is therefore split:

- ``decisions/shards/YYYYMMDD-NNN.json``: the decisions themselves, at most ``shard_size`` per
  file (one day can have several shards);
- ``decisions/index/XX.json``: decision id -> shard, in 256 small buckets;
- ``decisions/sessions/XX.json``: session key -> the latest decision ids of that conversation;
- ``decisions/latest/XX.json``: (user, channel) -> the latest decision id;
- ``decisions/journal.jsonl``: writes acknowledged but not yet applied to the files above.

Durable acknowledgement with group commit: `append`, `update` and `add_feedback` write one
journal line and return once it is fsynced; writers arriving meanwhile share the next fsync.
A background checkpoint (any process; one at a time, under the log's lock) folds the journal
into the shards and buckets in one batch, so a shard is rewritten once per batch, not once
per decision, and then cuts the applied lines. Reads fold the journal over the shards, so every
process sees every acknowledged write at once; a process that crashed leaves its lines in the
journal, and the next checkpoint applies them. Applying a line twice changes nothing (a decision
is replaced, feedback is added once), so a crash mid-checkpoint is harmless.

`durable=False` skips the journal's fsync (the write-behind of earlier versions: fast, but a
power cut can lose the last writes), for the side-by-side figures in benchmarks/stores.py.
"""

from __future__ import annotations

import atexit
import copy
import hashlib
import logging
import threading
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tinydb import Query, TinyDB

from core.errors import UnknownDecision
from core.records import Decision
from core.stores.feedback_rules import merged_feedback
from core.stores.forgetting import forget_in
from core.stores.tinydb.decision_pages import PagedDecisions
from core.stores.tinydb.decision_records import (
    bucket_of,
    document_of,
    fold,
    latest_key,
    record_id,
    replace_all,
    session_key_of,
    upsert_many,
)
from core.stores.tinydb.file_cache import FileCache
from core.stores.tinydb.group_commit import GroupCommit
from core.stores.tinydb.journal import Journal, Record
from core.stores.tinydb.locks import store_lock
from core.stores.tinydb.storage import (
    AtomicJSONStorage,
    encode,
    open_db,
    remove_stale_temporaries,
)

#: Decisions per shard file; keeps each rewrite around a megabyte at most.
DEFAULT_SHARD_SIZE = 200
#: Decision ids remembered per session (the session signal needs only the recent ones).
SESSION_KEEP = 50
#: Parsed shards kept per process (the current shard is read on nearly every look-up).
SHARD_CACHE = 8
#: How long the background checkpoint waits for more writes before applying a batch: each
#: one rewrites the current shard (up to `shard_size` decisions) and fsyncs a dozen files, in a
#: thread that shares the interpreter with the decisions.
CHECKPOINT_DELAY_S = 1.0

#: The log's sub-folders.
FOLDERS = ("shards", "index", "sessions", "latest")

_Q = Query()
log = logging.getLogger(__name__)


class TinyDecisionStore(PagedDecisions):
    """Append, update and look up decisions and their feedback; safe across threads and
    processes sharing the folder, durable when a write call returns."""

    def __init__(
        self, root: Path, *, shard_size: int = DEFAULT_SHARD_SIZE, durable: bool = True
    ) -> None:
        self.root = root
        self.shard_size = shard_size
        self.durable = durable
        root.mkdir(parents=True, exist_ok=True)
        self._lock = store_lock(root)  # checkpoints: shards and buckets, across processes
        self._journal = Journal(root / "journal.jsonl")
        self._writes = GroupCommit(self._journal, durable=durable)
        self._current: tuple[str, int] | None = None  # (shard name, decisions in it)
        self._shard_cache = FileCache(_by_id, limit=SHARD_CACHE)
        #: The shard this process wrote last: (name, a digest of its bytes, its data).
        self._last_shard: tuple[str, bytes, dict[str, Any]] | None = None
        self._index_cache = FileCache(_shard_of_ids)
        with self._lock.held(), self._journal.lock.held():
            remove_stale_temporaries(root)
            for folder in FOLDERS:
                (root / folder).mkdir(parents=True, exist_ok=True)
                remove_stale_temporaries(root / folder)
        self.checkpoint()  # what a crashed process acknowledged but did not apply
        self._writer = threading.Thread(target=self._run, name="decision-log", daemon=True)
        self._writer.start()
        atexit.register(self.flush)

    # -- writes --------------------------------------------------------------------------
    def append(self, decision: Decision) -> None:
        """Store a new decision; it is indexed by id, session and (user, channel)."""
        self._write({"op": "put", "new": True, "doc": document_of(decision)})

    def append_many(self, decisions: Iterable[Decision]) -> None:
        """Store many new decisions with one journal append and one fsync (a bulk import);
        they are applied to the shards by the next checkpoint, in one batch."""
        versions = [
            self._writes.accept({"op": "put", "new": True, "doc": document_of(decision)})
            for decision in decisions
        ]
        if versions:
            self._writes.commit(versions[-1])

    def update(self, decision: Decision) -> None:
        """Replace a logged decision (keeping feedback stored meanwhile); unknown id ->
        UnknownDecision."""
        self.get_many([decision.decision_id])  # raises UnknownDecision
        self._write({"op": "put", "new": False, "doc": document_of(decision)})

    def add_feedback(self, decision_id: str, entry: Mapping[str, Any]) -> Decision:
        """Append one feedback item to the stored decision, atomically and durably; returns
        the decision as read before the append with the item added (one read, not two)."""
        stored = self._documents([decision_id])[decision_id]  # raises UnknownDecision
        record = {"op": "feedback", "id": decision_id, "entry": dict(entry)}
        self._write(record)
        return Decision.from_dict(fold(stored, record) or stored)

    def _write(self, record: Record) -> None:
        """One record in the journal, durably, before this returns (group commit)."""
        self._writes.commit(self._writes.accept(record))

    # -- checkpoints ---------------------------------------------------------------------
    def _run(self) -> None:
        while self._writes.wait_for_writes(CHECKPOINT_DELAY_S):  # let a batch gather
            try:
                self.checkpoint()
            except Exception:  # the journal keeps everything; the next checkpoint retries
                log.exception("applying the decision journal failed; will retry")
                self._writes.pause(1.0)

    def checkpoint(self) -> None:
        """Fold the journal into the shards and buckets, then cut what was applied."""
        with self._lock.held():
            self._writes.applied()
            records, length = self._journal.snapshot()
            if records:
                self._apply(records)
            self._journal.cut(length)

    def _apply(self, records: list[Record]) -> None:
        ids = list(dict.fromkeys(record_id(record) for record in records))  # a set, in order
        shard_of = self._find_shards(ids)
        current = self._read_shards(shard_of)
        new: list[dict[str, Any]] = []
        for record in records:
            decision_id = record_id(record)
            folded = fold(current.get(decision_id), record)
            if folded is None:
                log.error("feedback for unknown decision %s was dropped", decision_id)
                continue
            is_new = record["op"] == "put" and record.get("new")
            if is_new and decision_id not in shard_of and decision_id not in current:
                new.append(folded)
            current[decision_id] = folded
        placed: dict[str, str] = {}
        for document in new:
            shard = self._shard_for_new()
            assert self._current is not None
            self._current = (shard, self._current[1] + 1)
            placed[document["decision_id"]] = shard
        by_shard: dict[str, list[dict[str, Any]]] = {}
        for decision_id, document in current.items():
            target = shard_of.get(decision_id) or placed.get(decision_id)
            if target is not None:
                by_shard.setdefault(target, []).append(document)
        for shard, documents in by_shard.items():
            self._write_shard(shard, documents)
        self._index_new([current[d["decision_id"]] for d in new], placed)

    def _read_shards(self, shard_of: Mapping[str, str]) -> dict[str, dict[str, Any]]:
        """The stored documents of these decisions (copies: callers may change them)."""
        by_shard: dict[str, list[str]] = {}
        for decision_id, shard in shard_of.items():
            by_shard.setdefault(shard, []).append(decision_id)
        found: dict[str, dict[str, Any]] = {}
        for shard, ids in by_shard.items():
            documents = self._shard_documents(shard)
            for decision_id in ids:
                if decision_id in documents:
                    found[decision_id] = copy.deepcopy(documents[decision_id])
        return found

    def _shard_documents(self, shard: str) -> dict[str, dict[str, Any]]:
        """A shard's decisions by id, parsed again only when the file changed."""
        return self._shard_cache.get(shard, self.root / "shards" / f"{shard}.json")

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

    def _write_shard(self, shard: str, documents: list[dict[str, Any]]) -> None:
        """One read and one rewrite of the shard, however many decisions the batch holds; the
        shard as written goes into this process's cache, so the reads after a checkpoint do
        not parse it again (a feedback item read its decision's shard afresh after each one).
        Called with the log's lock held: no other process replaces the shard meanwhile."""
        path = self.root / "shards" / f"{shard}.json"
        data = self._shard_file(shard, path)
        table: dict[str, dict[str, Any]] = dict(data.get("decisions", {}))
        doc_ids = {str(row["decision_id"]): doc_id for doc_id, row in table.items()}
        next_id = max((int(doc_id) for doc_id in table), default=0) + 1
        for document in documents:
            doc_id = doc_ids.get(document["decision_id"])
            if doc_id is None:  # TinyDB's numbering: one more than the largest doc id
                doc_id, next_id = str(next_id), next_id + 1
            else:
                earlier = table[doc_id]
                document["feedback"] = merged_feedback(
                    earlier.get("feedback") or [], document.get("feedback") or []
                )
            table[doc_id] = document
        written = {**data, "decisions": table}
        payload = encode(written)
        AtomicJSONStorage(path).write_bytes(payload)
        self._last_shard = (shard, _digest(payload), written)
        self._shard_cache.written(shard, path, written)
        if self._current is not None and self._current[0] == shard:
            # Another process may append to the same shard: count what is really there.
            self._current = (shard, len(table))

    def _shard_file(self, shard: str, path: Path) -> dict[str, Any]:
        """The shard file's data, read from disk (another process may have written it), but
        not parsed when it holds the very bytes this process wrote last: a checkpoint every
        few decisions parsed the current shard (up to `shard_size` decisions) afresh, and the
        garbage collector's full collections, which follow the objects that outlive its young
        collections, came several times as often."""
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return {}
        last = self._last_shard
        if last is not None and last[0] == shard and last[1] == _digest(raw):
            return last[2]
        return AtomicJSONStorage(path).parse(raw.decode("utf-8")) or {}

    def _index_new(self, documents: list[dict[str, Any]], placed: dict[str, str]) -> None:
        updates: dict[str, dict[str, dict[str, Any]]] = {}
        sessions: dict[str, list[str]] = {}
        for document in documents:
            decision_id = document["decision_id"]
            updates.setdefault("index", {})[decision_id] = {"shard": placed[decision_id]}
            latest = latest_key(document["user"], document["channel"])
            updates.setdefault("latest", {})[latest] = {"id": decision_id}
            sessions.setdefault(session_key_of(document), []).append(decision_id)
        for folder, rows in updates.items():
            by_bucket: dict[str, dict[str, dict[str, Any]]] = {}
            for key, values in rows.items():
                by_bucket.setdefault(bucket_of(key), {})[key] = values
            for bucket, entries in by_bucket.items():
                self._upsert_bucket(folder, bucket, entries)
        by_bucket_sessions: dict[str, dict[str, list[str]]] = {}
        for key, ids in sessions.items():
            by_bucket_sessions.setdefault(bucket_of(key), {})[key] = ids
        for bucket_name, session_rows in by_bucket_sessions.items():
            db = self._with_db("sessions", bucket_name)
            table = db.table("sessions", cache_size=0)
            known = {row["key"]: list(row["ids"]) for row in table.all()}
            merged: dict[str, dict[str, Any]] = {}
            for key, ids in session_rows.items():
                before = known.get(key, [])
                ids_after = [*before, *(i for i in ids if i not in before)][-SESSION_KEEP:]
                merged[key] = {"ids": ids_after}
            upsert_many(table, merged)
            db.close()

    def _upsert_bucket(self, folder: str, bucket: str, rows: dict[str, dict[str, Any]]) -> None:
        """Insert or replace rows keyed by "key" in one bucket file: one read, one rewrite
        (TinyDB read it three times and wrote it twice). An index bucket as written goes into
        the cache: a feedback item on a new decision parsed its bucket (390 ids at 100k) again.
        Called with the log's lock held: no other process replaces the bucket meanwhile."""
        path = self.root / folder / f"{bucket}.json"
        data = AtomicJSONStorage(path).read() or {}
        table: dict[str, dict[str, Any]] = dict(data.get(folder, {}))
        doc_ids = {str(row["key"]): doc_id for doc_id, row in table.items()}
        next_id = max((int(doc_id) for doc_id in table), default=0) + 1
        for key, values in rows.items():
            doc_id = doc_ids.get(key)
            if doc_id is None:  # TinyDB's numbering: one more than the largest doc id
                doc_id, next_id = str(next_id), next_id + 1
            table[doc_id] = {"key": key, **values}
        written = {**data, folder: table}
        AtomicJSONStorage(path).write(written)
        if folder == "index":
            self._index_cache.written(bucket, path, written)

    def _lookup(self, folder: str, key: str) -> dict[str, Any] | None:
        path = self.root / folder / f"{bucket_of(key)}.json"
        if not path.exists():
            return None
        db = self._with_db(folder, bucket_of(key))
        row = db.table(folder, cache_size=0).get(_Q.key == key)
        db.close()
        return dict(row) if isinstance(row, dict) else None

    # -- reads ---------------------------------------------------------------------------
    def _find_shards(self, decision_ids: Iterable[str]) -> dict[str, str]:
        """The shard of each known decision, reading each index bucket once (a checkpoint of
        a big batch asks for thousands of ids)."""
        by_bucket: dict[str, set[str]] = {}
        for decision_id in decision_ids:
            by_bucket.setdefault(bucket_of(decision_id), set()).add(decision_id)
        found: dict[str, str] = {}
        for bucket, wanted in by_bucket.items():
            shards = self._index_bucket(bucket)
            found.update({key: shards[key] for key in wanted if key in shards})
        return found

    def _index_bucket(self, bucket: str) -> dict[str, str]:
        """One index bucket (decision id -> shard), parsed again only when its file changed:
        a bucket holds 1/256 of every decision ever logged (390 at 100k), and parsing it on
        each look-up made a feedback write slower as the log grew."""
        return self._index_cache.get(bucket, self.root / "index" / f"{bucket}.json")

    def get_many(self, decision_ids: list[str]) -> list[Decision]:
        """Several decisions in the given order: the shards with the journal folded over."""
        documents = self._documents(decision_ids)
        return [Decision.from_dict(dict(documents[i])) for i in decision_ids]

    def _documents(self, decision_ids: list[str]) -> dict[str, dict[str, Any]]:
        """The stored documents of these decisions, by id; raises UnknownDecision."""
        journal = self._journal.records()  # first: a checkpoint may apply and cut meanwhile
        wanted = set(decision_ids)
        shard_of = self._find_shards(wanted)
        documents: dict[str, dict[str, Any] | None] = dict(self._read_shards(shard_of))
        for record in journal:
            decision_id = record_id(record)
            if decision_id in wanted:
                documents[decision_id] = fold(documents.get(decision_id), record)
        found: dict[str, dict[str, Any]] = {}
        for decision_id in decision_ids:
            document = documents.get(decision_id)
            if document is None:
                raise UnknownDecision(decision_id)
            found[decision_id] = document
        return found

    def last_for(self, user: str, channel: str) -> Decision | None:
        """The latest decision of a user in a channel, or None."""
        wanted = latest_key(user, channel)
        found: str | None = None
        for record in reversed(self._journal.records()):
            doc = record.get("doc") or {}
            if record.get("new") and latest_key(doc.get("user", ""), doc.get("channel", "")) == (
                wanted
            ):
                found = str(doc["decision_id"])
                break
        if found is None:
            row = self._lookup("latest", wanted)
            found = None if row is None else str(row["id"])
        if found is None:
            return None
        try:
            return self.get_many([found])[0]
        except UnknownDecision:
            return None

    def session_ids(self, session_key: str) -> list[str]:
        """Ids of the session's latest decisions, oldest first."""
        journal = self._journal.records()
        row = self._lookup("sessions", session_key)
        ids = [str(i) for i in row["ids"]] if row else []
        for record in journal:
            doc = record.get("doc") or {}
            in_session = record.get("new") and session_key_of(doc) == session_key
            if in_session and doc["decision_id"] not in ids:
                ids.append(str(doc["decision_id"]))
        return ids[-SESSION_KEEP:]

    def forget_user(self, user: str, texts: Sequence[str]) -> list[str]:
        """Apply the journal (so no line of it keeps the old words), then redact every shard
        in place; each rewrite replaces its file atomically."""
        changed: list[str] = []
        with self._lock.held():
            self.checkpoint()
            for path in sorted((self.root / "shards").glob("*.json")):
                db = self._with_db("shards", path.stem)
                table = db.table("decisions", cache_size=0)
                updates = []
                for row in table.all():
                    document = copy.deepcopy(dict(row))
                    if forget_in(document, user, texts):
                        changed.append(str(document["decision_id"]))
                        updates.append(
                            (replace_all(document), _Q.decision_id == document["decision_id"])
                        )
                if updates:
                    table.update_multiple(updates)
                db.close()
            self._shard_cache.clear()
            self._last_shard = None
            self.checkpoint()
        return changed

    def flush(self) -> None:
        """Apply the journal to the shards now (what `close` and interpreter exit do)."""
        self.checkpoint()

    def close(self) -> None:
        """Apply the journal and stop the background checkpoints."""
        self.flush()
        self._writes.close()
        self._writer.join(timeout=5)
        atexit.unregister(self.flush)


def _digest(payload: bytes) -> bytes:
    return hashlib.blake2b(payload, digest_size=16).digest()


def _by_id(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A shard file's decisions by id."""
    return {str(row["decision_id"]): row for row in data.get("decisions", {}).values()}


def _shard_of_ids(data: dict[str, Any]) -> dict[str, str]:
    """An index bucket file's decision ids -> shard."""
    return {str(row["key"]): str(row["shard"]) for row in data.get("index", {}).values()}
