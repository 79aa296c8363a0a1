"""A throwaway copy of a brain home that a replay decides in, so nothing real is written.

The copy holds everything the decisions read (controllers, the knowledge base, the fitted
models, tickets, lessons, the dynamic tier's cases) but no decision log: the replayed messages
rebuild their sessions in order, as they happened. On a backend whose stores every replica
shares (`Capabilities.shared`: PostgreSQL) the copy is in-process memory with the lessons and
cases copied in through the store interfaces.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from core.config import ConfigError, Settings
from core.files import copy_tree
from core.stores import open_stores
from core.stores.backends import backend_kind

#: What is never copied: the decision log and what belongs to the running bot (Slack state).
SKIPPED = ("decisions", "decisions.lock", "slack", "console")


def parse_overrides(pairs: Sequence[str]) -> dict[str, str]:
    """`["a.b=1"]` -> `{"a.b": "1"}`; raises ValueError on a pair without `=`."""
    found: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--set takes KEY=VALUE, not {pair!r}")
        found[key.strip()] = value.strip()
    return found


def with_overrides(settings: Settings, overrides: Mapping[str, str]) -> Settings:
    """The settings with `section.key=value` pairs applied (values read as JSON when they
    parse, else as text) and validated like the configuration file."""
    data = settings.model_dump()
    for dotted, raw in overrides.items():
        *path, key = dotted.split(".")
        target: Any = data
        for part in path:
            if not isinstance(target, dict) or part not in target:
                raise ConfigError(f"unknown setting {dotted!r}")
            target = target[part]
        if not isinstance(target, dict) or key not in target:
            raise ConfigError(f"unknown setting {dotted!r}")
        try:
            target[key] = json.loads(raw)
        except json.JSONDecodeError:
            target[key] = raw
    try:
        return Settings.model_validate(data)  # secrets stay SecretStr, never printed
    except ValueError as exc:
        raise ConfigError(f"invalid --set: {exc}") from exc


@contextmanager
def sandbox(
    settings: Settings, *, controllers: Sequence[Path] = (), name: str = "replay"
) -> Iterator[Settings]:
    """Settings of a throwaway copy of `settings.home` (removed afterwards), with the
    controller files in `controllers` added to its `controllers/` folder."""
    root = Path(tempfile.mkdtemp(prefix=f"brain-{name}-"))
    home = root / "home"
    try:
        if settings.home.is_dir():
            copy_tree(  # sparse: the vector store's preallocated files stay holes
                settings.home,
                home,
                ignore=lambda folder, names: (
                    [n for n in names if Path(folder) == settings.home and n in SKIPPED]
                    + [n for n in names if n.endswith(".lock")]
                ),
            )
        else:
            home.mkdir(parents=True)
        for path in controllers:
            (home / "controllers").mkdir(exist_ok=True)
            shutil.copy2(path, home / "controllers" / path.name)
        copied = settings.model_copy(update={"home": home})
        if backend_kind(settings.storage.backend).capabilities.shared:
            copied = _in_memory(settings, copied)
        yield copied
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _in_memory(real: Settings, copied: Settings) -> Settings:
    """Memory stores for the copy, holding the shared stores' lessons and cases."""
    memory = copied.model_copy(
        update={"storage": copied.storage.model_copy(update={"backend": "memory"})}
    )
    source, target = open_stores(real), open_stores(memory)
    try:
        target.lessons.put_many(source.lessons.all())
        for case in source.cases.all():
            target.cases.insert(case)
    finally:
        source.close()
    return memory
