"""The store interfaces: one protocol per kind of state, and the two a backend provides.

A backend (TinyDB files, the in-memory one for tests, later PostgreSQL) implements only two
things: a `Collection` (keyed JSON documents with atomic read-modify-write) and a
`DecisionStore` that is also the `FeedbackStore` (feedback is kept with its decision). The
per-kind stores in `core.stores.kinds` are written once over a `Collection`, so every backend
gets tickets, lessons, the Slack ledger, alerts and the KB manifest for free, and the shared
contract tests (tests/stores) prove each backend.

Every write of every store is durable when the call returns, and every read-modify-write is
atomic across the threads and processes sharing the store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, runtime_checkable

from core.records import Decision
from core.stores.lesson import Lesson
from core.stores.records import Alert, ConversationState, ManifestEntry, MessageLink, Ticket

Document = dict[str, Any]
#: Computes a document's key (e.g. its "alert_id" field).
KeyOf = Callable[[Mapping[str, Any]], str]


@runtime_checkable
class Collection(Protocol):
    """Keyed JSON documents; what a backend provides for every kind of state but decisions."""

    def get(self, key: str) -> Document | None:
        """The document with this key, or None."""
        ...

    def all(self) -> list[Document]:
        """Every document (order unspecified)."""
        ...

    def view(self) -> Sequence[Mapping[str, Any]]:
        """Every document, read-only: a backend may share them with later calls (and read
        them again only after a write), so a caller never changes one."""
        ...

    def put_many(self, documents: Iterable[Mapping[str, Any]]) -> None:
        """Insert or replace documents by key, all in one durable write."""
        ...

    def insert(self, document: Mapping[str, Any]) -> bool:
        """Add a document unless its key exists (atomically); False when it existed."""
        ...

    def modify(self, key: str, change: Callable[[Document], None]) -> Document | None:
        """Atomically read, `change` in place and write back one document; None when absent.

        An exception raised by `change` leaves the document untouched and propagates.
        """
        ...

    def remove(self, keys: Iterable[str]) -> None:
        """Delete documents by key (unknown keys are ignored)."""
        ...

    def clear(self) -> None:
        """Delete every document."""
        ...

    def count(self) -> int:
        """How many documents there are."""
        ...

    def flush(self) -> None:
        """Fold whatever the backend keeps ahead of the documents' own files (a journal) into
        them, so no file keeps an earlier version of a changed document (a no-op elsewhere)."""
        ...


class DecisionStore(Protocol):
    """Every Decision, by id, by session and by (user, channel)."""

    def append(self, decision: Decision) -> None:
        """Store a new decision (durable when this returns)."""
        ...

    def update(self, decision: Decision) -> None:
        """Replace a stored decision; raises UnknownDecision. Feedback stored meanwhile by
        anyone else is kept."""
        ...

    def get_many(self, decision_ids: list[str]) -> list[Decision]:
        """Decisions in the given order; raises UnknownDecision for the first one missing."""
        ...

    def last_for(self, user: str, channel: str) -> Decision | None:
        """The latest decision of a user in a channel, or None."""
        ...

    def session_ids(self, session_key: str) -> list[str]:
        """Ids of a session's latest decisions, oldest first."""
        ...

    def forget_user(self, user: str, texts: Sequence[str]) -> list[str]:
        """The right to be forgotten: redact every decision the user asked and every quote of
        `texts` (the user's messages) elsewhere, and drop the user's feedback
        (`core.stores.forgetting.forget_in`); returns the ids changed. When it returns, no
        file of the store holds the old words."""
        ...

    def flush(self) -> None:
        """Make everything accepted so far durable (a no-op for stores that never queue)."""
        ...

    def close(self) -> None:
        """Flush and release."""
        ...


class FeedbackStore(Protocol):
    """Feedback items, kept with their decision."""

    def add_feedback(self, decision_id: str, entry: Mapping[str, Any]) -> Decision:
        """Append one feedback item to a decision atomically (durable when this returns) and
        return the updated decision; raises UnknownDecision."""
        ...


class LessonDocuments(Protocol):
    """The memory ring's persisted routing lessons as a backend keeps them: documents keyed
    by "memory_id", with a change feed so that every process sharing the store sees the
    others' new lessons (`kinds.LessonRecords`, or a backend's own, e.g. TinyDB's journal)."""

    def get(self, key: str) -> Document | None: ...

    def all(self) -> list[Document]: ...

    def put_many(self, documents: Iterable[Mapping[str, Any]]) -> None: ...

    def remove(self, keys: Iterable[str]) -> None: ...

    def count(self) -> int: ...

    def version(self) -> int:
        """How many lesson changes (writes and removals) were ever made."""
        ...

    def changed_since(self, version: int) -> tuple[int, list[str] | None]:
        """(current version, keys written or removed after `version`); None for the keys
        when the feed does not reach back that far (read `all()` instead)."""
        ...


