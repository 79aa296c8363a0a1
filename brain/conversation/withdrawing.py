"""Which of a thread's records a requester takes back.

"cancel it, not needed anymore" closes the thread's record (`controllers.record_actions.
withdraws`). A thread can hold more than one open record of the same requester (a change and
the access request its message also held); "it" then names none of them for sure, and closing
the newest one may close what the requester still needs. So the requester is asked which one,
with the words that close it ("cancel CHG-000003"), and nothing is closed until they say.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controllers.ids import find_ticket_ids

if TYPE_CHECKING:
    from controllers.tickets import Ticket, TicketStore
    from core.stores.records import ConversationState


def open_records_of(
    store: TicketStore, state: ConversationState, requester: str, text: str
) -> list[Ticket]:
    """The thread's open records `requester` asked for, newest first, when a withdrawal in
    `text` could mean more than one of them (none named by its number); [] otherwise."""
    if find_ticket_ids(text):
        return []
    found: list[Ticket] = []
    for record in reversed(state.records):
        try:
            ticket = store.get(record)
        except Exception:  # an unreadable record is left out; the choice stays the person's
            continue
        if ticket is not None and ticket.is_open and ticket.requester == requester:
            found.append(ticket)
    return found if len(found) > 1 else []
