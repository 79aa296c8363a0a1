"""The in-memory backend: every store in process memory, nothing on disk.

It proves that the store interfaces admit a second backend (the shared contract tests run on
it) and makes tests that need no persistence fast. `[storage] backend = "memory"` selects it;
all stores of one brain home in one process share the same memory, so a Brain, its controllers
and the Slack adapter see each other's records as they would on disk.
"""

from core.stores.memory.backend import MemoryBackend

__all__ = ["MemoryBackend"]
