"""The right to be forgotten in the ticket system: a user's words leave the outbox, and the
comments the connector posted in Jira with their words are removed there, through the outbox.

A comment carries the user's words when they wrote it, or when it is on a ticket they asked
for (as the local ticket's comments are redacted, `brain.learning.control.forget_user`).

- Not sent yet: the change is dropped (kept as "dropped", without its words, so the recovery
  at the next start does not queue it again from the ticket's redacted history). If an
  earlier attempt may have posted it (its answer was lost), the comment is removed in Jira as
  well, found among the account's own by a hash of its body (the words are not kept).
- Sent: the comment the connector posted (`TicketLink.ours`, kept as long as the link) is
  deleted in Jira by a "remove" change, sent like any other (retried, once); the sent
  change's record keeps no words.
- A change without words (a filing, whose title is read from the ticket when sent and is
  redacted by then; a status change) still goes, so Jira learns the ticket was resolved.
- A ticket they asked for that is filed in Jira: its request's summary and description (their
  words) are written again from the redacted ticket by an "update" change.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from controllers.ticket_systems.outbox import links_in
from controllers.ticket_systems.records import OutboxChange, comment_body
from core.stores.forgetting import REDACTED

if TYPE_CHECKING:
    from core.stores.protocols import Collection
    from core.stores.records import Ticket

#: A removal's target that is the hash of a body, not a comment id.
BODY_HASH = "sha256:"


def body_hash(body: str) -> str:
    """How a comment that may have been posted is recognised without keeping its words."""
    return BODY_HASH + hashlib.sha256(body.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class OutboxForgetting:
    """What forgetting did to the outbox: changes dropped or redacted, comments in the ticket
    system queued to be removed there, and requests there queued to be redacted."""

    changes: int = 0
    removals: int = 0
    updates: int = 0


def forget_user(
    changes: Collection,
    state: Collection | None,
    user: str,
    tickets: Sequence[Ticket],
    clock: Callable[[], float] = time.time,
) -> OutboxForgetting:
    """Forget `user` in the outbox (`changes`) and queue the removal of the comments with
    their words the connector posted (`state`: the links; None: none known). `tickets`: the
    tickets as stored before they were redacted."""
    theirs = {t.id for t in tickets if t.requester == user}
    carrying = _their_comments(tickets, user, theirs)
    now = clock()
    removals: list[OutboxChange] = []
    dropped: list[str] = []
    redacted: list[str] = []
    for row in changes.view():
        if not row.get("text"):
            continue
        if row.get("by") != user and row.get("ticket_id") not in theirs:
            continue
        change = OutboxChange.from_dict(row)
        if change.state == "pending":
            dropped.append(change.change_id)
            if change.attempts and change.action == "comment":  # maybe posted already
                removals.append(_removal(change, body_hash(comment_body(change)), now))
        else:
            redacted.append(change.change_id)
    sizes = {t.id: len(t.history) for t in tickets}
    updates: list[OutboxChange] = []
    for link in [] if state is None else links_in(state):
        if link.ticket_id in theirs:  # the request's summary and description: their words
            seq = sizes.get(link.ticket_id, 0)
            updates.append(
                OutboxChange(
                    f"{link.ticket_id}~forget",
                    link.ticket_id,
                    seq,
                    "update",
                    queued_at=now,
                    next_at=now,
                )
            )
        for comment_id, change_id in link.ours.items():
            if change_id in carrying:
                seq = int(change_id.rpartition("#")[2])
                removals.append(
                    _removal(
                        OutboxChange(change_id, link.ticket_id, seq, "comment"), comment_id, now
                    )
                )
    for change_id in dropped:
        changes.modify(change_id, lambda row: row.update(state="dropped", text="", sent_at=now))
    for change_id in redacted:
        changes.modify(change_id, lambda row: row.update(text=REDACTED, by=""))
    queued = sum(changes.insert(removal.to_dict()) for removal in removals)
    rewritten = sum(changes.insert(update.to_dict()) for update in updates)
    return OutboxForgetting(len(dropped) + len(redacted), queued, rewritten)


def _their_comments(tickets: Sequence[Ticket], user: str, theirs: set[str]) -> set[str]:
    """The change ids of the comments with the user's words (`<ticket>#<history index>`)."""
    return {
        f"{ticket.id}#{seq}"
        for ticket in tickets
        for seq, entry in enumerate(ticket.history)
        if entry.get("event") == "commented" and (ticket.id in theirs or entry.get("by") == user)
    }


def _removal(comment: OutboxChange, target: str, now: float) -> OutboxChange:
    """The change removing `comment` (its id in Jira, or the hash of its body) there."""
    return OutboxChange(
        change_id=f"{comment.change_id}~forget",
        ticket_id=comment.ticket_id,
        seq=comment.seq,
        action="remove",
        target=target,
        queued_at=now,
        next_at=now,
    )
