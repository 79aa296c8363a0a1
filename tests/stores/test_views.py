"""Read-only views kept per process (the case book every dynamic decision reads, the ticket
index by requester): parsed once, read again after any process's write, never stale.

Each opener below is a separate `open_stores`, with its own caches, as a second process has;
one test runs the writer as a real second process.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from brain.dynamic.cases import CaseBook
from core.config import Settings
from core.stores import Stores, open_stores
from core.stores.records import Ticket
from core.stores.tinydb import storage
from core.stores.tinydb.collection import TinyCollection
from core.stores.tinydb.journal import CHECKPOINT_AT
from core.vector_text import encode_vector


def _case(number: int, user: str = "u1") -> dict[str, object]:
    vector = np.random.default_rng(number).standard_normal(384).astype(np.float32)
    return {
        "case_id": f"c{number:05d}",
        "text": f"unknown problem {number}",
        "user": user,
        "vector": encode_vector(vector),
        "plan": None,
        "confirmed_by": [],
        "rejected_by": [],
        "created_at": f"2026-12-05T00:{number // 60 % 60:02d}:{number % 60:02d}",
    }


def _by_id(rows: object) -> dict[str, dict[str, object]]:
    return {str(row["case_id"]): dict(row) for row in rows}  # type: ignore[attr-defined]


@pytest.fixture
def openers(tmp_path: Path) -> tuple[Stores, Stores]:
    settings = Settings(home=tmp_path / "home")
    reader, writer = open_stores(settings), open_stores(settings)
    yield reader, writer
    reader.close()
    writer.close()


def test_a_view_sees_every_write_of_another_opener_and_its_checkpoints(
    openers: tuple[Stores, Stores],
) -> None:
    reader, writer = openers
    assert list(reader.cases.view()) == []
    for number in range(CHECKPOINT_AT + 40):  # past a background checkpoint
        writer.cases.insert(_case(number))
        if number % 37 == 0:
            assert _by_id(reader.cases.view()) == _by_id(reader.cases.all())
    writer.cases.modify("c00003", lambda case: case["confirmed_by"].append("u9"))
    writer.cases.remove(["c00004"])
    writer.cases.flush()  # the buckets change, the journal is cut
    writer.cases.modify("c00005", lambda case: case["rejected_by"].append("u8"))

    seen = _by_id(reader.cases.view())
    assert seen == _by_id(writer.cases.all())
    assert len(seen) == CHECKPOINT_AT + 39
    assert seen["c00003"]["confirmed_by"] == ["u9"]
    assert "c00004" not in seen
    assert seen["c00005"]["rejected_by"] == ["u8"]


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The bucket files parsed from now on (reading a file's text to compare it is not parsing
    it)."""
    parsed: list[Path] = []
    original = storage.AtomicJSONStorage.parse

    def counted(self: storage.AtomicJSONStorage, raw: str) -> object:
        parsed.append(self.path)
        return original(self, raw)

    monkeypatch.setattr(storage.AtomicJSONStorage, "parse", counted)
    return parsed


