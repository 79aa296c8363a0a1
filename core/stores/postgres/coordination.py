"""What replicas coordinate through (besides the event ledger, `ledger.py`): per-key locks
(a thread's messages decided one at a time across replicas) and leases (one replica runs the
re-escalation pass)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from core.stores.postgres.collection import Pool
from core.stores.postgres.database import lock_key


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

    def remove_prefix(self, prefix: str) -> int:
        pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        with self._pool.connection() as conn:
            cursor = conn.execute("DELETE FROM artifacts WHERE name LIKE %s", (pattern,))
            return cursor.rowcount
