"""The one place a storage backend is chosen: `open_stores(settings)`.

`[storage] backend` in the configuration (or `BRAIN_STORE_BACKEND`) names the backend; every
layer asks `open_stores` for the stores it needs and never names a backend itself. Stores are
opened on first use, so a command that needs only tickets does not touch the decision log.
"""

from __future__ import annotations

from functools import cached_property

from core.config import Settings
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
from core.stores.protocols import (
    AlertStore,
    Backend,
    DecisionAndFeedbackStore,
    EventLedgerStore,
    LessonStore,
    ManifestStore,
    MessageLinkStore,
    TicketRecords,
)

__all__ = ["Stores", "open_backend", "open_stores"]


def open_backend(settings: Settings) -> Backend:
    """The configured backend for the settings' brain home."""
    kind = settings.storage.backend
    if kind == "memory":
        from core.stores.memory import MemoryBackend

        return MemoryBackend.for_home(settings.home)
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
        """The memory ring's routing lessons."""
        return LessonRecords(
            self.backend.collection(
                "memory", key=field_key("memory_id"), table="memories", sharded=True
            ),
            self.backend.collection("memory_feed", key=field_key("key")),
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
        """Slack events (and message keys) already taken."""
        return EventLedgerRecords(self.backend.collection("slack/events", key=field_key("key")))

    @cached_property
    def links(self) -> MessageLinkStore:
        """Slack message -> decision links."""
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
