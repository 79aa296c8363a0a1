"""Vector stores by name: each registers a `VectorStoreKind` (its name, what it can do, and
how it opens one collection from Settings).

The built-ins are "edge" (Qdrant Edge, embedded under `BRAIN_HOME/vectors/`) and "server" (a
Qdrant server through qdrant-client), imported only when chosen; another distribution adds one
under the `brain.vector_stores` entry-point group (a `VectorStoreKind`). `[knowledge]
vector_store` names the one a home uses; unset, it is "server" when `qdrant_url`
(`BRAIN_QDRANT_URL`) is set and "edge" otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from core.config import Settings
from core.errors import ConfigError
from core.plugins import load, registered
from knowledge.vectors.base import VectorStore

__all__ = [
    "ENTRY_POINT_GROUP",
    "VectorCapabilities",
    "VectorStoreKind",
    "chosen_vector_store",
    "vector_store_kind",
    "vector_store_kinds",
]

ENTRY_POINT_GROUP = "brain.vector_stores"


@dataclass(frozen=True, slots=True)
class VectorCapabilities:
    """What a vector store is, for the operator choosing one."""

    #: Several processes (replicas) may use the same collections at once.
    shared: bool = False
    #: Lives inside the brain home (copied and removed with it).
    in_home: bool = False


#: How a kind opens one collection: (settings, collection name, dense size or None).
VectorOpener = Callable[[Settings, str, int | None], VectorStore]


@dataclass(frozen=True, slots=True)
class VectorStoreKind:
    """One registered vector store: its name, capabilities and opener."""

    name: str
    capabilities: VectorCapabilities
    open: VectorOpener


#: The built-in vector stores: name -> "module:attribute" of their `VectorStoreKind`.
BUILTIN_VECTOR_STORES: dict[str, str] = {
    "edge": "knowledge.vectors.edge_kind:KIND",
    "server": "knowledge.vectors.server_kind:KIND",
}


@cache
def vector_store_kinds() -> dict[str, str]:
    """Every registered vector store: name -> where its `VectorStoreKind` is (built-ins first;
    an entry point may not take a built-in's name). Read once per process."""
    return registered(BUILTIN_VECTOR_STORES, ENTRY_POINT_GROUP, "vector store")


def chosen_vector_store(settings: Settings) -> str:
    """The name of the vector store `settings` use (see the module docstring)."""
    knowledge = settings.knowledge
    if knowledge.vector_store:
        return knowledge.vector_store
    return "server" if knowledge.qdrant_url else "edge"


def vector_store_kind(name: str) -> VectorStoreKind:
    """The vector store registered as `name`; ConfigError naming the registered ones."""
    known = vector_store_kinds()
    if name not in known:
        raise ConfigError(
            f"[knowledge] vector_store {name!r} is not a registered vector store "
            f"(registered: {', '.join(known)})"
        )
    kind = load(known[name])
    if not isinstance(kind, VectorStoreKind) or kind.name != name:
        raise ConfigError(f"vector store {name!r} does not register a VectorStoreKind of it")
    return kind
