"""Work a process would redo at every start, kept once per installation.

Every `brain` process that decides (a command, each `brain run` replica, each restart) built
the same things again from files that ship with the installation: the multilingual encoder's
tokenizer parsed from its SentencePiece model (0.55 s CPU), the incident category model fitted
on its examples (0.8 s). Both depend on nothing but the installation's files, so the result is
kept in the install cache (`core.text.embedder.install_cache_dir`, made by the install step)
under a name that carries the hash of everything it was built from: a change to any of them
names another file, and is built afresh. Nothing is written where the install cache does not
exist; a file that cannot be read back is built again and replaced, never trusted half-read.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

log = logging.getLogger(__name__)

Built = TypeVar("Built")


def kept_name(prefix: str, *parts: bytes | str) -> str:
    """`prefix`-<hash of parts>: the file name of a result built from exactly these inputs."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return f"{prefix}-{digest.hexdigest()[:16]}"


def kept_or_built(
    name: str,
    build: Callable[[], Built],
    *,
    read: Callable[[Path], Built],
    dump: Callable[[Built], bytes],
) -> Built:
    """The result kept as `name` in the install cache, else `build()` (then kept there, and
    other versions of it, `<prefix>-*` with the same suffix, removed)."""
    from core.text.embedder import install_cache_dir

    folder = install_cache_dir()
    kept = folder / name
    if kept.is_file():
        try:
            return read(kept)
        except Exception as exc:  # truncated or foreign: build again and replace it
            log.info("rebuilding %s (%s: %s)", name, type(exc).__name__, exc)
    built = build()
    if folder.is_dir():
        keep(kept, dump(built))
    return built


def keep(path: Path, data: bytes) -> None:
    """Write `data` as `path` by a rename, and remove the other versions of it (`<prefix>-*`
    with the same suffix); on a read-only installation, nothing (built at every start)."""
    from core.text.onnx_files import write_atomically

    prefix = path.stem.rsplit("-", 1)[0]
    try:
        for stale in path.parent.glob(f"{prefix}-*{path.suffix}"):
            if stale != path:
                stale.unlink(missing_ok=True)
        write_atomically(path, data)
    except OSError as exc:  # a read-only installation: build at every start, as before
        log.info("not keeping %s: %s", path.name, exc)
