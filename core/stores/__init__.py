"""Record stores behind interfaces: decisions and feedback, memory lessons, tickets, the Slack
ledger, message links and alerts, and the KB manifest.

`open_stores(settings)` is the way in; `protocols` says what each store promises; backends
live in `tinydb` (default) and `memory`. Nothing outside `core.stores.tinydb` imports TinyDB
(an import-linter contract keeps it so).
"""

from core.stores.factory import Stores, open_backend, open_stores
from core.stores.records import ManifestEntry, MessageLink

__all__ = ["ManifestEntry", "MessageLink", "Stores", "open_backend", "open_stores"]
