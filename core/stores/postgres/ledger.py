"""The Slack event ledger on PostgreSQL: one atomic claim per event, with an owner and a state.

A claim made with an `owner` (a replica's id) is 'claimed' until that replica settles it
('sending', a compare-and-set just before the reply is sent; 'answered' once Slack took it).
A replica's heartbeat (`replicas`) says it is alive; a claim whose owner's heartbeat lapsed
and that was not answered may be taken over, by a Slack retry reaching another replica (the
claim itself) or by a live replica's sweep (`orphans`), which gets the event's stored body
to answer it (after asking Slack whether the reply of a claim left 'sending' arrived after all).
Claims without an owner (reactions, clicks) are settled at once.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from core.stores.postgres.collection import Pool

#: Claims between two prunings of the ledger, and how many keys a pruning keeps.
PRUNE_EVERY = 1_000
PRUNE_KEEP = 100_000

#: The row `key` is held by a replica whose heartbeat is current (or by nobody: settled).
_OWNER_ALIVE = (
    "EXISTS (SELECT 1 FROM replicas r WHERE r.holder = {row}.owner AND r.alive_until > now())"
)
#: Taking over an existing row: only an unanswered claim of another, dead replica. A message
#: key (no body) left 'sending' is taken too: its event's key, taken by the sweep, decides
#: (after asking Slack) whether the message is answered again.
_TAKE_OVER = (
    "ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, at = excluded.at, "
    "payload = COALESCE(excluded.payload, e.payload) "
    "WHERE (e.state = 'claimed' OR (e.state = 'sending' AND e.payload IS NULL)) "
    "AND excluded.owner IS NOT NULL "
    "AND e.owner IS DISTINCT FROM excluded.owner AND NOT " + _OWNER_ALIVE.format(row="e")
)


class PgEventLedger:
    """Claimed Slack event keys in `slack_events`; a claim is one INSERT ... ON CONFLICT.

    Every `PRUNE_EVERY` claims (per process) the oldest keys beyond `PRUNE_KEEP` are deleted:
    Slack retries within minutes, so only the recent keys matter.
    """

    def __init__(self, pool: Pool, *, keep: int = PRUNE_KEEP) -> None:
        self._pool = pool
        self._keep = keep
        self._claims = itertools.count(1)

    def claim(
        self,
        keys: Sequence[str],
        at: float,
        *,
        owner: str | None = None,
        payload: Mapping[str, Any] | None = None,
    ) -> bool:
        """Take every key, or none when any was taken before (by any replica) and is not an
        unanswered claim of a dead replica. With `owner` the keys stay 'claimed' (an answer
        is owed, `payload` kept to give it again) until `settle`."""
        wanted = list(dict.fromkeys(keys))
        if not wanted:
            return True
        if next(self._claims) % PRUNE_EVERY == 0:
            self._prune(self._keep)
        state = "claimed" if owner else "answered"
        body = json.dumps(payload) if payload is not None and owner else None
        with self._pool.connection() as conn:
            if len(wanted) == 1:  # the usual case: one statement, its own transaction
                row = conn.execute(
                    "INSERT INTO slack_events AS e (key, at, owner, state, payload) "
                    "VALUES (%s, %s, %s, %s, %s::json) " + _TAKE_OVER + " RETURNING key",
                    (wanted[0], at, owner, state, body),
                ).fetchone()
                return row is not None
            try:
                with conn.transaction():
                    rows = conn.execute(
                        "INSERT INTO slack_events AS e (key, at, owner, state, payload) "
                        "SELECT unnest(%s::text[]), %s::float8, %s::text, %s::text, %s::json "
                        + _TAKE_OVER
                        + " RETURNING key",
                        (wanted, at, owner, state, body),
                    ).fetchall()
                    if len(rows) < len(wanted):
                        raise _Taken  # roll back the keys this call did insert
            except _Taken:
                return False
            return True

    def settle(self, keys: Sequence[str], owner: str) -> bool:
        """`owner` starts sending the answer of its claims (compare-and-set claimed ->
        sending): False, changing nothing, when another replica took any of them over (it
        answers; this one must not)."""
        wanted = list(dict.fromkeys(keys))
        if not wanted:
            return True
        try:
            with self._pool.connection() as conn, conn.transaction():
                conn.execute(
                    "UPDATE slack_events SET state = 'sending' "
                    "WHERE key = ANY(%s) AND owner = %s AND state = 'claimed'",
                    (wanted, owner),
                )
                row = conn.execute(
                    "SELECT count(*) FROM slack_events WHERE key = ANY(%s) "
                    "AND owner IS NOT NULL AND owner <> %s",
                    (wanted, owner),
                ).fetchone()
                if row and int(row[0]):
                    raise _Taken
        except _Taken:
            return False
        return True

    def confirm(self, keys: Sequence[str], owner: str) -> None:
        """The answer `owner` was sending reached Slack: answered (the body is dropped)."""
        with self._pool.connection() as conn:
            conn.execute(
                "UPDATE slack_events SET state = 'answered', payload = NULL "
                "WHERE key = ANY(%s) AND owner = %s AND state = 'sending'",
                (list(dict.fromkeys(keys)), owner),
            )

    def heartbeat(self, owner: str, ttl_s: float) -> None:
        """`owner` is alive for `ttl_s` more seconds (its claims are not taken over)."""
        with self._pool.connection() as conn:
            conn.execute(
                "INSERT INTO replicas (holder, alive_until) "
                "VALUES (%s, now() + make_interval(secs => %s)) "
                "ON CONFLICT (holder) DO UPDATE SET alive_until = excluded.alive_until",
                (owner, ttl_s),
            )

    def retire(self, owner: str) -> None:
        """`owner` stopped (gracefully): forget its heartbeat, and long-dead ones."""
        with self._pool.connection() as conn:
            conn.execute(
                "DELETE FROM replicas WHERE holder = %s OR alive_until < now() - interval '1 day'",
                (owner,),
            )

    def orphans(self, owner: str, limit: int = 100) -> list[tuple[str, dict[str, Any], bool]]:
        """Take over (for `owner`, as 'claimed') the oldest unanswered claims of dead
        replicas that kept the event's body; (key, body, maybe sent) of each, to be answered
        now ("maybe sent": the dead owner was sending the reply; ask Slack first)."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                "WITH picked AS (SELECT s.key, s.state FROM slack_events s "
                "WHERE s.state <> 'answered' AND s.payload IS NOT NULL "
                "AND s.owner IS DISTINCT FROM %s AND NOT "
                + _OWNER_ALIVE.format(row="s")
                + " ORDER BY s.at LIMIT %s FOR UPDATE SKIP LOCKED) "
                "UPDATE slack_events AS e SET owner = %s, state = 'claimed' FROM picked "
                "WHERE e.key = picked.key RETURNING e.key, e.payload, picked.state",
                (owner, limit, owner),
            ).fetchall()
        return [(str(key), dict(payload), state == "sending") for key, payload, state in rows]

    def recent(self, limit: int) -> list[tuple[str, float]]:
        """The most recent settled keys (an unanswered claim is asked of the database)."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT key, at FROM slack_events WHERE state = 'answered' "
                "ORDER BY at DESC, key DESC LIMIT %s",
                (limit,),
            ).fetchall()
        return [(str(key), float(at)) for key, at in reversed(rows)]

    def record(self, claimed: Iterable[tuple[str, float]], *, keep: int) -> None:
        rows = [(str(key), float(at)) for key, at in claimed]
        if not rows:
            return
        with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO slack_events (key, at) VALUES (%s, %s) "
                "ON CONFLICT (key) DO UPDATE SET at = excluded.at",
                rows,
            )
            cursor.execute("SELECT count(*) FROM slack_events")
            found = cursor.fetchone()
        if found and int(found[0]) > keep * 1.2:
            self._prune(keep)

    def _prune(self, keep: int) -> None:
        with self._pool.connection() as conn:
            conn.execute(
                "DELETE FROM slack_events WHERE state = 'answered' AND at < (SELECT at FROM "
                "slack_events ORDER BY at DESC OFFSET %s LIMIT 1)",
                (keep,),
            )


class _Taken(Exception):
    """Rolls back a multi-key claim that found one key taken."""
