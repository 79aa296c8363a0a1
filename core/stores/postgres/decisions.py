"""The decision log (and its feedback) in one table, `decisions`.

A write is committed before the call returns (synchronous commit, PostgreSQL's default), so
"acknowledged" means what it means for the TinyDB journal: a crash of any replica, or of the
database after the commit, loses nothing acknowledged. Feedback is appended under a row lock
(`SELECT ... FOR UPDATE`), so feedback given through two replicas at once is all kept, and an
update written from a stale copy merges the feedback stored meanwhile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.errors import UnknownDecision
from core.records import Decision
from core.stores.feedback_rules import add_entry, merged_feedback
from core.stores.forgetting import forget_in
from core.stores.postgres.collection import Pool, dumps, loaded

#: Decision ids returned per session, as in the other backends.
SESSION_KEEP = 50


def _session_key(decision: Decision) -> str:
    return f"{decision.channel}:{decision.thread or decision.user}"


class PgDecisionStore:
    """Append, update and look up decisions and their feedback in PostgreSQL."""

    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    def append(self, decision: Decision) -> None:
        values = decision.to_dict()
        with self._pool.connection() as conn, conn.transaction():
            row = conn.execute(
                "INSERT INTO decisions (decision_id, user_id, channel, session_key, doc) "
                "VALUES (%s, %s, %s, %s, %s::json) ON CONFLICT (decision_id) DO NOTHING "
                "RETURNING seq",
                (
                    decision.decision_id,
                    decision.user,
                    decision.channel,
                    _session_key(decision),
                    dumps(values),
                ),
            ).fetchone()
        if row is None:  # the id was logged before: replace it as an update would
            self.update(decision)

    def update(self, decision: Decision) -> None:
        values = decision.to_dict()
        with self._pool.connection() as conn, conn.transaction():
            row = conn.execute(
                "SELECT doc FROM decisions WHERE decision_id = %s FOR UPDATE",
                (decision.decision_id,),
            ).fetchone()
            if row is None:
                raise UnknownDecision(decision.decision_id)
            stored = loaded(row[0])
            values["feedback"] = merged_feedback(
                stored.get("feedback") or [], values.get("feedback") or []
            )
            conn.execute(
                "UPDATE decisions SET doc = %s::json WHERE decision_id = %s",
                (dumps(values), decision.decision_id),
            )

    def add_feedback(self, decision_id: str, entry: Mapping[str, Any]) -> Decision:
        with self._pool.connection() as conn, conn.transaction():
            row = conn.execute(
                "SELECT doc FROM decisions WHERE decision_id = %s FOR UPDATE", (decision_id,)
            ).fetchone()
            if row is None:
                raise UnknownDecision(decision_id)
            values = loaded(row[0])
            feedback = [dict(item) for item in values.get("feedback") or []]
            if add_entry(feedback, entry):
                values["feedback"] = feedback
                conn.execute(
                    "UPDATE decisions SET doc = %s::json WHERE decision_id = %s",
                    (dumps(values), decision_id),
                )
        return Decision.from_dict(values)

    def get_many(self, decision_ids: list[str]) -> list[Decision]:
        if not decision_ids:
            return []
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT decision_id, doc FROM decisions WHERE decision_id = ANY(%s)",
                (list(decision_ids),),
            ).fetchall()
        found = {str(row[0]): row[1] for row in rows}
        for decision_id in decision_ids:
            if decision_id not in found:
                raise UnknownDecision(decision_id)
        return [Decision.from_dict(loaded(found[i])) for i in decision_ids]

    def page(self, *, before: str | None, limit: int) -> tuple[list[Decision], str | None]:
        """Newest first below the cursor (the primary key's `seq`: an index scan)."""
        top = int(before) if before else None
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT seq, doc FROM decisions WHERE (%s::bigint IS NULL OR seq < %s) "
                "ORDER BY seq DESC LIMIT %s",
                (top, top, limit + 1),
            ).fetchall()
        more = len(rows) > limit
        rows = rows[:limit]
        cursor = str(rows[-1][0]) if more and rows else None
        return [Decision.from_dict(loaded(row[1])) for row in rows], cursor

    def last_for(self, user: str, channel: str) -> Decision | None:
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT doc FROM decisions WHERE user_id = %s AND channel = %s "
                "ORDER BY seq DESC LIMIT 1",
                (user, channel),
            ).fetchone()
        return None if row is None else Decision.from_dict(loaded(row[0]))

    def session_ids(self, session_key: str) -> list[str]:
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT decision_id FROM decisions WHERE session_key = %s "
                "ORDER BY seq DESC LIMIT %s",
                (session_key, SESSION_KEEP),
            ).fetchall()
        return [str(row[0]) for row in reversed(rows)]

    def forget_user(self, user: str, texts: Sequence[str]) -> list[str]:
        """Redact every decision the user asked and quotes of `texts` in others, and drop the
        user's feedback, in one transaction (rows locked, so a concurrent update cannot write
        the old words back)."""
        changed: list[str] = []
        with self._pool.connection() as conn, conn.transaction():
            rows = conn.execute(
                "SELECT decision_id, doc FROM decisions ORDER BY seq FOR UPDATE"
            ).fetchall()
            for decision_id, doc in rows:
                document = loaded(doc)
                if forget_in(document, user, texts):
                    changed.append(str(decision_id))
                    conn.execute(
                        "UPDATE decisions SET doc = %s::json WHERE decision_id = %s",
                        (dumps(document), decision_id),
                    )
        return changed

    def flush(self) -> None:
        return None  # every write is committed when its call returns

    def close(self) -> None:
        return None  # the pool is the backend's
