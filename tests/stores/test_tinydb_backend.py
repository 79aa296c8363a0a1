"""What only the TinyDB backend has to do: clean after crashes and read older homes."""

from __future__ import annotations

import json
from pathlib import Path

from controllers.tickets import TicketStore
from core.config import Settings
from core.stores import open_stores
from core.stores.records import Alert, Ticket
from core.stores.tinydb.collection import bucket_name


def test_temporary_files_of_interrupted_writes_are_removed_on_open(tmp_path: Path) -> None:
    home = tmp_path / "home"
    stores = open_stores(Settings(home=home))
    stores.tickets.insert(Ticket("INC-000001", "incident", "vpn", "U1"))
    stores.alerts.save(
        Alert("a1", "d-1", "U1", "db down", "high", "", None, "C9", "C1", "1.1", 1, 1)
    )
    stores.close()
    bucket = bucket_name("INC-000001")
    leftovers = [
        home / "tickets" / f".{bucket}.json.k3j2l1",  # a ticket write killed before its rename
        home / "slack" / ".alerts.json.x8y7z6",
        home / "decisions" / "shards" / ".20260101-000.json.abc123",
    ]
    for leftover in leftovers:
        leftover.parent.mkdir(parents=True, exist_ok=True)
        leftover.write_text('{"tickets": {"1": {"id": "INC-0', encoding="utf-8")
    unrelated = home / "slack" / ".messages.json.keep12"  # another store's, not opened below

    unrelated.write_text("{}", encoding="utf-8")
    reopened = open_stores(Settings(home=home))
    assert reopened.tickets.get("INC-000001") == Ticket("INC-000001", "incident", "vpn", "U1")
    assert reopened.alerts.get("a1") is not None
    reopened.decisions.session_ids("C:u")
    reopened.close()

    assert [p for p in leftovers if p.exists()] == []
    assert unrelated.exists()


def test_a_home_with_one_file_tickets_and_memory_is_moved_to_shards(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    ticket = {"id": "INC-000001", "kind": "incident", "title": "vpn", "requester": "U1"}
    (home / "tickets.json").write_text(
        json.dumps({"tickets": {"1": ticket}, "meta": {"1": {"key": "sequence", "value": 1}}}),
        encoding="utf-8",
    )
    lesson = {"memory_id": "m1", "controller": "access", "weight": 0.1, "decision_id": "d-1"}
    (home / "memory.json").write_text(json.dumps({"memories": {"1": lesson}}), encoding="utf-8")

    settings = Settings(home=home)
    tickets = TicketStore.open(settings)
    assert tickets.find("INC-000001").title == "vpn"
    assert tickets.create("incident", title="next", requester="U1").id == "INC-000002"
    assert open_stores(settings).lessons.documents.all() == [lesson]
    assert not (home / "tickets.json").exists()
    assert (home / "tickets.json.migrated").exists()