def test_a_view_after_a_checkpoint_parses_only_the_buckets_it_changed(
    openers: tuple[Stores, Stores], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A case book of hundreds of buckets: one new case changes one bucket, and the next view
    parsed every bucket again (a dynamic decision's p99 grew with the book)."""
    reader, writer = openers
    for number in range(300):
        writer.cases.insert(_case(number))
    writer.cases.flush()
    before = _by_id(reader.cases.view())
    buckets = len(list(writer.cases.base.path.glob("*.json")))  # type: ignore[attr-defined]
    parsed = _count_parses(monkeypatch)
    writer.cases.insert(_case(777))
    writer.cases.modify("c00003", lambda case: case["confirmed_by"].append("u9"))
    writer.cases.flush()
    seen = _by_id(reader.cases.view())
    assert 1 <= len(set(parsed)) <= 2 < buckets  # the new case's bucket and c00003's
    assert set(seen) == set(before) | {"c00777"}
    assert seen["c00003"]["confirmed_by"] == ["u9"]
    assert seen == _by_id(writer.cases.all())


def test_a_second_view_without_a_write_reads_no_bucket_file(
    openers: tuple[Stores, Stores], monkeypatch: pytest.MonkeyPatch
) -> None:
    reader, writer = openers
    for number in range(30):
        writer.cases.insert(_case(number))
    writer.cases.flush()
    first = reader.cases.view()
    reads = _count_parses(monkeypatch)
    again = reader.cases.view()
    assert reads == []
    assert again is first  # the same documents, not a copy

    writer.cases.insert(_case(99))  # a journal line: still no bucket read
    assert "c00099" in _by_id(reader.cases.view())
    assert reads == []
    writer.cases.flush()
    assert "c00099" in _by_id(reader.cases.view())
    assert reads  # the checkpoint changed the buckets: read again, once


def test_a_view_while_a_checkpoint_writes_the_buckets_reads_no_bucket_file(
    openers: tuple[Stores, Stores], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkpoint writes a bucket file at a time, and each file was a new version of the
    collection: every view read while it ran (a message's ticket or case look-up, for the
    seconds a checkpoint into hundreds of buckets takes) read every bucket file again. The
    lines stay in the journal until every bucket is written, so the view read before holds."""
    reader, writer = openers
    for number in range(60):
        writer.cases.insert(_case(number))
    writer.cases.flush()
    before = reader.cases.view()
    for number in range(60, 120):
        writer.cases.insert(_case(number))
    listed: list[int] = []
    during: list[dict[str, dict[str, object]]] = []
    real_list = TinyCollection._file_names
    real_write = storage.AtomicJSONStorage.write

    def listing(collection: TinyCollection) -> list[str]:
        listed.append(1)
        return real_list(collection)

    def write_then_read(
        self: storage.AtomicJSONStorage, data: dict[str, Any], *, sync_folder: bool = True
    ) -> None:
        real_write(self, data, sync_folder=sync_folder)
        if len(during) < 3:  # a view between the checkpoint's bucket files
            during.append(_by_id(reader.cases.view()))

    monkeypatch.setattr(TinyCollection, "_file_names", listing)
    monkeypatch.setattr(storage.AtomicJSONStorage, "write", write_then_read)
    writer.cases.flush()
    monkeypatch.undo()

    assert len(during) == 3
    assert listed == []  # no view listed (and read) the bucket files during the checkpoint
    assert all(set(seen) == {f"c{n:05d}" for n in range(120)} for seen in during)
    after = _by_id(reader.cases.view())  # after it: read again
    assert reader.cases.view() is not before
    assert after == _by_id(writer.cases.all())
    assert len(after) == 120


def test_similar_cases_after_another_process_wrote_and_folded(tmp_path: Path) -> None:
    """A second process inserts cases and folds them into the buckets while this one holds
    its view: the next look-up finds them."""
    home = tmp_path / "home"
    stores = open_stores(Settings(home=home))
    book = CaseBook(stores.cases)
    stores.cases.insert(_case(1))
    probe = np.random.default_rng(2).standard_normal(384).astype(np.float32)
    assert [s.case["case_id"] for s in book.similar("x", probe, minimum=0.99)] == []
    worker = (
        "import sys, numpy as np\n"
        "from pathlib import Path\n"
        "from core.config import Settings\n"
        "from core.stores import open_stores\n"
        "from tests.stores.test_views import _case\n"
        "stores = open_stores(Settings(home=Path(sys.argv[1])))\n"
        "for n in range(2, 6):\n"
        "    stores.cases.insert(_case(n))\n"
        "stores.cases.modify('c00001', lambda c: c['confirmed_by'].append('u7'))\n"
        "stores.cases.flush()\n"
        "stores.close()\n"
    )
    repo = str(Path(__file__).resolve().parents[2])
    subprocess.run(
        [sys.executable, "-c", worker, str(home)],
        check=True,
        env={"PYTHONPATH": repo, "PATH": "/usr/bin:/bin"},
        timeout=120,
    )
    found = book.similar("x", probe, minimum=0.99)
    assert [s.case["case_id"] for s in found] == ["c00002"]
    assert _by_id(book.cases())["c00001"]["confirmed_by"] == ["u7"]
    stores.close()


def _ticket(number: int, requester: str) -> Ticket:
    return Ticket(id=f"INC-{number:06d}", kind="incident", title="vpn", requester=requester)


def test_a_requesters_tickets_follow_another_openers_writes(
    openers: tuple[Stores, Stores],
) -> None:
    reader, writer = openers
    for number in range(1, 7):
        writer.tickets.insert(_ticket(number, f"U{number % 3}"))
    assert sorted(t.id for t in reader.tickets.by_requester("U1")) == ["INC-000001", "INC-000004"]

    writer.tickets.insert(_ticket(7, "U1"))
    writer.tickets.modify("INC-000001", lambda t: setattr(t, "requester", "U2"))
    writer.tickets.flush()
    writer.tickets.insert(_ticket(8, "U1"))

    assert sorted(t.id for t in reader.tickets.by_requester("U1")) == [
        "INC-000004",
        "INC-000007",
        "INC-000008",
    ]
    assert "INC-000001" in {t.id for t in reader.tickets.by_requester("U2")}
    assert reader.tickets.by_requester("nobody") == []


def test_a_ticket_changed_by_its_reader_leaves_the_index_as_stored(
    openers: tuple[Stores, Stores],
) -> None:
    reader, writer = openers
    writer.tickets.insert(_ticket(1, "U1"))
    (mine,) = reader.tickets.by_requester("U1")
    mine.fields["note"] = "changed in memory only"
    mine.title = "changed"
    (again,) = reader.tickets.by_requester("U1")
    assert again.title == "vpn" and "note" not in again.fields


def test_on_every_backend_the_view_holds_what_all_holds(stores: Stores) -> None:
    for number in range(5):
        stores.cases.insert(_case(number))
    stores.cases.modify("c00001", lambda case: case["confirmed_by"].append("u2"))
    stores.cases.remove(["c00002"])
    stores.tickets.insert(_ticket(1, "U1"))
    assert _by_id(stores.cases.view()) == _by_id(stores.cases.all())
    assert [t.id for t in stores.tickets.by_requester("U1")] == ["INC-000001"]


def test_a_forgotten_users_case_vectors_leave_the_case_books_memory(
    openers: tuple[Stores, Stores],
) -> None:
    reader, writer = openers
    book = CaseBook(reader.cases)
    for number in range(6):
        writer.cases.insert(_case(number, user="gone" if number % 2 else "stays"))
    probe = np.random.default_rng(0).standard_normal(384).astype(np.float32)
    book.similar("x", probe, minimum=0.0)
    CaseBook(writer.cases).forget_user("gone")  # another process forgets

    found = book.similar("x", probe, minimum=0.0)
    assert {s.case["user"] for s in found} == {"stays"}
    assert sorted(book._decoded) == ["c00000", "c00002", "c00004"]


def test_a_thing_named_by_tickets_is_found_over_the_view_as_stored(
    openers: tuple[Stores, Stores],
) -> None:
    """The look-up of an asset tag reads the tickets that name it from the view (only they
    are copied): a field equal to it or a title containing it, whatever the case, and a
    ticket written by another process is seen."""
    reader, writer = openers
    tagged = _ticket(1, "U1")
    tagged.fields["asset_tag"] = "LT-20977"
    writer.tickets.insert(tagged)
    titled = _ticket(2, "U2")
    titled.title = "screen of lt-20977 flickers"
    writer.tickets.insert(titled)
    writer.tickets.insert(_ticket(3, "U1"))
    assert sorted(t.id for t in reader.tickets.mentioning(" lt-20977")) == [
        "INC-000001",
        "INC-000002",
    ]
    (found,) = [t for t in reader.tickets.mentioning("LT-20977") if t.id == "INC-000001"]
    found.fields["asset_tag"] = "changed in memory only"
    assert len(reader.tickets.mentioning("LT-20977")) == 2
    assert reader.tickets.mentioning("web-03") == []
