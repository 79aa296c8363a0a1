"""The TinyDB backend (the default): JSON files under the brain home, crash-safe and shared
safely by several processes. The only package of the project that imports `tinydb`."""

from core.stores.tinydb.backend import TinyDBBackend

__all__ = ["TinyDBBackend"]
