"""A small model fitted at build time and shipped beside its training data, else read from the
home's cache, else fitted there once: how the escalation and thread-continuation models are
opened. A damaged copy is passed over (and a fit replaces the cached one), never fatal."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, TypeVar


class SavedModel(Protocol):
    def save(self, path: Path) -> None: ...


class KeyedModel(SavedModel, Protocol):
    #: What the model was fitted on (its training rows, with or without the embedder).
    key: str


Model = TypeVar("Model", bound=SavedModel)


def shipped_file(package: str, name: str, key: str) -> Path:
    """Where the copy of model `name` fitted on data `key` is shipped inside `package`."""
    return Path(str(resources.files(package))) / f"{name}-{key}.npz"


def shipped_or_fitted(
    shipped: Path, cached: Path, load: Callable[[Path], Model], fit: Callable[[], Model]
) -> Model:
    """The shipped copy, else the cached one, else `fit()` (then cached)."""
    for path in (shipped, cached):
        if path.is_file():
            try:
                return load(path)
            except (OSError, ValueError, KeyError):
                continue  # a damaged copy: the next one, or a fit
    model = fit()
    model.save(cached)
    return model


def ship_fits(
    package: str, name: str, fit: Callable[[Any], KeyedModel], embed: Any | None
) -> list[tuple[KeyedModel, Path]]:
    """Build time: fit model `name` with the embedder (when there is one) and without, save
    both beside the data in `package`, and delete its copies of any other key (stale data).
    Returns each model with where it went."""
    shipped = []
    for with_embed in (embed, None) if embed is not None else (None,):
        model = fit(with_embed)
        path = shipped_file(package, name, model.key)
        model.save(path)
        shipped.append((model, path))
    kept = {path for _, path in shipped}
    for stale in shipped_file(package, name, "*").parent.glob(f"{name}-*.npz"):
        if stale not in kept:
            stale.unlink()
    return shipped
