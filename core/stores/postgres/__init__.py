"""The PostgreSQL backend: every record store on one database shared by several replicas.

`[storage] backend = "postgres"` with `database_url` (`BRAIN_DATABASE_URL`) selects it. The
schema is versioned SQL (`migrations/NNN_*.sql`), applied when a process first opens the
database, under an advisory lock. Only this package imports psycopg (an import-linter
contract keeps it so).
"""

from core.config import Settings
from core.errors import ConfigError
from core.stores.backends import BackendKind, Capabilities
from core.stores.postgres.backend import PostgresBackend


def _open(settings: Settings) -> PostgresBackend:
    storage = settings.storage
    if storage.database_url is None:  # what the backend needs is its own check, not config's
        raise ConfigError("backend 'postgres' needs database_url (BRAIN_DATABASE_URL)")
    return PostgresBackend(
        storage.database_url.get_secret_value(),
        schema=storage.database_schema,
        pool_size=storage.pool_size,
    )


#: Its registration (`core.stores.backends`): everything shared by the replicas.
KIND = BackendKind(
    "postgres",
    Capabilities(
        events=True, sessions=True, coordinator=True, artifacts=True, links=True, shared=True
    ),
    _open,
)

__all__ = ["KIND", "PostgresBackend"]
