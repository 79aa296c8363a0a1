"""The PostgreSQL backend: every record store on one database shared by several replicas.

`[storage] backend = "postgres"` with `database_url` (`BRAIN_DATABASE_URL`) selects it. The
schema is versioned SQL (`migrations/NNN_*.sql`), applied when a process first opens the
database, under an advisory lock. Only this package imports psycopg (an import-linter
contract keeps it so).
"""

from core.stores.postgres.backend import PostgresBackend

__all__ = ["PostgresBackend"]
