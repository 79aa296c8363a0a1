"""TinyDB's journal in front of sharded collections (`core.stores.tinydb.journaled`): a ticket
write is one fsynced line and rewrites no bucket however many tickets there are, every other
opener sees it at once, a checkpoint folds it into the buckets, and what a crash left (a
journal never folded, a line cut short) is read back."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from core.config import Settings, StorageConfig
from core.stores import open_backend, open_stores
from core.stores.kinds import TicketCollection, field_key
from core.stores.records import Ticket
from core.stores.tinydb.collection import bucket_name


def _tickets(home: Path) -> TicketCollection:
    tickets = open_stores(Settings(home=home, storage=StorageConfig(backend="tinydb"))).tickets
    assert isinstance(tickets, TicketCollection)
    return tickets


def _ticket(number: int, title: str = "", status: str = "open") -> Ticket:
    return Ticket(
        id=f"INC-{number:06d}",
        kind="incident",
        title=title or f"laptop {number}",
        requester="U1",
        status=status,
    )


def _close(ticket: Ticket) -> None:
    ticket.status = "closed"


def _buckets(home: Path) -> dict[str, int]:
    """Each bucket file of the tickets and when it was last replaced."""
    return {p.name: p.stat().st_mtime_ns for p in (home / "tickets").glob("*.json")}


def test_a_ticket_write_is_one_fsync_and_rewrites_no_bucket(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    tickets = _tickets(home)
    tickets.insert(_ticket(0))  # the first write creates the journal (and fsyncs its folder)
    tickets.flush()
    calls: list[int] = []
    real = os.fsync
    writer = threading.get_ident()

    def counted(fd: int) -> None:
        if threading.get_ident() == writer:  # not the other stores' background writers
            calls.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", counted)
    before = _buckets(home)

    assert tickets.insert(_ticket(1))
    changed = tickets.modify("INC-000000", _close)

    assert len(calls) == 2  # one line each; a bucket rewrite was two fsyncs (file, folder)
    assert _buckets(home) == before
    assert changed is not None and changed.status == "closed"
    assert tickets.get("INC-000000") == _ticket(0, status="closed")
    assert not tickets.insert(_ticket(1))  # known from its journal line alone


def test_other_openers_see_each_write_and_a_checkpoint_folds_them_in(tmp_path: Path) -> None:
    home = tmp_path / "home"
    writer, reader = _tickets(home), _tickets(home)
    writer.insert(_ticket(1))
    assert reader.modify("INC-000001", _close) is not None
    assert writer.get("INC-000001") == _ticket(1, status="closed")

    reader.flush()

    assert (home / "tickets.journal.jsonl").read_bytes() == b""
    assert sorted(ticket.id for ticket in writer.all()) == ["INC-000001"]
    assert writer.get("INC-000001") == _ticket(1, status="closed")
    assert _buckets(home)  # in a bucket file now


def test_a_journal_left_by_a_crash_is_read_and_a_torn_line_dropped(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _tickets(home).insert(_ticket(1))  # acknowledged, never folded: the process "crashed"
    journal = home / "tickets.journal.jsonl"
    with open(journal, "ab") as handle:
        handle.write(b'{"n": "x", "put": {"id": "INC-000002", "tit')  # cut short by a crash

    again = _tickets(home)
    assert again.get("INC-000001") == _ticket(1)
    assert again.get("INC-000002") is None
    assert again.insert(_ticket(3))  # appends after cutting the torn line off
    assert sorted(ticket.id for ticket in again.all()) == ["INC-000001", "INC-000003"]
    again.flush()
    assert sorted(ticket.id for ticket in _tickets(home).all()) == ["INC-000001", "INC-000003"]


def test_flush_leaves_no_earlier_version_of_a_changed_ticket_in_any_file(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    tickets = _tickets(home)
    tickets.insert(_ticket(1, title="my password is hunter2"))
    tickets.modify("INC-000001", lambda ticket: setattr(ticket, "title", "[forgotten]"))

    tickets.flush()

    holding = [p for p in home.rglob("*") if p.is_file() and b"hunter2" in p.read_bytes()]
    assert holding == []
    assert tickets.get("INC-000001") == _ticket(1, title="[forgotten]")


def test_a_checkpoint_fsyncs_each_bucket_once_and_the_folder_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    tickets = _tickets(home)
    for number in range(8):
        tickets.insert(_ticket(number))
    buckets = {bucket_name(f"INC-{number:06d}") for number in range(8)}
    calls: list[int] = []
    real = os.fsync

    def counted(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", counted)

    tickets.flush()

    assert len(_buckets(home)) == len(buckets)
    # each bucket file, the folder once for every rename, the journal's cut: the folder was
    # fsynced after each bucket before
    assert len(calls) == len(buckets) + 2


@pytest.mark.parametrize("value", ["INC-000007", "工单-7", 10086, 2.5, True, None, "tab\there"])
def test_an_existing_key_is_found_whatever_its_spelling_in_the_file(
    tmp_path: Path, value: object
) -> None:
    """`get` answers "absent" without parsing a bucket that does not spell the key: it must
    never do so for a document that is there (a second insert would then be accepted)."""
    backend = open_backend(Settings(home=tmp_path / "home", storage=StorageConfig()))
    cases = backend.collection("cases", key=field_key("case_id"), sharded=True)
    assert cases.insert({"case_id": value, "text": "first"})
    cases.flush()  # into its bucket file

    assert not cases.insert({"case_id": value, "text": "second"})
    assert cases.get(str(value)) == {"case_id": value, "text": "first"}
    assert cases.get(f"{value}-other") is None
