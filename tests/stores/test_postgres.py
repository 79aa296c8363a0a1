"""What the PostgreSQL backend adds for several replicas: versioned migrations (an upgrade
from version 1 keeps the records), claims atomic across processes, per-key locks, leases and
change counters. The shared contract (test_contract.py) runs on it as well."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from core.config import Settings
from core.errors import ConfigError
from core.stores import open_stores
from core.stores.lesson import Lesson
from core.stores.postgres.database import close_pool, drop_schema, migrate, migrations
from core.stores.protocols import EventClaims, Versioned
from core.stores.records import Ticket
from tests.pg_server import fresh_schema


@pytest.fixture
def schema(postgres_server: str) -> Iterator[str]:
    name = fresh_schema()
    yield name
    close_pool(postgres_server, name)
    drop_schema(postgres_server, name)


def _settings(url: str, schema: str, tmp_path: object) -> Settings:
    return Settings.model_validate(
        {
            "home": str(tmp_path),
            "storage": {"backend": "postgres", "database_url": url, "database_schema": schema},
        }
    )


def test_postgres_needs_a_database_url(tmp_path: object) -> None:
    """The backend states what it needs when the stores open; the configuration names no
    backend (a plug-in backend's needs are its own)."""
    settings = Settings.model_validate({"home": str(tmp_path), "storage": {"backend": "postgres"}})
    with pytest.raises(ConfigError, match="BRAIN_DATABASE_URL"):
        open_stores(settings)


def test_an_upgrade_from_version_one_keeps_every_record(
    postgres_server: str, schema: str, tmp_path: object
) -> None:
    assert [m.version for m in migrations()][:2] == [1, 2]
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        assert migrate(conn, schema, upto=1) == [1]
        conn.execute(f"SET search_path TO {schema}")
        # What version 1 wrote: the event ledger as generic documents, a ticket.
        conn.execute(
            "INSERT INTO records (collection, key, doc) VALUES "
            "('slack/events', 'event:Ev1', '{\"key\": \"event:Ev1\", \"at\": 5.0}'), "
            "('tickets', 'INC-1', "
            '\'{"id": "INC-1", "kind": "incident", "title": "vpn", "requester": "U1"}\')'
        )

    stores = open_stores(_settings(postgres_server, schema, tmp_path))  # migrates to the newest
    try:
        assert stores.events.recent(10) == [("event:Ev1", 5.0)]
        assert isinstance(stores.events, EventClaims)
        assert not stores.events.claim(["event:Ev1"], 6.0)  # still taken after the upgrade
        assert stores.tickets.get("INC-1") == Ticket("INC-1", "incident", "vpn", "U1")
    finally:
        stores.close()
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        assert migrate(conn, schema) == []  # nothing left to apply
        rows = conn.execute(f"SELECT version FROM {schema}.schema_migrations ORDER BY 1")
        assert [row[0] for row in rows] == [m.version for m in migrations()]


def test_replicas_starting_together_migrate_once(postgres_server: str, schema: str) -> None:
    def start(_: int) -> list[int]:
        with psycopg.connect(postgres_server, autocommit=True) as conn:
            return migrate(conn, schema)

    with ThreadPoolExecutor(max_workers=4) as pool:
        applied = list(pool.map(start, range(4)))
    assert sorted(v for versions in applied for v in versions) == [m.version for m in migrations()]


def test_an_event_is_claimed_by_exactly_one_of_many_racing_processes(
    postgres_settings: Settings,
) -> None:
    replicas = [open_stores(postgres_settings) for _ in range(3)]
    try:
        ledgers = [stores.events for stores in replicas]
        assert all(isinstance(ledger, EventClaims) for ledger in ledgers)
        keys = [f"event:Ev{i}" for i in range(40)]

        def race(index: int) -> list[str]:
            ledger = ledgers[index % 3]
            assert isinstance(ledger, EventClaims)
            return [key for key in keys if ledger.claim([key], time.time())]

        with ThreadPoolExecutor(max_workers=6) as pool:
            won = [key for keys_won in pool.map(race, range(6)) for key in keys_won]
        assert sorted(won) == sorted(keys)  # every key once, none twice
        # A claim of several keys takes all of them or none.
        first = ledgers[0]
        assert isinstance(first, EventClaims)
        assert not first.claim(["message:C:1", "event:Ev3"], time.time())
        assert first.claim(["message:C:1"], time.time())
    finally:
        for stores in replicas:
            stores.close()


def test_one_key_is_held_by_one_block_at_a_time(postgres_settings: Settings) -> None:
    stores = open_stores(postgres_settings)
    inside = 0
    most = 0
    guard = threading.Lock()

    def decide(_: int) -> None:
        nonlocal inside, most
        with stores.coordinator.serialized("thread:C1:1.0"):
            with guard:
                inside += 1
                most = max(most, inside)
            time.sleep(0.01)
            with guard:
                inside -= 1

    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(decide, range(12)))
        assert most == 1
    finally:
        stores.close()


def test_a_lease_has_one_holder_until_it_expires(postgres_settings: Settings) -> None:
    stores = open_stores(postgres_settings)
    try:
        lease = stores.coordinator.lease
        assert lease("reescalate", "replica-1", 30.0)
        assert lease("reescalate", "replica-1", 30.0)  # renewed
        assert not lease("reescalate", "replica-2", 30.0)
        assert lease("other-job", "replica-2", 30.0)
        assert lease("short", "replica-1", 0.01)
        time.sleep(0.05)
        assert lease("short", "replica-2", 30.0)  # expired: taken over
        stores.ping()
    finally:
        stores.close()


def test_a_write_through_one_replica_changes_the_version_the_other_sees(
    postgres_settings: Settings,
) -> None:
    first, second = open_stores(postgres_settings), open_stores(postgres_settings)
    try:
        assert isinstance(second.lessons, Versioned)
        before = second.lessons.version()
        lesson = Lesson("m1", "access", 0.1, "confirmation", "vpn", "d-1", "U1", "2026-12-01")
        first.lessons.put_many([lesson])
        assert second.lessons.version() != before
        assert second.lessons.all() == [lesson]
    finally:
        first.close()
        second.close()


def test_text_with_a_nul_character_is_stored(
    postgres_settings: Settings,
) -> None:
    stores = open_stores(postgres_settings)
    try:
        ticket = Ticket("INC-2", "incident", "bad\x00byte 中文", "U1")
        stores.tickets.insert(ticket)
        assert stores.tickets.get("INC-2") == ticket
    finally:
        stores.close()
