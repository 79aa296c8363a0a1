"""The in-memory backend: every store in process memory, nothing on disk.

It proves that the store interfaces admit a second backend (the shared contract tests run on
it) and makes tests that need no persistence fast. `[storage] backend = "memory"` selects it;
all stores of one brain home in one process share the same memory, so a Brain, its controllers
and the Slack adapter see each other's records as they would on disk.
"""

from core.config import Settings
from core.stores.backends import BackendKind, Capabilities
from core.stores.memory.backend import MemoryBackend


def _open(settings: Settings) -> MemoryBackend:
    return MemoryBackend.for_home(settings.home)


#: Its registration (`core.stores.backends`): collections and a decision log only.
KIND = BackendKind("memory", Capabilities(), _open)

__all__ = ["KIND", "MemoryBackend"]
