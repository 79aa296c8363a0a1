"""The local ticket store: typed requests, ids, lifecycle, persistence, honest lookups."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from controllers.ids import find_ticket_ids, is_ticket_id
from controllers.tickets import TicketError, TicketNotFound, TicketStateError, TicketStore
from core.config import Settings


@pytest.fixture
def store(tmp_path: Path) -> TicketStore:
    return TicketStore.open(Settings(home=tmp_path))


def test_created_requests_get_typed_local_ids(store: TicketStore) -> None:
    incident = store.create("incident", title="VPN error 691", requester="U1")
    access = store.create("access", title="Jira admin", requester="U1", fields={"system": "Jira"})
    change = store.create("change", title="deploy payments-api", requester="U2")
    assert [incident.id[:4], access.id[:4], change.id[:4]] == ["INC-", "REQ-", "CHG-"]
    assert len({incident.id, access.id, change.id}) == 3
    assert all(is_ticket_id(t.id) for t in (incident, access, change))
    assert store.get(access.id.lower()) == access  # ids are case-insensitive
    assert store.find(access.id).fields == {"system": "Jira"}


def test_external_ids_are_kept_and_duplicates_refused(store: TicketStore) -> None:
    ticket = store.create(
        "ticket", title="disbursement", requester="U1", ticket_id="#2025060300011279027"
    )
    assert ticket.id == "2025060300011279027"
    with pytest.raises(TicketError, match="already exists"):
        store.create("ticket", title="again", requester="U1", ticket_id="2025060300011279027")
    with pytest.raises(TicketError, match="not a valid ticket id"):
        store.create("ticket", title="x", requester="U1", ticket_id="db-01")
    with pytest.raises(TicketError, match="unknown ticket kind"):
        store.create("fax", title="x", requester="U1")
    with pytest.raises(TicketError, match="needs a title"):
        store.create("ticket", title="   ", requester="U1")


def test_a_local_id_an_imported_ticket_holds_is_skipped(store: TicketStore) -> None:
    imported = store.create(
        "incident", title="from the old desk", requester="U9", ticket_id="INC-000001"
    )
    created = store.create("incident", title="VPN error 691", requester="U1")
    assert created.id == "INC-000002"
    assert store.find("INC-000001") == imported and store.find(created.id) == created
    assert store.create("access", title="Jira admin", requester="U1").id == "REQ-000003"


def test_unknown_ids_are_not_found_honestly(store: TicketStore) -> None:
    assert store.get("INC-123456") is None
    with pytest.raises(TicketNotFound, match="INC-123456 was not found"):
        store.find("INC-123456")
    with pytest.raises(TicketNotFound):
        store.urge("2025060300011279027", by="U1")
    assert store.all() == []


def test_lifecycle_comment_urge_take_close_reopen(store: TicketStore) -> None:
    ticket = store.create("incident", title="printer jam", requester="U1")
    store.comment(ticket.id, author="U2", text="on my way")
    store.urge(ticket.id, by="U1")
    urged = store.urge(ticket.id, by="U1")
    assert urged.urge_count == 2 and len(urged.urged_at) == 2
    taken = store.take(ticket.id, by="U2")
    assert (taken.status, taken.assignee) == ("in_progress", "U2")
    closed = store.close(ticket.id, by="U2", reason="fixed the roller")
    assert closed.status == "closed"
    with pytest.raises(TicketStateError, match="already closed"):
        store.close(ticket.id, by="U2")
    with pytest.raises(TicketStateError, match="reopen it instead"):
        store.urge(ticket.id, by="U1")
    reopened = store.reopen(ticket.id, by="U1", reason="jams again")
    assert reopened.status == "open"
    with pytest.raises(TicketStateError, match="not closed"):
        store.reopen(ticket.id, by="U1")
    events = [h["event"] for h in store.find(ticket.id).history]
    assert events == [
        "created", "commented", "urged", "urged", "processing", "closed", "reopened"
    ]  # fmt: skip
    assert store.find(ticket.id).comments[0]["text"] == "on my way"


def test_tickets_survive_reopening_the_file(tmp_path: Path) -> None:
    first = TicketStore.open(Settings(home=tmp_path))
    made = first.create("change", title="scale order-service", requester="U9")
    first.release()
    second = TicketStore.open(Settings(home=tmp_path))
    assert second.find(made.id).title == "scale order-service"
    assert second.create("change", title="next", requester="U9").id != made.id


def test_list_by_requester_and_import(store: TicketStore) -> None:
    store.import_records(
        [
            {"id": "2025060300011279027", "kind": "ticket", "title": "a", "requester": "U1"},
            {"id": "INC-000777", "kind": "incident", "title": "b", "requester": "U2",
             "status": "closed"},
        ]
    )  # fmt: skip
    store.create("access", title="c", requester="U1")
    assert {t.title for t in store.list_by_requester("U1")} == {"a", "c"}
    assert [t.id for t in store.list_by_requester("U2", open_only=True)] == []
    with pytest.raises(TicketError, match="lacks requester"):
        store.import_records([{"id": "INC-000778", "kind": "incident", "title": "x"}])


def test_concurrent_creates_get_distinct_ids(store: TicketStore) -> None:
    ids: list[str] = []

    def work() -> None:
        for _ in range(10):
            ids.append(store.create("incident", title="load", requester="U1").id)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(ids)) == 40 == len(store.all())


def test_ticket_ids_in_free_text() -> None:
    text = "VPN 连不上，工单 #10086, see also inc-000231 and 2025060300011279027 on db-01"
    assert find_ticket_ids(text) == ["10086", "INC-000231", "2025060300011279027"]
    assert find_ticket_ids("CPU 97% on db-01 since 10:00") == []
    assert find_ticket_ids("see JIRA-4521") == ["JIRA-4521"]
