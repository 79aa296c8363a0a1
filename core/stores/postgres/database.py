"""One connection pool per (database, schema) in a process, and the schema migrations.

Every store of a process shares the pool of its database, so opening the stores five times
(the brain, the Slack adapter, a CLI command) costs connections once. The pool's connections
are in autocommit mode: each store call is its own short transaction (`conn.transaction()`),
committed before the call returns, which is the backends' "acknowledged = durable".

Migrations are the numbered SQL files in `migrations/`, applied in order, each in its own
transaction, under an advisory lock so that replicas starting together apply them once.
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import re
import threading
from dataclasses import dataclass
from importlib import resources

from psycopg import Connection, sql
from psycopg.rows import TupleRow
from psycopg_pool import ConnectionPool

log = logging.getLogger(__name__)

#: How long a caller waits for a free pooled connection before an error.
POOL_TIMEOUT_S = 30.0
_MIGRATION = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered SQL file."""

    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """The shipped migrations, oldest first."""
    folder = resources.files("core.stores.postgres").joinpath("migrations")
    found = []
    for item in folder.iterdir():
        match = _MIGRATION.match(item.name)
        if match:
            found.append(Migration(int(match.group(1)), item.name, item.read_text("utf-8")))
    return sorted(found, key=lambda m: m.version)


def lock_key(*parts: str) -> int:
    """A signed 64-bit advisory-lock key for a name (stable across processes and machines)."""
    digest = hashlib.blake2b("\x1f".join(parts).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def migrate(conn: Connection[TupleRow], schema: str, *, upto: int | None = None) -> list[int]:
    """Apply the migrations `schema` lacks (up to version `upto`); the versions applied.

    Held under a session advisory lock: a replica starting meanwhile waits, then finds
    nothing left to do.
    """
    key = lock_key("brain-migrate", schema)
    conn.execute("SELECT pg_advisory_lock(%s)", (key,))
    try:
        conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
        conn.execute(
            sql.SQL(
                "CREATE TABLE IF NOT EXISTS {}.schema_migrations (version int PRIMARY KEY, "
                "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            ).format(sql.Identifier(schema))
        )
        rows = conn.execute(
            sql.SQL("SELECT version FROM {}.schema_migrations").format(sql.Identifier(schema))
        ).fetchall()
        done = {int(row[0]) for row in rows}
        applied = []
        for migration in migrations():
            if migration.version in done or (upto is not None and migration.version > upto):
                continue
            with conn.transaction():
                conn.execute(sql.SQL("SET LOCAL search_path TO {}").format(sql.Identifier(schema)))
                conn.execute(migration.sql.encode("utf-8"))
                conn.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                    (migration.version, migration.name),
                )
            applied.append(migration.version)
            log.info("database schema %s: applied migration %s", schema, migration.name)
        return applied
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (key,))


def schema_version(conn: Connection[TupleRow], schema: str) -> int:
    """The newest migration applied to `schema` (0 when none)."""
    row = conn.execute(
        "SELECT to_regclass(%s) IS NOT NULL", (f"{schema}.schema_migrations",)
    ).fetchone()
    if not row or not row[0]:
        return 0
    found = conn.execute(
        sql.SQL("SELECT COALESCE(max(version), 0) FROM {}.schema_migrations").format(
            sql.Identifier(schema)
        )
    ).fetchone()
    return int(found[0]) if found else 0


_POOLS: dict[tuple[str, str], ConnectionPool[Connection[TupleRow]]] = {}
_GUARD = threading.Lock()


def pool_for(url: str, schema: str, *, size: int) -> ConnectionPool[Connection[TupleRow]]:
    """The process's pool for this database and schema, migrated on first use."""
    with _GUARD:
        found = _POOLS.get((url, schema))
        if found is not None and not found.closed:
            return found
        with Connection.connect(url, autocommit=True) as conn:
            migrate(conn, schema)
        pool: ConnectionPool[Connection[TupleRow]] = ConnectionPool(
            url,
            min_size=1,
            max_size=size,
            kwargs={"autocommit": True, "options": f"-c search_path={schema}"},
            timeout=POOL_TIMEOUT_S,
            name=f"brain-{schema}",
            open=True,
        )
        _POOLS[(url, schema)] = pool
        return pool


def close_pool(url: str, schema: str) -> None:
    """Close the process's pool of this database and schema, if open."""
    with _GUARD:
        pool = _POOLS.pop((url, schema), None)
    if pool is not None:
        pool.close()


def drop_schema(url: str, schema: str) -> None:
    """Delete a schema and everything in it (tests' throwaway schemas)."""
    with Connection.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def close_pools() -> None:
    """Close every pool of the process (at interpreter exit)."""
    with _GUARD:
        pools = list(_POOLS.values())
        _POOLS.clear()
    for pool in pools:
        pool.close()


atexit.register(close_pools)
