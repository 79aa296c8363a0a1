"""`brain tickets` (cli.tickets): import, list and show through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import main


def test_import_list_show_and_ask_the_ticket_desk(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "export.jsonl"
    source.write_text(
        "\n".join(
            json.dumps(record, ensure_ascii=False)
            for record in (
                {"id": "2025060300011279027", "kind": "ticket", "title": "放款未到账",
                 "requester": "U1", "fields": {"fund": "F-001"}},
                {"id": "INC0012345", "kind": "incident", "title": "VPN 691", "requester": "U2",
                 "status": "closed"},
            )
        ),
        encoding="utf-8",
    )  # fmt: skip
    assert main(["tickets", "import", str(source)]) == 0
    assert "imported 2 of 2 tickets" in capsys.readouterr().out

    assert main(["tickets", "list", "--json"]) == 0
    assert [t["id"] for t in json.loads(capsys.readouterr().out)] == ["2025060300011279027"]
    assert main(["tickets", "list", "--all"]) == 0
    assert "2 tickets" in capsys.readouterr().out

    assert main(["tickets", "show", "2025060300011279027"]) == 0
    out = capsys.readouterr().out
    assert "放款未到账" in out and "fund: F-001" in out

    assert main(["tickets", "show", "INC0099999"]) == 1
    assert "INC0099999 was not found" in capsys.readouterr().err

    # importing the same file again refuses the duplicates and says so
    assert main(["tickets", "import", str(source)]) == 1
    assert "already exists" in capsys.readouterr().err


def test_bad_import_files_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    assert main(["tickets", "import", str(broken)]) == 2
    assert "neither JSON nor JSON lines" in capsys.readouterr().err
    assert main(["tickets", "import", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    incomplete = tmp_path / "incomplete.json"
    incomplete.write_text('[{"id": "INC0000001", "kind": "incident"}]', encoding="utf-8")
    assert main(["tickets", "import", str(incomplete)]) == 1
    assert "lacks title, requester" in capsys.readouterr().err


def test_import_takes_every_documented_id_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The knowledge base's id kinds (19-digit settlement work orders, INC/REQ/SR records, chat
    references, change requests) import as the kind they name, or the kind their id says."""
    rows = [
        {"id": "2025060300011279027", "kind": "settlement_work_order", "title": "放款未到账"},
        {"id": "2025060400011279028", "kind": "work order", "title": "清算差错"},
        {"id": "INC0012345", "kind": "incident_ticket", "title": "VPN 691"},
        {"id": "REQ0001234", "kind": "request_ticket", "title": "Jira access"},
        {"id": "SR123456", "kind": "service_request", "title": "old request"},
        {"id": "#10086", "kind": "chat_ticket_ref", "title": "chat reference"},
        {"id": "CHG-44110", "kind": "change_request", "title": "release"},
        {"id": "CHG-4411", "title": "no kind: the id says change"},
        {"id": "RITM0012345", "title": "no kind: a requested item"},
    ]
    source = tmp_path / "export.json"
    source.write_text(
        json.dumps([dict(row, requester="U1") for row in rows], ensure_ascii=False),
        encoding="utf-8",
    )
    assert main(["tickets", "import", str(source)]) == 0
    assert f"imported {len(rows)} of {len(rows)} tickets" in capsys.readouterr().out
    assert main(["tickets", "list", "--all", "--json"]) == 0
    kinds = {t["id"]: t["kind"] for t in json.loads(capsys.readouterr().out)}
    assert kinds == {
        "2025060300011279027": "ticket",
        "2025060400011279028": "ticket",
        "INC0012345": "incident",
        "REQ0001234": "access",
        "SR123456": "ticket",
        "10086": "ticket",
        "CHG-44110": "change",
        "CHG-4411": "change",
        "RITM0012345": "access",
    }


def test_an_unknown_kind_is_still_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "export.json"
    source.write_text(
        '[{"id": "INC0000001", "kind": "banana", "title": "t", "requester": "U1"}]',
        encoding="utf-8",
    )
    assert main(["tickets", "import", str(source)]) == 1
    assert "unknown ticket kind 'banana'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv", [["tickets", "list", "--all"], ["tickets", "show", "INC0000001"], ["stats"]]
)
def test_a_ticket_command_closes_the_stores_it_opened(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command that reads the tickets closes the stores it opened, so a background fold of
    the ticket journal that the read started is waited for: it wrote into the home after the
    command had returned (seen under a home removed just after, in-process)."""
    from core.stores.factory import Stores

    opened: list[int] = []
    closed: list[int] = []
    init, close = Stores.__init__, Stores.close

    def counted_init(self: Stores, *args: object, **kwargs: object) -> None:
        opened.append(id(self))
        init(self, *args, **kwargs)  # type: ignore[arg-type]

    def counted_close(self: Stores) -> None:
        closed.append(id(self))
        close(self)

    monkeypatch.setattr(Stores, "__init__", counted_init)
    monkeypatch.setattr(Stores, "close", counted_close)
    main(argv)
    capsys.readouterr()
    assert opened and sorted(opened) == sorted(closed), argv
