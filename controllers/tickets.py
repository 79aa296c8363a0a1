"""The local ticket store: typed requests (incident, access, change, ticket) in a record store.

The store holds the tickets that exist, nothing more: a lookup of an unknown id says so.
Tickets from another system keep their own id (`create(..., ticket_id="2025060300011279027")`
or `import_records`); locally created ones get `INC-000001`, `REQ-000002`, `CHG-000003`...
Titles, fields and comments are redacted (`core.redact`) before they are stored: a password
typed into a request never reaches the ticket records.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol

from controllers.ids import PREFIXES, is_ticket_id, normalize_ticket_id, record_kind
from core.access import AccessPolicy, Viewer, same_workspace
from core.errors import BrainError
from core.redact import redact, redact_strings
from core.stores.protocols import TicketRecords
from core.stores.records import Ticket

if TYPE_CHECKING:
    from core.config import Settings
    from core.stores import Stores
    from core.teams import AnswerPromise

TicketKind = Literal["incident", "access", "change", "equipment", "ticket"]
#: The kind of a ticket filed by a controller that names no kind of its own (an imported desk's
#: queues): its queue is its "category" field.
GENERIC_KIND = "ticket"
TICKET_KINDS: tuple[str, ...] = tuple(PREFIXES)
#: Stored statuses; "resolved" waits for the requester's answer and "closed" is terminal
#: (either can be reopened).
STATUSES: tuple[str, ...] = ("open", "awaiting_info", "in_progress", "resolved", "closed")
#: How a record closed because its message moved to another controller says so (its
#: history's reason starts with it): it was not resolved.
MOVED_REASON = "moved:"
#: What the help desk calls each stored status (the ids stay for the CLI and stored tickets).
STATUS_LABELS: dict[str, str] = {
    "open": "new",
    "in_progress": "assigned",
    "awaiting_info": "waiting on requester",
    "resolved": "resolved",
    "closed": "closed",
}


log = logging.getLogger(__name__)


class TicketError(BrainError):
    """A ticket operation cannot be done; the message says why."""


class TicketNotFound(TicketError, KeyError):
    """No ticket with that id exists in the store."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "ticket not found"


class TicketStateError(TicketError):
    """The operation does not fit the ticket's status (e.g. closing a closed ticket)."""


class ChangeSink(Protocol):
    """Told of each change of a ticket (the ticket as changed; its newest history entry is
    the change), e.g. a ticket system's outbox (`controllers.ticket_systems.outbox`)."""

    def queue(self, ticket: Ticket) -> object: ...


