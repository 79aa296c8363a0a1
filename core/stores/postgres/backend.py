"""Every store on one PostgreSQL database (one schema), shared by any number of replicas."""

from __future__ import annotations

from core.stores.backends import BackendBase
from core.stores.kinds import field_key
from core.stores.postgres.collection import PgCollection
from core.stores.postgres.coordination import PgArtifacts, PgCoordinator
from core.stores.postgres.database import pool_for
from core.stores.postgres.decisions import PgDecisionStore
from core.stores.postgres.ledger import PgEventLedger
from core.stores.postgres.links import PgMessageLinks
from core.stores.protocols import KeyOf


class PostgresBackend(BackendBase):
    """Collections, the decision log, the event ledger and the coordinator on one pool."""

    name = "postgres"

    def __init__(self, url: str, *, schema: str = "brain", pool_size: int = 8) -> None:
        self.schema = schema
        self._pool = pool_for(url, schema, size=pool_size)

    def collection(
        self, name: str, *, key: KeyOf, table: str = "_default", sharded: bool = False
    ) -> PgCollection:
        return PgCollection(self._pool, name, key=key)

    def decisions(self) -> PgDecisionStore:
        return PgDecisionStore(self._pool)

    def events(self) -> PgEventLedger:
        """The Slack event ledger, with claims atomic across replicas."""
        return PgEventLedger(self._pool)

    def coordinator(self) -> PgCoordinator:
        """Advisory locks and leases on this database."""
        return PgCoordinator(self._pool, self.schema)

    def links(self) -> PgMessageLinks:
        """Slack message links, found by any replica."""
        return PgMessageLinks(self._pool)

    def sessions(self) -> PgCollection:
        """Conversation sessions (history, pending clarification), shared by the replicas."""
        return PgCollection(self._pool, "conversations", key=field_key("key"))

    def artifacts(self) -> PgArtifacts:
        """Fitted models shared by the replicas."""
        return PgArtifacts(self._pool)

    def close(self) -> None:
        return None  # the pool is the process's (core.stores.postgres.database)
