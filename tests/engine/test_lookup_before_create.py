"""Look up before you create: a message naming a ticket is about that ticket, and a
follow-up in a thread whose ticket waits for a field completes it, through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brain.engine import Brain
from cli import main
from controllers.tickets import TicketStore
from core.config import load_settings
from core.records import Message


def _ask(capsys: pytest.CaptureFixture[str], text: str, *extra: str) -> dict:
    assert main(["ask", text, "--json", "--user", "u1", "--channel", "C1", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def _tickets() -> list[str]:
    return [t.id for t in TicketStore.open(load_settings()).all()]


@pytest.mark.usefixtures("home")
def test_a_named_unknown_change_is_looked_up_and_not_filed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    decision = _ask(capsys, "please check CHG-12345")
    assert decision["controller"] == "ticket"
    assert decision["result"]["ok"] is False
    assert "CHG-12345 was not found" in decision["result"]["summary"]
    assert "did not file a new one" in decision["result"]["summary"]
    assert any("look-up" in step for step in decision["tier_path"])
    assert _tickets() == []


@pytest.mark.parametrize(
    "text",
    [
        "any update on REQ-4242 for my laptop access request",
        "what is the status of INC-99999, the vpn incident",
    ],
)
def test_a_question_about_a_missing_record_is_its_look_up_when_the_ticket_desk_was_best(
    capsys: pytest.CaptureFixture[str], home: Path, text: str
) -> None:
    """Below the fast threshold the ticket desk's own dry-run fails (the record does not
    exist); the question is still its look-up, answered "not found", not asked back or
    answered from the knowledge base."""
    (home / "brain.toml").write_text("[routing]\nfast_threshold = 0.999\n", encoding="utf-8")
    decision = _ask(capsys, text)
    assert decision["controller"] == "ticket", decision["tier_path"]
    assert "was not found" in decision["result"]["summary"]
    assert _tickets() == []


@pytest.mark.usefixtures("home")
def test_an_imported_work_order_is_looked_up(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    TicketStore.open(load_settings()).import_records(
        [{"id": "2025060300011279027", "kind": "change", "title": "扩容申请", "requester": "u1"}]
    )
    decision = _ask(capsys, "please check change 2025060300011279027")
    assert decision["controller"] == "ticket"
    assert "2025060300011279027" in decision["result"]["summary"]
    assert "扩容申请" in decision["result"]["summary"]
    assert _tickets() == ["2025060300011279027"]


def test_a_follow_up_in_the_thread_completes_the_waiting_ticket(brain: Brain) -> None:
    first = brain.ask(_message("something is wrong with my computer, I get error 1234", "T7"))
    # A person picks incident: it runs on the stored message and waits for its category.
    brain.route_to(first.decision_id, "incident", "u1")
    store = TicketStore.open(load_settings())
    (waiting,) = store.all()
    assert waiting.status == "awaiting_info"

    follow_up = brain.ask(_message("the category is printer", "T7"))
    assert follow_up.controller == "incident"
    assert follow_up.result is not None
    assert f"Completed incident {waiting.id}" in follow_up.result.summary
    (ticket,) = store.all()
    assert ticket.id == waiting.id
    assert ticket.status == "open"
    assert ticket.fields["category"] == "printer"

    # Another thread is another conversation: a new ticket there.
    other = brain.ask(_message("the printer on floor 3 is jammed", "T8"))
    assert other.result is not None
    assert other.result.data["ticket"]["id"] != waiting.id
    assert len(store.all()) == 2


def _message(text: str, thread: str) -> Message:
    return Message(text, user="u1", channel="C1", thread=thread)


def test_a_report_naming_its_open_ticket_updates_it(brain: Brain) -> None:
    store = TicketStore.open(load_settings())
    store.import_records(
        [{"id": "INC0013021", "kind": "incident", "title": "VPN drops", "requester": "U2"}]
    )
    decision = brain.ask(_message("VPN 又断了，错误 720，之前的工单 INC0013021 也没解决", "T9"))
    assert decision.result is not None
    assert "INC0013021" in decision.result.summary
    assert [t.id for t in store.all()] == ["INC0013021"]  # no second ticket
    (ticket,) = store.all()
    assert any("720" in c["text"] for c in ticket.comments)


def test_an_asset_tag_is_not_a_ticket(brain: Brain) -> None:
    decision = brain.ask(_message("帮我查一下 LT-10995 这台电脑登记在谁名下", "T10"))
    assert decision.controller != "ticket"
