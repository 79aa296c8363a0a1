"""With two of the requester's records open in a thread, "cancel it" names neither for sure:
the requester is asked which, nothing is closed, and "cancel CHG-…" then closes that one
only (before, the newest record was closed, whichever the requester meant)."""

from __future__ import annotations

from brain.engine import Brain
from tests.chat_threads import chat_thread


def _statuses(brain: Brain) -> dict[str, str]:
    store = brain.services.tickets
    assert store is not None
    return {ticket.id: ticket.status for ticket in store.all()}


def test_cancel_it_with_two_open_records_asks_which_and_closes_the_one_named(
    brain: Brain,
) -> None:
    filed = chat_thread(
        brain,
        "please restart the billing-api service tonight at 23:00 and also I need access to Grafana",
    )
    opened = _statuses(brain)
    assert len(opened) == 2 and set(opened.values()) == {"open"}, filed[0].text
    change = next(ticket for ticket in opened if ticket.startswith("CHG-"))

    asked = chat_thread(brain, "cancel it, not needed anymore")
    assert _statuses(brain) == opened, asked[0].text
    assert "Which should I cancel?" in asked[0].text and change in asked[0].text

    closed = chat_thread(brain, f"cancel {change}")
    statuses = _statuses(brain)
    assert statuses[change] == "closed", closed[0].text
    assert [s for t, s in statuses.items() if t != change] == ["open"], statuses