class TicketStore:
    """Tickets in the home's ticket records (`core.stores`); safe to share between threads and
    processes: each change is an atomic read-modify-write of one ticket.

    A ticket belongs to its requester; `get_for`/`find_for` answer a viewer only with what the
    access policy lets them see (`core.access`): a ticket they may not see is "not found",
    in the same words as one that does not exist, so no title, description or status leaks."""

    def __init__(
        self,
        records: TicketRecords,
        policy: AccessPolicy | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.records = records
        self.policy = policy or AccessPolicy()
        #: Stamps of changes (a simulated clock in tests of the stale-ticket sweep).
        self.clock = clock or (lambda: datetime.now(UTC))
        #: Told of every change after it is stored (None: nobody, no ticket system).
        self.outbox: ChangeSink | None = None
        #: (routed controller, ticket) -> the help-desk team a new ticket is queued for
        #: (None: no teams configured). Set at filing, so the ticket system's outbox, which
        #: may send the filing at once from another thread, files it on that team's desk.
        self.team_of: Callable[[str | None, Ticket], str | None] | None = None
        #: ticket -> when its team aims to give it a first answer (None: no teams configured).
        self.promise_of: Callable[[Ticket], AnswerPromise | None] | None = None

    @classmethod
    def open(cls, settings: Settings) -> TicketStore:
        """The ticket store of a brain home, on the configured backend."""
        from core.stores import open_stores

        return cls.on_stores(open_stores(settings), settings)

    @classmethod
    def on_stores(cls, stores: Stores, settings: Settings) -> TicketStore:
        """The ticket store on a home's opened stores; with a ticket system configured
        (`[tickets.jira]`), every change is also written to its outbox."""
        store = cls(stores.tickets, AccessPolicy.of(settings.access))
        if settings.helpdesk.teams:
            store.team_of = settings.helpdesk.team_of_ticket
            store.promise_of = settings.helpdesk.answer_promise
        if settings.tickets.jira is not None:
            from controllers.ticket_systems.outbox import Outbox

            store.outbox = Outbox(stores.ticket_outbox, stores.ticket_sync, settings.tickets.jira)
        return store

    def release(self) -> None:
        """Nothing to release: every call opens and closes what it needs."""
        return None

    # -- reading ---------------------------------------------------------------------------

    def answer_promise(self, ticket: Ticket) -> AnswerPromise | None:
        """When the ticket's team aims to give it a first answer (`core.teams`), if a team
        is configured and nobody has taken it yet."""
        return self.promise_of(ticket) if self.promise_of is not None else None

    def get(self, ticket_id: str) -> Ticket | None:
        """The ticket with this id, or None."""
        return self.records.get(normalize_ticket_id(ticket_id))

    def find(self, ticket_id: str) -> Ticket:
        """The ticket with this id; raises `TicketNotFound`."""
        ticket = self.get(ticket_id)
        if ticket is None:
            raise TicketNotFound(f"ticket {normalize_ticket_id(ticket_id)} was not found")
        return ticket

    def visible(self, ticket: Ticket, viewer: Viewer | None) -> bool:
        """May `viewer` see this ticket (None: an admin, who sees everything)?"""
        return self.policy.may_see(
            owner=ticket.requester, channel=ticket.channel, viewer=viewer, team=ticket.slack_team
        )

    def get_for(self, ticket_id: str, viewer: Viewer | None) -> Ticket | None:
        """The ticket with this id if `viewer` may see it, else None."""
        ticket = self.get(ticket_id)
        return ticket if ticket is not None and self.visible(ticket, viewer) else None

    def find_for(self, ticket_id: str, viewer: Viewer | None) -> Ticket:
        """Like `find`, but a ticket the viewer may not see is not found either."""
        ticket = self.get_for(ticket_id, viewer)
        if ticket is None:
            raise TicketNotFound(f"ticket {normalize_ticket_id(ticket_id)} was not found")
        return ticket

    def list_by_requester(
        self, requester: str, *, open_only: bool = False, team: str | None = None
    ) -> list[Ticket]:
        """A requester's tickets, newest first (`team`: only those of that Slack workspace)."""
        tickets = [
            t for t in self.records.by_requester(requester) if same_workspace(t.slack_team, team)
        ]
        if open_only:
            tickets = [t for t in tickets if t.is_open]
        return sorted(tickets, key=lambda t: (t.created_at, t.id), reverse=True)

    def mentioning(self, value: str, viewer: Viewer | None) -> list[Ticket]:
        """The tickets `viewer` may see that name `value` (a field equal to it, or their
        title), in creation order."""
        found = [t for t in self.records.mentioning(value) if self.visible(t, viewer)]
        return sorted(found, key=lambda t: (t.created_at, t.id))

    def all(self) -> list[Ticket]:
        """Every ticket, in creation order."""
        return sorted(self.records.all(), key=lambda t: (t.created_at, t.id))

    # -- writing ---------------------------------------------------------------------------

    def create(
        self,
        kind: str,
        *,
        title: str,
        requester: str,
        fields: Mapping[str, Any] | None = None,
        status: str = "open",
        ticket_id: str | None = None,
        created_at: str | None = None,
        slack_team: str | None = None,
        routed_to: str | None = None,
    ) -> Ticket:
        """Store a new ticket; a local id is assigned unless `ticket_id` (external) is given.
        A ticket filed here is queued at once for the team owning `routed_to` (the controller
        the message was routed to) or its category or kind, when teams are configured."""
        if kind not in PREFIXES:
            raise TicketError(f"unknown ticket kind {kind!r}; expected one of {TICKET_KINDS}")
        if status not in STATUSES:
            raise TicketError(f"unknown status {status!r}; expected one of {STATUSES}")
        if not title.strip():
            raise TicketError("a ticket needs a title")
        if ticket_id is None:
            key = self._next_id(kind)
        else:
            key = normalize_ticket_id(ticket_id)
            if not is_ticket_id(key):
                raise TicketError(f"{ticket_id!r} is not a valid ticket id")
        stamp = created_at or self.clock().isoformat(timespec="seconds")
        ticket = Ticket(
            id=key,
            kind=kind,
            title=redact(title.strip()[:300]),
            requester=requester,
            status=status,
            fields=redact_strings(dict(fields or {})),
            created_at=stamp,
            updated_at=stamp,
            history=[{"at": stamp, "by": requester, "event": "created"}],
            slack_team=slack_team,
        )
        if ticket_id is None and self.team_of is not None and not ticket.team:
            team = self.team_of(routed_to, ticket)
            if team:
                ticket.fields["team"] = team
        while not self.records.insert(ticket):
            if ticket_id is not None:
                raise TicketError(f"ticket {key} already exists")
            ticket.id = self._next_id(kind)  # an imported ticket has that number: the next
        if ticket_id is None:  # one from another system is never filed in a ticket system
            self._changed(ticket)
        return ticket

    def import_records(self, records: Iterable[Mapping[str, Any]]) -> list[Ticket]:
        """Store tickets from another system (each with `id`, `title`, `requester` and
        optionally `kind`: a stored kind or a documented id kind, `controllers.ids.record_kind`;
        without one, the id's prefix says)."""
        created = []
        for record in records:
            missing = [k for k in ("id", "title", "requester") if not record.get(k)]
            if missing:
                raise TicketError(f"ticket record {dict(record)!r} lacks {', '.join(missing)}")
            created.append(
                self.create(
                    record_kind(record.get("kind"), str(record["id"])),
                    title=str(record["title"]),
                    requester=str(record["requester"]),
                    fields=record.get("fields") or {},
                    status=str(record.get("status") or "open"),
                    ticket_id=str(record["id"]),
                    created_at=record.get("created_at"),
                )
            )
        return created

    def comment(self, ticket_id: str, *, author: str, text: str) -> Ticket:
        """Add a comment."""
        if not text.strip():
            raise TicketError("a comment needs some text")

        def change(ticket: Ticket, stamp: str) -> None:
            ticket.comments.append({"at": stamp, "by": author, "text": redact(text.strip()[:4000])})
            ticket.history.append({"at": stamp, "by": author, "event": "commented"})

        return self._update(ticket_id, change)

    def urge(self, ticket_id: str, *, by: str) -> Ticket:
        """Record that someone chased an open ticket."""

        def change(ticket: Ticket, stamp: str) -> None:
            if not ticket.is_open:
                raise TicketStateError(f"ticket {ticket.id} is closed; reopen it instead of urging")
            ticket.urge_count += 1
            ticket.urged_at.append(stamp)
            ticket.history.append({"at": stamp, "by": by, "event": "urged"})

        return self._update(ticket_id, change)

    def take(self, ticket_id: str, *, by: str, assignee: str | None = None) -> Ticket:
        """Start processing an open ticket (status in_progress; assignee defaults to `by`)."""

        def change(ticket: Ticket, stamp: str) -> None:
            if not ticket.is_open:
                raise TicketStateError(f"ticket {ticket.id} is closed; reopen it first")
            ticket.status = "in_progress"
            ticket.assignee = assignee or by
            ticket.history.append({"at": stamp, "by": by, "event": "processing"})

        return self._update(ticket_id, change)

    def close(self, ticket_id: str, *, by: str, reason: str = "") -> Ticket:
        """Close an open (or resolved) ticket."""

        def change(ticket: Ticket, stamp: str) -> None:
            if ticket.status == "closed":
                raise TicketStateError(f"ticket {ticket.id} is already closed")
            ticket.status = "closed"
            ticket.history.append(
                {"at": stamp, "by": by, "event": "closed", "reason": redact(reason[:500])}
            )

        return self._update(ticket_id, change)

    def reopen(self, ticket_id: str, *, by: str, reason: str = "") -> Ticket:
        """Reopen a resolved or closed ticket (its assignee, if any, keeps it)."""

        def change(ticket: Ticket, stamp: str) -> None:
            if ticket.is_open:
                raise TicketStateError(f"ticket {ticket.id} is not closed (status {ticket.status})")
            ticket.status = "open"
            ticket.history.append(
                {"at": stamp, "by": by, "event": "reopened", "reason": redact(reason[:500])}
            )

        return self._update(ticket_id, change)

    def resolve(self, ticket_id: str, *, by: str) -> Ticket:
        """Mark an open ticket solved; it stays reopenable until the requester answers."""

        def change(ticket: Ticket, stamp: str) -> None:
            if not ticket.is_open:
                raise TicketStateError(f"ticket {ticket.id} is already {ticket.status}")
            ticket.status = "resolved"
            ticket.history.append({"at": stamp, "by": by, "event": "resolved"})

        return self._update(ticket_id, change)

    def claim(self, ticket_id: str, *, by: str) -> Ticket:
        """The first claimer becomes the assignee; a ticket someone holds is refused
        (`TicketStateError`), so two helpers never work the same ticket unknowingly."""

        def change(ticket: Ticket, stamp: str) -> None:
            if not ticket.is_open:
                raise TicketStateError(f"ticket {ticket.id} is {ticket.status}; reopen it first")
            if ticket.assignee and ticket.assignee != by:
                raise TicketStateError(f"ticket {ticket.id} is already assigned")
            ticket.assignee = by
            ticket.status = "in_progress"
            ticket.history.append({"at": stamp, "by": by, "event": "claimed"})

        return self._update(ticket_id, change)

    def hand_to(self, ticket_id: str, *, by: str, team: str) -> Ticket:
        """Queue the ticket for `team`, unassigned, so that team's first Claim takes it."""

        def change(ticket: Ticket, stamp: str) -> None:
            if not ticket.is_open:
                raise TicketStateError(f"ticket {ticket.id} is {ticket.status}; reopen it first")
            ticket.fields["team"] = team
            ticket.assignee = None
            ticket.status = "open"
            ticket.history.append({"at": stamp, "by": by, "event": "handed", "team": team})

        return self._update(ticket_id, change)

    def note(self, ticket_id: str, *, by: str, event: str, **extra: str) -> Ticket:
        """Keep one help desk event (nudged, SLA warned, rated...) in the ticket's history,
        redacted: a reason the requester typed is data, never a secret kept in clear."""

        def change(ticket: Ticket, stamp: str) -> None:
            kept = {key: redact(str(value)[:500]) for key, value in extra.items()}
            ticket.history.append({"at": stamp, "by": by, "event": event, **kept})

        return self._update(ticket_id, change)

    def link(self, ticket_id: str, *, system: str, key: str) -> Ticket:
        """Keep the id the ticket has in another ticket system (its history says when it was
        filed there; `fields["<system>_key"]` holds it)."""

        def change(ticket: Ticket, stamp: str) -> None:
            ticket.fields[f"{system}_key"] = key
            ticket.history.append(
                {"at": stamp, "by": system, "event": "linked", "system": system, "key": key}
            )

        return self._update(ticket_id, change)

    def external_status(
        self,
        ticket_id: str,
        *,
        by: str,
        status: str,
        done: bool,
        closing: bool,
        unless: Callable[[Ticket], bool],
    ) -> Ticket | None:
        """A status another ticket system shows (`status`, e.g. "Resolved in Jira (IT-4)"),
        applied in one atomic change unless `unless(ticket)` says a change made here is
        newer (None then, nothing changed): done -> resolved, or closed when `closing`; not
        done -> reopened when resolved or closed; any other move is kept in the history."""

        class Newer(Exception):
            pass

        def change(ticket: Ticket, stamp: str) -> None:
            if unless(ticket):
                raise Newer
            entry = {"at": stamp, "by": by}
            if done and closing and ticket.status != "closed":
                ticket.status = "closed"
                ticket.history.append({**entry, "event": "closed", "reason": status})
            elif done and ticket.is_open:
                ticket.status = "resolved"
                ticket.history.append({**entry, "event": "resolved"})
            elif not done and not ticket.is_open:
                ticket.status = "open"
                ticket.history.append({**entry, "event": "reopened", "reason": status})
            else:
                ticket.history.append({**entry, "event": "external_status", "status": status})

        try:
            return self._update(ticket_id, change)
        except Newer:
            return None

    def external_assignee(self, ticket_id: str, *, by: str, assignee: str | None) -> Ticket:
        """The assignee another ticket system shows (`by`: where it was read, "jira:IT-4";
        None: nobody), kept in the history; the status is the other system's to say."""

        def change(ticket: Ticket, stamp: str) -> None:
            ticket.assignee = assignee
            ticket.history.append(
                {"at": stamp, "by": by, "event": "assigned", "assignee": assignee or ""}
            )

        return self._update(ticket_id, change)

    def update_fields(
        self, ticket_id: str, *, by: str, fields: Mapping[str, Any], status: str | None = None
    ) -> Ticket:
        """Fill in fields (e.g. parameters the requester supplied later), optionally the status."""
        if status is not None and status not in STATUSES:
            raise TicketError(f"unknown status {status!r}; expected one of {STATUSES}")

        def change(ticket: Ticket, stamp: str) -> None:
            ticket.fields.update(redact_strings(dict(fields)))
            if status is not None:
                ticket.status = status
            ticket.history.append({"at": stamp, "by": by, "event": "updated"})

        return self._update(ticket_id, change)

    # -- internals -------------------------------------------------------------------------

    def _update(self, ticket_id: str, change: Callable[[Ticket, str], None]) -> Ticket:
        """Apply `change` to the stored ticket atomically; an error in it changes nothing."""

        def apply(ticket: Ticket) -> None:
            stamp = self.clock().isoformat(timespec="seconds")
            change(ticket, stamp)
            ticket.updated_at = stamp

        ticket = self.records.modify(normalize_ticket_id(ticket_id), apply)
        if ticket is None:
            raise TicketNotFound(f"ticket {normalize_ticket_id(ticket_id)} was not found")
        self._changed(ticket)
        return ticket

    def _changed(self, ticket: Ticket) -> None:
        """Tell the change sink; the change is stored already, so a sink that fails is
        logged, never the caller's error."""
        if self.outbox is None:
            return
        try:
            self.outbox.queue(ticket)
        except Exception:
            log.exception("ticket %s changed but its change was not queued", ticket.id)

    def _next_id(self, kind: str) -> str:
        """The next local id: numbers come from one shared sequence, so two processes never
        hand out the same one; `create` takes the next when an imported ticket has it (the
        insert says so: a look-up first read the ticket's bucket once more per ticket)."""
        return f"{PREFIXES[kind]}-{self.records.next_number():06d}"
