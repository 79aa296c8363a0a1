"""What replicas coordinate through: the Slack event ledger's atomic claim, per-key locks
(a thread's messages decided one at a time across replicas) and leases (one replica runs the
re-escalation pass)."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterable, Iterator, Sequence

from core.stores.postgres.collection import Pool
from core.stores.postgres.database import lock_key

#: Claims between two prunings of the ledger, and how many keys a pruning keeps.
PRUNE_EVERY = 1_000
PRUNE_KEEP = 100_000


class PgEventLedger:
    """Claimed Slack event keys in `slack_events`; a claim is one INSERT ... ON CONFLICT.

    Every `PRUNE_EVERY` claims (per process) the oldest keys beyond `PRUNE_KEEP` are deleted:
    Slack retries within minutes, so only the recent keys matter.
    """

    def __init__(self, pool: Pool, *, keep: int = PRUNE_KEEP) -> None:
        self._pool = pool
        self._keep = keep
        self._claims = itertools.count(1)

    def claim(self, keys: Sequence[str], at: float) -> bool:
        """Take every key, or none when any was taken before (by any replica)."""
        wanted = list(dict.fromkeys(keys))
        if not wanted:
            return True
        if next(self._claims) % PRUNE_EVERY == 0:
            self._prune(self._keep)
        with self._pool.connection() as conn:
            if len(wanted) == 1:  # the usual case: one statement, its own transaction
                row = conn.execute(
                    "INSERT INTO slack_events (key, at) VALUES (%s, %s) "
                    "ON CONFLICT (key) DO NOTHING RETURNING key",
                    (wanted[0], at),
                ).fetchone()
                return row is not None
            try:
                with conn.transaction():
                    rows = conn.execute(
                        "INSERT INTO slack_events (key, at) SELECT unnest(%s::text[]), %s "
                        "ON CONFLICT (key) DO NOTHING RETURNING key",
                        (wanted, at),
                    ).fetchall()
                    if len(rows) < len(wanted):
                        raise _Taken  # roll back the keys this call did insert
            except _Taken:
                return False
            return True

    def recent(self, limit: int) -> list[tuple[str, float]]:
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT key, at FROM slack_events ORDER BY at DESC, key DESC LIMIT %s", (limit,)
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
                "DELETE FROM slack_events WHERE at < (SELECT at FROM slack_events "
                "ORDER BY at DESC OFFSET %s LIMIT 1)",
                (keep,),
            )


class _Taken(Exception):
    """Rolls back a multi-key claim that found one key taken."""


class PgCoordinator:
    """Locks and leases shared by every process on the database."""

    def __init__(self, pool: Pool, schema: str) -> None:
        self._pool = pool
        self._schema = schema

    @contextlib.contextmanager
    def serialized(self, key: str) -> Iterator[None]:
        """Hold the advisory lock of `key` while the block runs, across every replica."""
        with self._pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key(self._schema, key),))
            yield

    def lease(self, name: str, holder: str, ttl_s: float) -> bool:
        """Take or renew the lease `name` for `holder`; False while another holder has it."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "INSERT INTO leases (name, holder, expires_at) "
                "VALUES (%s, %s, now() + make_interval(secs => %s)) "
                "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "
                "expires_at = excluded.expires_at "
                "WHERE leases.holder = excluded.holder OR leases.expires_at < now() "
                "RETURNING holder",
                (name, holder, ttl_s),
            ).fetchone()
        return row is not None

    def ping(self) -> None:
        """Raise unless the database answers."""
        with self._pool.connection() as conn:
            conn.execute("SELECT 1").fetchone()


class PgArtifacts:
    """Fitted models by name (`artifacts`), shared by every replica."""

    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    def get(self, name: str) -> bytes | None:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT data FROM artifacts WHERE name = %s", (name,)).fetchone()
        return None if row is None else bytes(row[0])

    def put(self, name: str, data: bytes) -> None:
        with self._pool.connection() as conn:
            conn.execute(
                "INSERT INTO artifacts (name, data) VALUES (%s, %s) "
                "ON CONFLICT (name) DO UPDATE SET data = excluded.data, created_at = now()",
                (name, data),
            )
