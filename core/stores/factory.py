"""The one place a storage backend is chosen: `open_stores(settings)`.

`[storage] backend` in the configuration (or `BRAIN_STORE_BACKEND`) names a backend registered
in `core.stores.backends`; every layer asks `open_stores` for the stores it needs and never
names a backend itself. Stores are
opened on first use, so a command that needs only tickets does not touch the decision log.
"""

from __future__ import annotations

from functools import cached_property

from core.config import Settings
from core.stores.backends import BackendBase, Capabilities, backend_kind
from core.stores.conversations import ConversationStates
from core.stores.kinds import (
    AlertRecords,
    EventLedgerRecords,
    LessonRecords,
    Lessons,
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


def open_backend(settings: Settings) -> BackendBase:
    """The configured backend for the settings' brain home (`[storage] backend`, by name)."""
    return backend_kind(settings.storage.backend).open(settings)


class Stores:
    """Every store of one brain home, each opened on first use."""

    def __init__(
        self, backend: BackendBase, capabilities: Capabilities, settings: Settings
    ) -> None:
        self.backend = backend
        #: What the backend brings itself (its registration's `Capabilities`).
        self.capabilities = capabilities
        self.settings = settings

    def reopened(self) -> Stores:
        """A fresh handle on the same stores (a readiness check notices stores that went
        away since they were first opened); the caller closes it."""
        return open_stores(self.settings)

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
        if self.capabilities.lessons:
            return Lessons(self.backend.lessons(base))
        return Lessons(base)

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
    def ticket_outbox(self) -> Collection:
        """Ticket changes waiting for a ticket system (Jira), keyed by "change_id": written
        before they are sent, so an outage loses none (`controllers.ticket_systems`)."""
        return self.backend.collection("ticket_outbox", key=field_key("change_id"))

    @cached_property
    def ticket_sync(self) -> Collection:
        """What is known of each synced ticket's issue in the ticket system, and the poll's
        cursor, keyed by "key"."""
        return self.backend.collection("ticket_sync", key=field_key("key"))

    @cached_property
    def events(self) -> EventLedgerStore:
        """Slack events (and message keys) already taken; a shared backend's own ledger
        claims atomically across replicas (`protocols.EventClaims`)."""
        if self.capabilities.events:
            return self.backend.events()
        return EventLedgerRecords(self.backend.collection("slack/events", key=field_key("key")))

    @cached_property
    def owed_events(self) -> OwedEvents:
        """Slack events acknowledged and still owed an answer, with their body, keyed by
        "key": what a restart of the embedded default answers after a crash (a backend's own,
        e.g. TinyDB's append-only journal, else a collection; a shared backend's ledger keeps
        them itself: `protocols.OwnedClaims`)."""
        if self.capabilities.owed_events:
            return self.backend.owed_events()
        return self.backend.collection("slack/owed", key=field_key("key"))

    @cached_property
    def sessions(self) -> Collection | None:
        """Conversation sessions shared by every replica (None: each process keeps its own
        in memory, the embedded default)."""
        if self.capabilities.sessions:
            return self.backend.sessions()
        return None

    @cached_property
    def conversations(self) -> ConversationStates:
        """Each thread's conversation state, on every backend (a shared backend's `sessions`
        collection when it has one, so every replica reads the same threads)."""
        if self.capabilities.sessions:
            return ConversationStates(self.backend.sessions())
        return ConversationStates(self.backend.collection("conversations", key=field_key("key")))

    @cached_property
    def coordinator(self) -> Coordinator:
        """Locks and leases across the processes sharing these stores (in-process ones for
        backends that serve one process)."""
        if self.capabilities.coordinator:
            return self.backend.coordinator()
        return LocalCoordinator()

    @cached_property
    def artifacts(self) -> ArtifactStore | None:
        """Fitted models shared across replicas (None: each home keeps its own, on disk)."""
        if self.capabilities.artifacts:
            return self.backend.artifacts()
        return None

    def ping(self) -> None:
        """Raise unless the stores answer (a cheap readiness check)."""
        self.coordinator.ping()

    @cached_property
    def links(self) -> MessageLinkStore:
        """Slack message -> decision links (a shared backend's own can be asked for links
        other replicas wrote: `protocols.LinkLookup`)."""
        if self.capabilities.links:
            return self.backend.links()
        return MessageLinkRecords(self.backend.collection("slack/messages", key=link_key))

    @cached_property
    def alerts(self) -> AlertStore:
        """On-call alerts."""
        return AlertRecords(self.backend.collection("slack/alerts", key=field_key("alert_id")))

    @cached_property
    def installations(self) -> Collection:
        """Slack workspaces that installed the app (OAuth), keyed by "key"; their bot tokens
        are encrypted by the bot before they get here (`bot.oauth`)."""
        return self.backend.collection("slack/installations", key=field_key("key"))

    @cached_property
    def oauth_states(self) -> Collection:
        """OAuth `state` values issued by /slack/install, keyed by "state" (used once)."""
        return self.backend.collection("slack/oauth_states", key=field_key("state"))

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
    kind = backend_kind(settings.storage.backend)
    return Stores(kind.open(settings), kind.capabilities, settings)
