"""Things registered by name: the built-ins of a kind, plus other distributions' entry points.

Store backends (`core.stores.backends`) and vector stores (`knowledge.vectors.kinds`) are
found the same way: the built-ins first, then an entry-point group, where a name a built-in
(or an earlier entry point) holds is skipped with a warning; each is a "module:attribute"
reference, imported only when chosen.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Mapping
from importlib import metadata

log = logging.getLogger(__name__)


def registered(builtins: Mapping[str, str], group: str, what: str) -> dict[str, str]:
    """Name -> "module:attribute" of every registered `what` (built-ins first)."""
    found = dict(builtins)
    for entry in sorted(metadata.entry_points(group=group), key=lambda e: e.name):
        if entry.name in found:
            log.warning("skipped %s %s: the name is taken", what, entry.name)
        else:
            found[entry.name] = entry.value
    return found


def load(reference: str) -> object:
    """The object a "module:attribute" reference names (its module imported now)."""
    module, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module), attribute)
