"""What the decision log stores and how a journal record changes it (pure functions)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from tinydb import Query
from tinydb.table import Table

from core.records import Decision
from core.stores.feedback_rules import add_entry, merged_feedback
from core.stores.tinydb.journal import Record

_Q = Query()


def bucket_of(key: str) -> str:
    return hashlib.blake2s(key.encode("utf-8"), digest_size=1).hexdigest()


def latest_key(user: str, channel: str) -> str:
    return f"{user}\x1f{channel}"


def fold(document: dict[str, Any] | None, record: Record) -> dict[str, Any] | None:
    """A decision document after one journal record (None: the decision is unknown)."""
    if record["op"] == "put":
        values = dict(record["doc"])
        earlier = document.get("feedback") if document else None
        values["feedback"] = merged_feedback(earlier or [], values.get("feedback") or [])
        return values
    if document is None:
        return None
    values = dict(document)
    feedback = [dict(item) for item in values.get("feedback") or []]
    add_entry(feedback, record["entry"])
    values["feedback"] = feedback
    return values


def record_id(record: Record) -> str:
    return str(record["id"] if record["op"] == "feedback" else record["doc"]["decision_id"])


def session_key_of(document: Mapping[str, Any]) -> str:
    return f"{document.get('channel')}:{document.get('thread') or document.get('user')}"


def document_of(decision: Decision) -> dict[str, Any]:
    """The decision as a JSON-ready dict; one C-level pass instead of asdict's deep copy."""
    values = decision.json_fields()
    result: dict[str, Any] = json.loads(json.dumps(values, ensure_ascii=False, default=str))
    return result


def upsert_many(table: Table, rows: dict[str, dict[str, Any]]) -> None:
    """Insert or replace rows keyed by "key" with at most two rewrites of the file."""
    existing = {row["key"] for row in table.all()}
    changed = [({"key": k, **v}, _Q.key == k) for k, v in rows.items() if k in existing]
    fresh = [{"key": k, **v} for k, v in rows.items() if k not in existing]
    if changed:
        table.update_multiple(changed)
    if fresh:
        table.insert_multiple(fresh)


def replace_all(values: dict[str, Any]) -> Any:
    """A TinyDB update operation that replaces the whole document's fields."""

    def transform(document: dict[str, Any]) -> None:
        document.clear()
        document.update(values)

    return transform
