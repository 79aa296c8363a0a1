"""Store backends by name: each registers a `BackendKind` (its name, what it brings beyond
collections and a decision log, and how it opens from Settings).

The built-ins (`tinydb`, `memory`, `postgres`) are named here and imported only when chosen (so
PostgreSQL's driver is never imported by a TinyDB home); another distribution adds one under
the `brain.store_backends` entry-point group (a `BackendKind`). `[storage] backend` names the
one a home uses; `core.stores.factory.Stores` asks the kind's `Capabilities` which of the
backend's own stores to use instead of the generic records built on its collections.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from core.config import Settings
from core.errors import ConfigError, StorageError
from core.plugins import load, registered
from core.stores.protocols import (
    ArtifactStore,
    Collection,
    Coordinator,
    DecisionAndFeedbackStore,
    EventLedgerStore,
    KeyOf,
    LessonDocuments,
    MessageLinkStore,
    OwedEvents,
)

if TYPE_CHECKING:
    from core.stores.kinds import LessonRecords

__all__ = [
    "ENTRY_POINT_GROUP",
    "BackendBase",
    "BackendKind",
    "Capabilities",
    "backend_kind",
    "backend_kinds",
]

ENTRY_POINT_GROUP = "brain.store_backends"


@dataclass(frozen=True, slots=True)
class Capabilities:
    """The backend's own stores `Stores` uses (each True one is a method of the backend of
    the same name, see `protocols.Backend`); a False one gets the generic record on a
    collection, or none (sessions, artifacts: each process keeps its own)."""

    #: Routing lessons with the backend's own journal in front (`lessons(base)`).
    lessons: bool = False
    #: An event ledger claiming atomically across replicas (`events()`).
    events: bool = False
    #: Events owed an answer kept by the backend itself (`owed_events()`).
    owed_events: bool = False
    #: Conversation sessions shared by every replica (`sessions()`).
    sessions: bool = False
    #: Locks and leases across processes (`coordinator()`).
    coordinator: bool = False
    #: Fitted models shared by the replicas (`artifacts()`).
    artifacts: bool = False
    #: Message links found on demand across replicas (`links()`).
    links: bool = False
    #: Every replica reads and writes the same stores at once (a database server): what a
    #: process keeps of them is read again where another process may have written, and a
    #: what-if replay decides in memory copies instead of a copy of the home's files.
    shared: bool = False


class BackendBase:
    """Base of every backend (`protocols.Backend`): collections and a decision log, plus the
    own stores its kind's `Capabilities` declare (each one it does not declare refuses)."""

    name: str = ""

    def collection(
        self, name: str, *, key: KeyOf, table: str = "_default", sharded: bool = False
    ) -> Collection:
        raise NotImplementedError

    def decisions(self) -> DecisionAndFeedbackStore:
        raise NotImplementedError

    def close(self) -> None:
        return None

    def _lacks(self, what: str) -> StorageError:
        return StorageError(f"the {self.name} store backend declares no own {what}")

    def lessons(self, base: LessonRecords) -> LessonDocuments:
        raise self._lacks("lessons")

    def events(self) -> EventLedgerStore:
        raise self._lacks("event ledger")

    def owed_events(self) -> OwedEvents:
        raise self._lacks("owed events")

    def sessions(self) -> Collection:
        raise self._lacks("sessions")

    def coordinator(self) -> Coordinator:
        raise self._lacks("coordinator")

    def artifacts(self) -> ArtifactStore:
        raise self._lacks("artifacts")

    def links(self) -> MessageLinkStore:
        raise self._lacks("message links")


@dataclass(frozen=True, slots=True)
class BackendKind:
    """One registered backend: its name, capabilities and opener."""

    name: str
    capabilities: Capabilities
    open: Callable[[Settings], BackendBase]


#: The built-in backends: name -> "module:attribute" of their `BackendKind`.
BUILTIN_BACKENDS: dict[str, str] = {
    "tinydb": "core.stores.tinydb:KIND",
    "memory": "core.stores.memory:KIND",
    "postgres": "core.stores.postgres:KIND",
}


def _load(reference: str) -> BackendKind:
    found = load(reference)
    if not isinstance(found, BackendKind):
        raise TypeError(f"{reference} is not a core.stores.backends.BackendKind")
    return found


@cache
def backend_kinds() -> dict[str, str]:
    """Every registered backend: name -> where its `BackendKind` is (built-ins first; an
    entry point may not take a built-in's name). Read once per process."""
    return registered(BUILTIN_BACKENDS, ENTRY_POINT_GROUP, "store backend")


def backend_kind(name: str) -> BackendKind:
    """The backend registered as `name`; ConfigError naming the registered ones otherwise."""
    known = backend_kinds()
    if name not in known:
        raise ConfigError(
            f"[storage] backend {name!r} is not a registered store backend "
            f"(registered: {', '.join(known)})"
        )
    kind = _load(known[name])
    if kind.name != name:
        raise ConfigError(f"store backend {name!r} registers itself as {kind.name!r}")
    return kind
