"""The one place a storage backend is chosen: `open_stores(settings)`.

`[storage] backend` in the configuration (or `BRAIN_STORE_BACKEND`) names the backend; every
layer asks `open_stores` for the stores it needs and never names a backend itself. Stores are
opened on first use, so a command that needs only tickets does not touch the decision log.
"""

from __future__ import annotations

from functools import cached_property

from core.config import Settings
from core.stores.conversations import ConversationStates
from core.stores.kinds import (
    AlertRecords,
    EventLedgerRecords,
    LessonRecords,
    ManifestRecords,
    MessageLinkRecords,
    TicketCollection,
    field_key,
    link_key,
)
from core.stores.local import LocalCoordinator
from core.stores.protocols import (
    AlertStore,
    ArtifactStore,
    Backend,
    CaseStore,
    Collection,
    Coordinator,
    DecisionAndFeedbackStore,
    EventLedgerStore,
    LessonStore,
    ManifestStore,
    MessageLinkStore,
    OwedEvents,
    TicketRecords,
)

__all__ = ["Stores", "open_backend", "open_stores"]


def open_backend(settings: Settings) -> Backend:
    """The configured backend for the settings' brain home."""
    kind = settings.storage.backend
    if kind == "memory":
        from core.stores.memory import MemoryBackend

        return MemoryBackend.for_home(settings.home)
    if kind == "postgres":
        from core.stores.postgres import PostgresBackend

        storage = settings.storage
        assert storage.database_url is not None  # checked by StorageConfig
        return PostgresBackend(
            storage.database_url.get_secret_value(),
            schema=storage.database_schema,
            pool_size=storage.pool_size,
        )
    from core.stores.tinydb import TinyDBBackend

    return TinyDBBackend(settings.home)


class Stores:
    """Every store of one brain home, each opened on first use."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    @cached_property
    def decisions(self) -> DecisionAndFeedbackStore:
        """The decision log; it also keeps each decision's feedback (`feedback`)."""
        return self.backend.decisions()

    @property
    def feedback(self) -> DecisionAndFeedbackStore:
        """Feedback is stored with its decision: the same store as `decisions`."""
        return self.decisions

    @cached_property
    def lessons(self) -> LessonStore:
        """The memory ring's routing lessons (a backend may put its own in front of the
        generic records, e.g. TinyDB's journal: `lessons(base)`)."""
        base = LessonRecords(
            self.backend.collection(
                "memory", key=field_key("memory_id"), table="memories", sharded=True
            ),
            self.backend.collection("memory_feed", key=field_key("key")),
        )
        own = getattr(self.backend, "lessons", None)
        if callable(own):
            lessons: LessonStore = own(base)
            return lessons
        return base

    @cached_property
    def cases(self) -> CaseStore:
        """The dynamic tier's unknown cases and boundary signals (`brain.dynamic.cases`)."""
        return self.backend.collection(
            "dynamic_cases", key=field_key("case_id"), table="cases", sharded=True
        )

    @cached_property
    def tickets(self) -> TicketRecords:
        """The local ticket store's records."""
        return TicketCollection(
            self.backend.collection("tickets", key=field_key("id"), table="tickets", sharded=True),
            self.backend.collection("ticket_sequence", key=field_key("key")),
        )

    @cached_property
    def events(self) -> EventLedgerStore:
        """Slack events (and message keys) already taken; a shared backend's own ledger
        claims atomically across replicas (`protocols.EventClaims`)."""
        own = getattr(self.backend, "events", None)
        if callable(own):
            ledger: EventLedgerStore = own()
            return ledger
        return EventLedgerRecords(self.backend.collection("slack/events", key=field_key("key")))

    @cached_property
    def owed_events(self) -> OwedEvents:
        """Slack events acknowledged and still owed an answer, with their body, keyed by
        "key": what a restart of the embedded default answers after a crash (a backend's own,
        e.g. TinyDB's append-only journal, else a collection; a shared backend's ledger keeps
        them itself: `protocols.OwnedClaims`)."""
        own = getattr(self.backend, "owed_events", None)
        if callable(own):
            found: OwedEvents = own()
            return found
        return self.backend.collection("slack/owed", key=field_key("key"))

    @cached_property
    def sessions(self) -> Collection | None:
        """Conversation sessions shared by every replica (None: each process keeps its own
        in memory, the embedded default)."""
        own = getattr(self.backend, "sessions", None)
        if callable(own):
            found: Collection = own()
            return found
        return None

    @cached_property
    def conversations(self) -> ConversationStates:
        """Each thread's conversation state, on every backend (a shared backend's `sessions`
        collection when it has one, so every replica reads the same threads)."""
        own = getattr(self.backend, "sessions", None)
        if callable(own):
            return ConversationStates(own())
        return ConversationStates(self.backend.collection("conversations", key=field_key("key")))

    @cached_property
    def coordinator(self) -> Coordinator:
        """Locks and leases across the processes sharing these stores (in-process ones for
        backends that serve one process)."""
        own = getattr(self.backend, "coordinator", None)
        if callable(own):
            found: Coordinator = own()
            return found
        return LocalCoordinator()

    @cached_property
    def artifacts(self) -> ArtifactStore | None:
        """Fitted models shared across replicas (None: each home keeps its own, on disk)."""
        own = getattr(self.backend, "artifacts", None)
        if callable(own):
            found: ArtifactStore = own()
            return found
        return None

    def ping(self) -> None:
        """Raise unless the stores answer (a cheap readiness check)."""
        self.coordinator.ping()

    @cached_property
    def links(self) -> MessageLinkStore:
        """Slack message -> decision links (a shared backend's own can be asked for links
        other replicas wrote: `protocols.LinkLookup`)."""
        own = getattr(self.backend, "links", None)
        if callable(own):
            found: MessageLinkStore = own()
            return found
        return MessageLinkRecords(self.backend.collection("slack/messages", key=link_key))

    @cached_property
    def alerts(self) -> AlertStore:
        """On-call alerts."""
        return AlertRecords(self.backend.collection("slack/alerts", key=field_key("alert_id")))

    @cached_property
    def manifest(self) -> ManifestStore:
        """What the knowledge base ingested from which file."""
        return ManifestRecords(
            self.backend.collection("kb_manifest", key=field_key("source"), table="documents")
        )

    def close(self) -> None:
        """Flush and release whatever was opened."""
        if "decisions" in self.__dict__:
            self.decisions.close()
        self.backend.close()


def open_stores(settings: Settings) -> Stores:
    """The stores of `settings.home` on the configured backend."""
    return Stores(open_backend(settings))
