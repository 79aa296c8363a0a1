"""The TinyDB decision log read newest first, one page at a time (keyset paging).

Shards are named by day and number (`YYYYMMDD-NNN`) and keep their decisions in insertion
order, so "newest first" is the shards in reverse name order, each read backwards. The cursor
is the position the last page stopped at (`shard/index`): page 1,000 reads what page 1 does,
one shard file or two (a shard holds at most `shard_size` decisions), however long the log.
Writes still in the journal (acknowledged, not yet checkpointed) are the newest and lead the
first page; nothing here writes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.records import Decision
from core.stores.tinydb.decision_records import fold, record_id

if TYPE_CHECKING:
    from core.stores.tinydb.journal import Journal

__all__ = ["PagedDecisions"]


class PagedDecisions:
    """`page` for `TinyDecisionStore` (it provides the attributes read here)."""

    root: Path
    _journal: Journal

    def _shard_documents(self, shard: str) -> dict[str, dict[str, Any]]:
        raise NotImplementedError  # pragma: no cover (TinyDecisionStore's)

    def page(self, *, before: str | None, limit: int) -> tuple[list[Decision], str | None]:
        """Up to `limit` decisions older than the cursor `before` (None: the newest), newest
        first, and the cursor of the next page (None: no more)."""
        journal = self._journal.records()
        pending: dict[str, dict[str, Any]] = {}
        changes: dict[str, list[dict[str, Any]]] = {}
        for record in journal:
            decision_id = record_id(record)
            if record["op"] == "put" and record.get("new"):
                pending[decision_id] = fold(pending.get(decision_id), record) or {}
            elif decision_id in pending:
                pending[decision_id] = fold(pending[decision_id], record) or pending[decision_id]
            else:
                changes.setdefault(decision_id, []).append(record)
        found: list[dict[str, Any]] = []
        seen: set[str] = set()
        if before is None:
            for document in reversed(pending.values()):
                found.append(document)
                seen.add(str(document["decision_id"]))
        shards = sorted((p.stem for p in (self.root / "shards").glob("*.json")), reverse=True)
        start_shard, start_index = _cursor(before)
        cursor: str | None = None
        for shard in shards:
            if start_shard is not None and shard > start_shard:
                continue
            rows = list(self._shard_documents(shard).values())
            top = len(rows) if shard != start_shard else min(start_index, len(rows))
            for index in range(top - 1, -1, -1):
                if len(found) >= limit:
                    return _decisions(found, changes), cursor
                document = rows[index]
                cursor = f"{shard}/{index}"
                if str(document["decision_id"]) in seen:
                    continue
                found.append(document)
        return _decisions(found, changes), None


def _cursor(before: str | None) -> tuple[str | None, int]:
    if not before:
        return None, 0
    shard, _, index = before.rpartition("/")
    try:
        return shard, int(index)
    except ValueError:
        return None, 0


def _decisions(
    documents: list[dict[str, Any]], changes: dict[str, list[dict[str, Any]]]
) -> list[Decision]:
    """The documents as decisions, with feedback still in the journal folded over them."""
    decisions = []
    for document in documents:
        for record in changes.get(str(document["decision_id"]), []):
            document = fold(document, record) or document
        decisions.append(Decision.from_dict(dict(document)))
    return decisions