class LessonStore(Protocol):
    """The routing lessons as typed records (`core.stores.lesson.Lesson`), over a backend's
    `LessonDocuments` (`kinds.Lessons` converts), with the same change feed."""

    def get(self, key: str) -> Lesson | None: ...

    def all(self) -> list[Lesson]: ...

    def put_many(self, lessons: Iterable[Lesson]) -> None: ...

    def remove(self, keys: Iterable[str]) -> None: ...

    def count(self) -> int: ...

    def version(self) -> int:
        """How many lesson changes (writes and removals) were ever made."""
        ...

    def changed_since(self, version: int) -> tuple[int, list[str] | None]:
        """(current version, keys written or removed after `version`); None for the keys
        when the feed does not reach back that far (read `all()` instead)."""
        ...


class CaseStore(Protocol):
    """Unknown problems the dynamic tier saw, as documents keyed by "case_id": the message,
    its vector, the plan that answered it (or the boundary it hit), who confirmed or rejected
    it. Draft-Critique-Refine drafts from and criticises against them; evolution clusters
    them into new controllers; `brain evolution report` lists the boundaries."""

    def get(self, case_id: str) -> Document | None: ...

    def all(self) -> list[Document]: ...

    def view(self) -> Sequence[Mapping[str, Any]]:
        """Every case, read-only (`Collection.view`): what each dynamic decision reads."""
        ...

    def insert(self, document: Mapping[str, Any]) -> bool: ...

    def modify(self, case_id: str, change: Callable[[Document], None]) -> Document | None: ...

    def remove(self, keys: Iterable[str]) -> None: ...

    def count(self) -> int: ...


class TicketRecords(Protocol):
    """Tickets (`core.stores.records.Ticket`) keyed by id, plus the sequence local ids are
    numbered from."""

    def get(self, ticket_id: str) -> Ticket | None: ...

    def all(self) -> list[Ticket]: ...

    def by_requester(self, requester: str) -> list[Ticket]:
        """The requester's tickets (order unspecified)."""
        ...

    def mentioning(self, value: str) -> list[Ticket]:
        """The tickets with a text field equal to `value` or a title containing it, case
        aside (order unspecified)."""
        ...

    def insert(self, ticket: Ticket) -> bool:
        """Add a ticket unless its id exists (atomically); False when it existed."""
        ...

    def modify(self, ticket_id: str, change: Callable[[Ticket], None]) -> Ticket | None:
        """Atomically read, `change` in place and write back one ticket; None when absent
        (an exception raised by `change` leaves it untouched and propagates)."""
        ...

    def next_number(self) -> int:
        """The next number of the local id sequence (atomic, never handed out twice)."""
        ...

    def flush(self) -> None:
        """No file keeps an earlier version of a changed ticket after this (`Collection`)."""
        ...


class EventLedgerStore(Protocol):
    """Slack event ids (and message keys) already taken, with when they were taken."""

    def recent(self, limit: int) -> list[tuple[str, float]]:
        """The `limit` most recent keys, oldest first."""
        ...

    def record(self, claimed: Iterable[tuple[str, float]], *, keep: int) -> None:
        """Persist claimed keys, pruning the store to about the `keep` most recent."""
        ...


class MessageLinkStore(Protocol):
    """Slack message (channel, ts) -> decision id."""

    def all(self) -> list[MessageLink]: ...

    def add_many(self, links: Iterable[MessageLink]) -> None: ...


class AlertStore(Protocol):
    """On-call alerts (`core.stores.records.Alert`) keyed by alert id."""

    def get(self, alert_id: str) -> Alert | None: ...

    def save(self, alert: Alert) -> None: ...

    def modify(self, alert_id: str, change: Callable[[Alert], None]) -> Alert | None:
        """Atomically read, `change` in place and write back one alert; None when absent."""
        ...

    def pending(self) -> list[Alert]:
        """Alerts nobody acknowledged yet."""
        ...

    def all(self) -> list[Alert]:
        """Every alert (forgetting a user redacts theirs)."""
        ...


class ManifestStore(Protocol):
    """What was ingested from which source file (for idempotent re-ingest)."""

    def get(self, source: str) -> ManifestEntry | None: ...

    def put(self, entry: ManifestEntry) -> None: ...

    def remove(self, source: str) -> None: ...

    def all(self) -> list[ManifestEntry]: ...

    def clear(self) -> None: ...

    def count(self) -> int: ...


class Backend(Protocol):
    """What a storage backend provides; `core.stores.factory` builds the rest from it."""

    name: str

    def collection(
        self, name: str, *, key: KeyOf, table: str = "_default", sharded: bool = False
    ) -> Collection:
        """The collection `name` ("tickets", "slack/alerts"...); `sharded` ones may grow to
        100k documents and must cost the same per write at any size."""
        ...

    def decisions(self) -> DecisionAndFeedbackStore:
        """The decision log (which also keeps feedback)."""
        ...

    def close(self) -> None:
        """Release what the backend holds."""
        ...


