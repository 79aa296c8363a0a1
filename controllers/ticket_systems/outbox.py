"""The durable outbox: every local change meant for the ticket system is written to the home's
record stores before anything is sent, and the sync state (links, the poll's cursor) beside it.

`Outbox.queue` is the ticket store's change sink (`TicketStore.outbox`): it reads the change
from the ticket's newest history entry. Changes made by the ticket system itself (written by
`jira:...`, `controllers.ticket_systems.inbound`) and the connector's own notes are not
queued, so nothing that came from Jira is sent back to it. A ticket is synced when its desk is
configured (`JiraConfig.desk_for` its team) at the time it is filed; its later changes follow
it whatever its team becomes. Tickets imported from another system are never filed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from controllers.ticket_systems.records import OutboxChange, TicketLink
from core.stores.protocols import Collection

if TYPE_CHECKING:
    from core.stores.records import Ticket
    from core.ticket_systems import JiraConfig

log = logging.getLogger(__name__)

#: Who a change made in the ticket system is written by locally ("jira:Alice Agent").
REMOTE_PREFIX = "jira:"
#: Local history events -> what they ask of the ticket system.
ACTION_OF_EVENT: dict[str, str] = {
    "created": "create",
    "commented": "comment",
    "claimed": "progress",
    "processing": "progress",
    "resolved": "resolve",
    "closed": "close",
    "reopened": "reopen",
    "handed": "unassign",
    "updated": "update",
}
#: The sync state's document of the poll's cursor.
CURSOR_KEY = "poll:jira"


class Outbox:
    """Changes for the ticket system (`changes`, keyed by "change_id") and the sync state
    (`state`: one "link:<ticket id>" document a linked ticket, and the poll's cursor)."""

    def __init__(
        self,
        changes: Collection,
        state: Collection,
        config: JiraConfig,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.changes = changes
        self.state = state
        self.config = config
        self.clock = clock

    # -- queueing ------------------------------------------------------------------------------

    def queue(self, ticket: Ticket) -> OutboxChange | None:
        """Write the change the ticket's newest history entry records, if it is one for the
        ticket system (None when it is not); queueing the same change again adds nothing."""
        if not ticket.history:
            return None
        seq = len(ticket.history) - 1
        action = self.action_at(ticket, seq)
        if action is None:
            return None
        if action == "create":
            if self.config.desk_for(ticket.team) is None:
                return None
        elif not self.is_synced(ticket.id):
            return None
        return self.write(ticket, seq, action)

    @staticmethod
    def action_at(ticket: Ticket, seq: int) -> str | None:
        """What the ticket's history entry `seq` asks of the ticket system (None: nothing,
        or it came from there)."""
        entry = ticket.history[seq]
        action = ACTION_OF_EVENT.get(str(entry.get("event") or ""))
        if action is None or str(entry.get("by") or "").startswith(REMOTE_PREFIX):
            return None
        return action

    def write(self, ticket: Ticket, seq: int, action: str) -> OutboxChange | None:
        """Write the outbox entry of history entry `seq` (None when it exists already)."""
        entry = ticket.history[seq]
        text = ""
        if action == "comment":  # its comment: comments and "commented" entries go together
            index = sum(e.get("event") == "commented" for e in ticket.history[: seq + 1]) - 1
            if 0 <= index < len(ticket.comments):
                text = str(ticket.comments[index].get("text") or "")
        now = self.clock()
        change = OutboxChange(
            change_id=f"{ticket.id}#{seq}",
            ticket_id=ticket.id,
            seq=seq,
            action=action,
            text=text,
            by=str(entry.get("by") or ""),
            queued_at=now,
            next_at=now,
        )
        if not self.changes.insert(change.to_dict()):
            return None
        return change

    def is_synced(self, ticket_id: str) -> bool:
        """Is the ticket filed in the ticket system, or its filing queued?"""
        return self.link(ticket_id) is not None or self.changes.get(f"{ticket_id}#0") is not None

    # -- reading and settling ------------------------------------------------------------------

    def pending(self) -> list[OutboxChange]:
        """The changes not sent yet, each ticket's in the order they were made."""
        rows = [row for row in self.changes.view() if row.get("state") == "pending"]
        changes = [OutboxChange.from_dict(dict(row)) for row in rows]
        return sorted(changes, key=lambda c: (c.queued_at, c.ticket_id, c.seq))

    def all(self) -> list[OutboxChange]:
        """Every change kept (sent, failed and pending)."""
        return [OutboxChange.from_dict(row) for row in self.changes.all()]

    def update(self, change: OutboxChange) -> None:
        """Write a change's new state (attempts, result)."""
        data = change.to_dict()

        def replace(row: dict[str, object]) -> None:
            row.clear()
            row.update(data)

        self.changes.modify(change.change_id, replace)

    def forget_sent(self, older_than_s: float) -> int:
        """Drop changes sent (or dropped by a forget) more than `older_than_s` ago; how many."""
        cutoff = self.clock() - older_than_s
        old = [
            str(row["change_id"])
            for row in self.changes.view()
            if row.get("state") in ("sent", "dropped") and float(row.get("sent_at") or 0) < cutoff
        ]
        self.changes.remove(old)
        return len(old)

    # -- the sync state ------------------------------------------------------------------------

    def link(self, ticket_id: str) -> TicketLink | None:
        """What is known of the ticket's issue in the ticket system (None: not filed yet)."""
        row = self.state.get(f"link:{ticket_id}")
        return None if row is None else TicketLink.from_dict(row)

    def links(self) -> dict[str, TicketLink]:
        """Every link, by the issue's key."""
        return {link.issue: link for link in links_in(self.state)}

    def save_link(self, link: TicketLink) -> None:
        """Write a link (durably)."""
        self.state.put_many([link.to_dict()])

    def polled_at(self) -> float | None:
        """When the last poll started (epoch seconds), if ever."""
        row = self.state.get(CURSOR_KEY)
        return None if row is None else float(row["at"])

    def unread(self) -> list[str]:
        """The issues the last poll could not read (a call failed), to read next time."""
        row = self.state.get(CURSOR_KEY)
        return [] if row is None else [str(key) for key in row.get("unread") or []]

    def set_polled_at(self, at: float, *, unread: list[str] | None = None) -> None:
        """Record the start of a poll, and the issues it could not read."""
        self.state.put_many([{"key": CURSOR_KEY, "at": at, "unread": list(unread or [])}])


def links_in(state: Collection) -> list[TicketLink]:
    """Every link of the sync state (`Outbox.links`; forgetting reads them without one)."""
    return [
        TicketLink.from_dict(row)
        for row in state.view()
        if str(row.get("key", "")).startswith("link:")
    ]
