"""Changes a crash left out of the outbox: a ticket's change and its outbox entry are two
writes, so a process dying between them leaves a change that Jira would never get. When the
connector starts, the recent history of every synced ticket is read again and what has no
outbox entry is queued: a comment, and a status change no later status change made here
overrode (sent late it would undo the later one).

Only changes newer than `RECOVER_S` are looked at: sent entries are dropped from the outbox
after `KEEP_SENT_S`, and one older than that must not be taken for a missing one. A filing
that never reached the outbox (a crash right after the ticket was created) is not found.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from controllers.ticket_systems.outbox import Outbox

if TYPE_CHECKING:
    from controllers.tickets import TicketStore

#: Actions each of which is recovered (a status change is overridden by a later one).
UNORDERED = ("comment", "unassign", "update")
#: How far back a ticket's history is read for changes missing from the outbox.
RECOVER_S = 6 * 24 * 3600.0


def recover(outbox: Outbox, tickets: TicketStore, *, within_s: float = RECOVER_S) -> int:
    """Queue the recent changes of synced tickets that have no outbox entry; how many."""
    known = {str(row.get("change_id")) for row in outbox.changes.view()}
    synced = {link.ticket_id for link in outbox.links().values()}
    synced |= {key.removesuffix("#0") for key in known if key.endswith("#0")}
    cutoff = datetime.now(UTC) - timedelta(seconds=within_s)
    queued = 0
    for ticket_id in sorted(synced):
        ticket = tickets.get(ticket_id)
        if ticket is None:
            continue
        last_status = max(
            (
                seq
                for seq in range(1, len(ticket.history))
                if outbox.action_at(ticket, seq) not in (None, "create", *UNORDERED)
            ),
            default=0,
        )
        for seq in range(1, len(ticket.history)):
            action = outbox.action_at(ticket, seq)
            if action is None or action == "create" or f"{ticket_id}#{seq}" in known:
                continue
            if action not in UNORDERED and seq != last_status:
                continue  # overridden by a later status change made here
            if not _since(ticket.history[seq].get("at"), cutoff):
                continue
            if outbox.write(ticket, seq, action) is not None:
                queued += 1
    return queued


def _since(stamp: object, cutoff: datetime) -> bool:
    """Was the change made after `cutoff` (a stamp that cannot be read: no)?"""
    try:
        at = datetime.fromisoformat(str(stamp))
    except ValueError:
        return False
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return at >= cutoff
