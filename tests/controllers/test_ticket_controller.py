"""`ticket`: real work on the local store from the action words of a message."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from controllers.base import ControllerContext, ControllerServices
from controllers.builtin.ticket import TicketController, detect_action
from core.access import AccessPolicy

ContextFactory = Callable[..., ControllerContext]

EXTERNAL = "2025060300011279027"


@pytest.fixture
def ticket(services: ControllerServices) -> TicketController:
    assert services.tickets is not None
    services.tickets.create(
        "ticket", title="Disbursement not arrived", requester="U024BE7LH", ticket_id=EXTERNAL
    )
    return TicketController()


@pytest.mark.parametrize(
    ("text", "action"),
    [
        (f"process ticket {EXTERNAL}", "process"),
        (f"工单 {EXTERNAL} 现在什么进度？", "status"),
        (f"帮我催一下工单 {EXTERNAL}", "urge"),
        (f"我提的单 {EXTERNAL} 怎么还没人处理", "urge"),
        (f"please close {EXTERNAL}, fixed", "close"),
        (f"把 {EXTERNAL} 关掉吧", "close"),
        (f"please cancel {EXTERNAL}, not needed any more", "close"),
        (f"reopen {EXTERNAL}, it broke again", "reopen"),
        (f"工单 {EXTERNAL} 重新打开一下", "reopen"),
        (f"add a comment to {EXTERNAL}: vendor replied", "comment"),
        ("how many tickets have I got open?", "list"),
        ("我有几个工单还没处理完", "list"),
    ],
)
def test_action_words_in_english_and_chinese(text: str, action: str) -> None:
    assert detect_action(text) == action


def test_lookup_of_an_existing_ticket(
    ticket: TicketController, make_context: ContextFactory
) -> None:
    context = make_context(f"what's the status of {EXTERNAL}?")
    assert ticket.dry_run(context).ok
    result = ticket.handle(context)
    assert result.ok
    assert EXTERNAL in result.summary and "Disbursement not arrived" in result.summary
    assert "open" in result.summary
    assert result.data["tickets"][0]["id"] == EXTERNAL


def test_unknown_id_is_not_found_honestly(
    ticket: TicketController, make_context: ContextFactory
) -> None:
    context = make_context("status of 2025060399999999999 please")
    dry = ticket.dry_run(context)
    assert not dry.ok and "2025060399999999999 was not found" in dry.reason
    result = ticket.handle(context)
    assert not result.ok
    assert "was not found" in result.summary
    assert result.data["tickets"] == []


def test_no_id_asks_for_one(ticket: TicketController, make_context: ContextFactory) -> None:
    context = make_context("any update on my ticket?", user="U0NEWHIRE")
    dry = ticket.dry_run(context)
    assert (dry.ok, dry.missing) == (False, ["ticket_id"])
    assert ticket.handle(context).missing == ["ticket_id"]


def test_urge_close_reopen_change_the_store(
    ticket: TicketController, make_context: ContextFactory, services: ControllerServices
) -> None:
    assert services.tickets is not None
    urged = ticket.handle(make_context(f"催一下 {EXTERNAL}"))
    assert urged.ok and "催办 1 次" in urged.summary  # in the asker's language
    ticket.handle(make_context(f"chase {EXTERNAL} again please"))
    assert services.tickets.find(EXTERNAL).urge_count == 2

    closed = ticket.handle(make_context(f"please close {EXTERNAL}, money arrived"))
    assert closed.ok and services.tickets.find(EXTERNAL).status == "closed"
    # dry-run sees that a closed ticket cannot be closed or urged, and changes nothing
    again = make_context(f"close {EXTERNAL}")
    assert not ticket.dry_run(again).ok
    assert not ticket.handle(again).ok

    reopened = ticket.handle(make_context(f"工单 {EXTERNAL} 重新打开一下，钱又被退回了"))
    assert reopened.ok and services.tickets.find(EXTERNAL).status == "open"
    history = [h["event"] for h in services.tickets.find(EXTERNAL).history]
    assert history == ["created", "urged", "urged", "closed", "reopened"]


def test_process_and_comment(
    ticket: TicketController, make_context: ContextFactory, services: ControllerServices
) -> None:
    assert services.tickets is not None
    # someone else's ticket: neither shown nor processed by a user who is not on call
    refused = ticket.handle(make_context(f"process ticket {EXTERNAL}", user="U0STRANGER"))
    assert not refused.ok and "was not found" in refused.summary
    assert "Disbursement" not in refused.summary and refused.data["tickets"] == []
    assert services.tickets.find(EXTERNAL).status == "open"
    # on-call may work every ticket
    services.tickets.policy = AccessPolicy(oncall_users=frozenset({"U0ONCALL"}))
    processed = ticket.handle(make_context(f"process ticket {EXTERNAL}", user="U0ONCALL"))
    assert processed.ok
    stored = services.tickets.find(EXTERNAL)
    assert (stored.status, stored.assignee) == ("in_progress", "digital-employee")
    assert stored.history[-1] == {"at": stored.updated_at, "by": "U0ONCALL", "event": "processing"}

    commented = ticket.handle(make_context(f"add a comment to {EXTERNAL}: bank confirmed"))
    assert commented.ok
    assert services.tickets.find(EXTERNAL).comments[-1]["text"] == "bank confirmed"
    bare = ticket.handle(make_context(f"add a comment to {EXTERNAL}"))
    assert bare.missing == ["comment"]


def test_dry_run_has_no_side_effects(
    ticket: TicketController, make_context: ContextFactory, services: ControllerServices
) -> None:
    assert services.tickets is not None
    before = services.tickets.find(EXTERNAL).to_dict()
    for text in (f"close {EXTERNAL}", f"urge {EXTERNAL}", f"process ticket {EXTERNAL}"):
        assert ticket.dry_run(make_context(text)).ok
    assert services.tickets.find(EXTERNAL).to_dict() == before


def test_ticket_id_from_entities_and_parameters(
    ticket: TicketController, make_context: ContextFactory
) -> None:
    by_entity = make_context("where is it at?", entities={"ticket_id": [f"#{EXTERNAL}"]})
    assert ticket.dry_run(by_entity).ok
    by_answer = make_context("any news?", parameters={"ticket_id": EXTERNAL})
    assert ticket.handle(by_answer).ok


def test_without_a_store_it_says_so(make_context: ContextFactory) -> None:
    context = make_context(f"status {EXTERNAL}", services=ControllerServices())
    assert "no ticket store" in TicketController().dry_run(context).reason
    assert not TicketController().handle(context).ok


def test_pipeline_upstream_result_is_added_to_the_ticket(
    ticket: TicketController, make_context: ContextFactory, services: ControllerServices
) -> None:
    assert services.tickets is not None
    upstream = {"controller": "alarm", "ok": True, "summary": "Firing: HighErrorRate on payments."}
    result = ticket.handle(make_context(f"alert for ticket {EXTERNAL}", upstream=upstream))
    assert result.ok and "Added the alarm result" in result.summary
    [comment] = services.tickets.find(EXTERNAL).comments
    assert comment == {
        "at": comment["at"],
        "by": "brain:alarm",
        "text": "Firing: HighErrorRate on payments.",
    }


def test_without_an_id_the_requesters_open_tickets_are_used(
    ticket: TicketController, make_context: ContextFactory, services: ControllerServices
) -> None:
    assert services.tickets is not None
    # the fixture's ticket belongs to U024BE7LH, the default requester of make_context
    only = make_context("any update on my ticket?")
    dry = ticket.dry_run(only)
    assert dry.ok and "only open ticket" in dry.reason
    assert ticket.handle(make_context("催一下我的工单")).data["tickets"][0]["urge_count"] == 1

    second = services.tickets.create("incident", title="Printer jam", requester="U024BE7LH")
    several = make_context("any news on my request?")
    dry = ticket.dry_run(several)
    assert (dry.ok, dry.missing) == (False, ["ticket_id"]) and "2 open tickets" in dry.reason
    listing = ticket.handle(several)
    assert listing.ok and EXTERNAL in listing.summary and second.id in listing.summary
    close = ticket.handle(make_context("please close my ticket"))
    assert not close.ok and close.missing == ["ticket_id"]
    assert "Which ticket should I close?" in close.summary
    # a message that does not refer to a ticket is not completed with one
    assert not ticket.dry_run(make_context("book a table for four tonight")).ok
    # someone else's tickets are never offered
    stranger = make_context("any update on my ticket?", user="U0STRANGER")
    assert ticket.handle(stranger).missing == ["ticket_id"]


@pytest.mark.parametrize("text", ["list my open tickets", "查一下我名下还没关闭的工单"])
def test_listing_own_tickets(
    ticket: TicketController, make_context: ContextFactory, services: ControllerServices, text: str
) -> None:
    assert services.tickets is not None
    services.tickets.create("access", title="Jira admin", requester="U024BE7LH")
    closed = services.tickets.create("incident", title="old printer", requester="U024BE7LH")
    services.tickets.close(closed.id, by="U1")
    assert ticket.dry_run(make_context(text)).ok
    result = ticket.handle(make_context(text))
    assert result.ok and result.data["action"] == "list"
    assert {t["title"] for t in result.data["tickets"]} == {
        "Disbursement not arrived",
        "Jira admin",
    }
    # In the asker's language.
    chinese = text.startswith("查")
    assert ("（2 个）" if chinese else "(2)") in result.summary
    nobody = ticket.handle(make_context(text, user="U0NEWHIRE"))
    assert nobody.ok and nobody.summary == (
        "你目前没有未关闭的工单。" if chinese else "You have no open tickets in the ticket store."
    )
