"""Read-only artefacts loaded once per process while their files are unchanged.

Every `Brain` a process opens read the same shipped models again: the escalation set's 4,000
rows parsed and hashed to find its fitted file, the routing model's TF-IDF vocabularies
rebuilt from its `.npz` (about 50 ms of a warm `brain ask` in a fresh home). A long-running
bot opens one brain, but the command line called in-process, the console's what-if replay and
a test process open many. Here a load is kept and handed out again while each file it read
has the same version: its inode, size and modification time. A file replaced by a refit or a
new install (always written to a new file and renamed over the old one) has a new inode, so it
is loaded afresh; nothing is cached for a path that cannot be read.

What is cached must be read-only after loading: the callers hand the same object to every
brain of the process.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from importlib import resources
from pathlib import Path
from typing import Generic, TypeVar

Loaded = TypeVar("Loaded")
#: A file's version: (inode, modification time in ns, size); None when it cannot be read.
Version = tuple[int, int, int] | None
#: Entries kept per cache: the shipped files of a process and a few homes' own fits.
DEFAULT_LIMIT = 8


def version_of(path: Path) -> Version:
    """The version of the file at `path`, or None when there is none."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_ino, stat.st_mtime_ns, stat.st_size)


def resource_path(package: str, name: str) -> Path | None:
    """The file `name` of `package` on disk, or None (a package read from a zip)."""
    found = resources.files(package).joinpath(name)
    return found if isinstance(found, Path) else None


class LoadedFiles(Generic[Loaded]):
    """`build()` results kept by a caller's key while the versions of the files it read hold.

    `get(key, files, build)`: the value built for `key` when every file of `files` still has
    the version it had then, else `build()` (kept when every file could be read). The least
    recently used entries beyond `limit` are dropped, so a process opening many homes keeps
    only the last few homes' own files."""

    def __init__(self, *, limit: int = DEFAULT_LIMIT) -> None:
        self.limit = limit
        self._guard = threading.Lock()
        self._entries: OrderedDict[Hashable, tuple[tuple[Version, ...], Loaded]] = OrderedDict()

    def get(
        self, key: Hashable, files: Sequence[Path | None], build: Callable[[], Loaded]
    ) -> Loaded:
        """The value for `key`, built again only when one of `files` changed."""
        versions = tuple(version_of(path) if path is not None else None for path in files)
        with self._guard:
            cached = self._entries.get(key)
            if cached is not None and cached[0] == versions:
                self._entries.move_to_end(key)
                return cached[1]
        value = build()
        if versions and None not in versions:
            with self._guard:
                self._entries[key] = (versions, value)
                self._entries.move_to_end(key)
                while len(self._entries) > self.limit:
                    self._entries.popitem(last=False)
        return value

    def load(self, path: Path, load: Callable[[Path], Loaded], *key: Hashable) -> Loaded:
        """`load(path)`, kept while the file at `path` is unchanged (`key`: what else the
        loaded value depends on)."""
        return self.get((str(path), *key), (path,), lambda: load(path))

    def clear(self) -> None:
        """Forget every entry."""
        with self._guard:
            self._entries.clear()