class DecisionAndFeedbackStore(DecisionStore, FeedbackStore, Protocol):
    """A decision log that also keeps each decision's feedback."""


# -- optional: what backends shared by several replicas add --------------------------------------


@runtime_checkable
class EventClaims(Protocol):
    """An event ledger whose claim is atomic across every process sharing the store (the
    PostgreSQL one): a retry delivered to another replica finds the key taken."""

    def claim(self, keys: Sequence[str], at: float) -> bool:
        """Take every key, or none (False) when any of them was taken before."""
        ...


@runtime_checkable
class OwnedClaims(Protocol):
    """An event ledger whose claims have an owner and a state (claimed -> answered), so that
    an event acknowledged by a process that then died is answered by another (PostgreSQL,
    and the embedded ledger across a restart). A claim with an owner may be taken over only
    while it is unanswered and its owner is dead; `settle` is the compare-and-set that records
    the answer just before it is sent, so an answered event is never answered twice, and
    `confirm` records that Slack took it (a taker of a claim settled and never confirmed asks
    Slack whether the reply is there)."""

    def claim(
        self,
        keys: Sequence[str],
        at: float,
        *,
        owner: str | None = None,
        payload: Mapping[str, Any] | None = None,
    ) -> bool:
        """Take every key (or an unanswered claim of a dead owner), or none (False)."""
        ...

    def settle(self, keys: Sequence[str], owner: str) -> bool:
        """Mark `owner`'s claims answered; False (nothing changed) when another owner took
        any of them over."""
        ...

    def confirm(self, keys: Sequence[str], owner: str) -> None:
        """The answer `owner` was sending reached Slack."""
        ...

    def heartbeat(self, owner: str, ttl_s: float) -> None:
        """`owner` is alive for `ttl_s` seconds more."""
        ...

    def retire(self, owner: str) -> None:
        """`owner` stopped cleanly."""
        ...

    def orphans(self, owner: str, limit: int = 100) -> list[tuple[str, dict[str, Any], bool]]:
        """Take over unanswered claims of dead owners that kept their event's body: (key,
        body, whether the dead owner may have sent the answer already)."""
        ...


class OwedEvents(Protocol):
    """Events owed an answer in a one-process home, keyed by "key" (with their "payload"):
    `all()` is what was owed when the store was opened (a crashed run's)."""

    def all(self) -> list[Document]: ...

    def put_many(self, documents: Iterable[Mapping[str, Any]]) -> None: ...

    def remove(self, keys: Iterable[str]) -> None: ...


@runtime_checkable
class DecisionPages(Protocol):
    """A decision log read newest first, a page at a time, by keyset: the cursor says where
    the last page stopped, so any page costs what the first does (the admin console's list at
    100k decisions). Every built-in backend provides it."""

    def page(self, *, before: str | None, limit: int) -> tuple[list[Decision], str | None]:
        """Up to `limit` decisions older than `before` (None: the newest), newest first, and
        the cursor of the next page (None when there is no more)."""
        ...


@runtime_checkable
class LinkLookup(Protocol):
    """Message links written by other processes, found on demand (the PostgreSQL store)."""

    def lookup(self, channel: str, ts: str, *, thread: bool) -> MessageLink | None:
        """The link of message (channel, ts); with `thread`, else the latest link of the
        thread rooted at ts."""
        ...


@runtime_checkable
class Versioned(Protocol):
    """A store that says cheaply whether anyone changed it (lessons learnt by another
    replica): `version()` changes whenever any process writes it."""

    def version(self) -> int: ...


class Coordinator(Protocol):
    """Locks and leases across every process sharing the stores."""

    def serialized(self, key: str) -> AbstractContextManager[None]:
        """Run the block while holding the lock of `key` (e.g. one Slack thread)."""
        ...

    def lease(self, name: str, holder: str, ttl_s: float) -> bool:
        """Take or renew the lease `name` for `holder`; False while another holder has it."""
        ...

    def ping(self) -> None:
        """Raise unless the stores answer (for readiness checks)."""
        ...


class ArtifactStore(Protocol):
    """Named binary artifacts (fitted models) shared by every process on the stores. The
    store is trusted like the brain home: a model read from it is unpickled."""

    def get(self, name: str) -> bytes | None: ...

    def put(self, name: str, data: bytes) -> None: ...

    def remove_prefix(self, prefix: str) -> int:
        """Delete every artifact whose name starts with `prefix` (e.g. fits holding a
        forgotten user's messages); how many there were."""
        ...


@runtime_checkable
class ConversationStateStore(Protocol):
    """Each thread's conversation state (`core.stores.conversations`), shared by replicas."""

    def get(self, key: str) -> ConversationState | None:
        """The state of one session, or None."""
        ...

    def put(self, state: ConversationState) -> None:
        """Write one session's state (durably)."""
        ...

    def keys_of(self, user: str) -> list[str]:
        """The sessions a user wrote in."""
        ...

    def remove(self, keys: Iterable[str]) -> None:
        """Delete sessions by key."""
        ...
