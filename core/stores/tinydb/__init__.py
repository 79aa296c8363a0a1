"""The TinyDB backend (the default): JSON files under the brain home, crash-safe and shared
safely by several processes. The only package of the project that imports `tinydb`."""

from core.config import Settings
from core.stores.backends import BackendKind, Capabilities
from core.stores.tinydb.backend import TinyDBBackend


def _open(settings: Settings) -> TinyDBBackend:
    return TinyDBBackend(settings.home)


#: Its registration (`core.stores.backends`): lessons and owed events behind its own journals.
KIND = BackendKind("tinydb", Capabilities(lessons=True, owed_events=True), _open)

__all__ = ["KIND", "TinyDBBackend"]
