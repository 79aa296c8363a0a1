"""A `Collection` as rows of one table, `records (collection, key, doc)`.

Each call is one transaction committed before it returns. `modify` reads the row with
`SELECT ... FOR UPDATE`, so two replicas changing the same document queue behind each other
and neither loses the other's change. Every write also bumps the collection's counter in
`changes` (same transaction), which is how another replica notices a change cheaply.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from psycopg import Connection
from psycopg.rows import TupleRow
from psycopg_pool import ConnectionPool

from core.stores.protocols import Document, KeyOf

Pool = ConnectionPool[Connection[TupleRow]]

_BUMP = (
    "INSERT INTO changes (collection, version) VALUES (%s, 1) "
    "ON CONFLICT (collection) DO UPDATE SET version = changes.version + 1"
)


def dumps(values: Mapping[str, Any]) -> str:
    """JSON text as the other backends write it (control characters escaped, so a NUL in a
    message is stored, not refused)."""
    return json.dumps(values, ensure_ascii=False, default=str)


def loaded(value: Any) -> Document:
    """A `json` column's value as a fresh dict (psycopg parses `json` already)."""
    if isinstance(value, str | bytes):
        value = json.loads(value)
    return dict(value)


class PgCollection:
    """Keyed JSON documents of one named collection."""

    def __init__(self, pool: Pool, name: str, *, key: KeyOf) -> None:
        self._pool = pool
        self.name = name
        self._key = key

    def get(self, key: str) -> Document | None:
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT doc FROM records WHERE collection = %s AND key = %s", (self.name, key)
            ).fetchone()
        return None if row is None else loaded(row[0])

    def all(self) -> list[Document]:
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT doc FROM records WHERE collection = %s ORDER BY key", (self.name,)
            ).fetchall()
        return [loaded(row[0]) for row in rows]

    def view(self) -> list[Document]:
        return self.all()

    def put_many(self, documents: Iterable[Mapping[str, Any]]) -> None:
        rows = [(self.name, self._key(doc), dumps(doc)) for doc in documents]
        if not rows:
            return
        with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO records (collection, key, doc) VALUES (%s, %s, %s::json) "
                "ON CONFLICT (collection, key) DO UPDATE SET doc = excluded.doc",
                rows,
            )
            cursor.execute(_BUMP, (self.name,))

    def insert(self, document: Mapping[str, Any]) -> bool:
        with self._pool.connection() as conn, conn.transaction():
            row = conn.execute(
                "INSERT INTO records (collection, key, doc) VALUES (%s, %s, %s::json) "
                "ON CONFLICT (collection, key) DO NOTHING RETURNING key",
                (self.name, self._key(document), dumps(document)),
            ).fetchone()
            if row is not None:
                conn.execute(_BUMP, (self.name,))
        return row is not None

    def modify(self, key: str, change: Callable[[Document], None]) -> Document | None:
        with self._pool.connection() as conn, conn.transaction():
            row = conn.execute(
                "SELECT doc FROM records WHERE collection = %s AND key = %s FOR UPDATE",
                (self.name, key),
            ).fetchone()
            if row is None:
                return None
            document = loaded(row[0])
            change(document)  # an exception rolls the transaction back
            conn.execute(
                "UPDATE records SET doc = %s::json WHERE collection = %s AND key = %s",
                (dumps(document), self.name, key),
            )
            conn.execute(_BUMP, (self.name,))
        return loaded(dumps(document))

    def remove(self, keys: Iterable[str]) -> None:
        wanted = [str(key) for key in keys]
        if not wanted:
            return
        with self._pool.connection() as conn, conn.transaction():
            conn.execute(
                "DELETE FROM records WHERE collection = %s AND key = ANY(%s)", (self.name, wanted)
            )
            conn.execute(_BUMP, (self.name,))

    def clear(self) -> None:
        with self._pool.connection() as conn, conn.transaction():
            conn.execute("DELETE FROM records WHERE collection = %s", (self.name,))
            conn.execute(_BUMP, (self.name,))

    def count(self) -> int:
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT count(*) FROM records WHERE collection = %s", (self.name,)
            ).fetchone()
        return int(row[0]) if row else 0

    def flush(self) -> None:
        return None

    def version(self) -> int:
        """A number that changes whenever any process writes this collection."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT version FROM changes WHERE collection = %s", (self.name,)
            ).fetchone()
        return int(row[0]) if row else 0
