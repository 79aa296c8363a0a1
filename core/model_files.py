"""A small model fitted at build time and shipped beside its training data, else read from the
home's cache, else fitted there once: how the escalation and thread-continuation models are
opened. A damaged copy is passed over (and a fit replaces the cached one), never fatal.

Each brain a process opens finds the same model: the training rows are read and hashed once
per process while their files are unchanged (`sources`), and a fitted file is loaded once
while it is unchanged (`core.loaded_files`); the loaded models are frozen and shared."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from core.loaded_files import LoadedFiles, resource_path


class SavedModel(Protocol):
    def save(self, path: Path) -> None: ...


class KeyedModel(SavedModel, Protocol):
    #: What the model was fitted on (its training rows, with or without the embedder).
    key: str


Model = TypeVar("Model", bound=SavedModel)
Row = TypeVar("Row")
Embed = TypeVar("Embed")

#: Each model's training rows and key, by (package, name, with the embedder).
_KEYS: LoadedFiles[tuple[Sequence[Any], str]] = LoadedFiles()
#: Loaded model files, by path and key.
_MODELS: LoadedFiles[Any] = LoadedFiles()


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


@dataclass(frozen=True, slots=True)
class ModelFiles(Generic[Row, Embed, Model]):
    """How one small model is kept: stored as `name`-<key>.npz, the key saying what its
    weights depend on (its training rows, with or without the embedder's block)."""

    name: str
    #: The training rows, read when the model is opened (not when its module is imported).
    rows: Callable[[], Sequence[Row]]
    model_key: Callable[[Sequence[Row], bool], str]
    fit: Callable[[Sequence[Row], Embed | None], Model]
    load: Callable[[Path, str], Model]
    package: str = "brain.data"
    #: The package files (package, name) that `rows` and `model_key` read: while none of them
    #: changed, the rows and their key are not read again (none named: read at every open).
    sources: tuple[tuple[str, str], ...] = ()

    def load_or_fit(self, cache_dir: Path, embed: Embed | None) -> Model:
        """The model for the training rows: the copy shipped in `package` for their key, else
        the one cached in `cache_dir`, else a fresh fit (then cached there)."""
        rows, key = self.rows_and_key(embed is not None)
        return shipped_or_fitted(
            shipped_file(self.package, self.name, key),
            cache_dir / f"{self.name}-{key}.npz",
            load=lambda path: _MODELS.load(path, lambda at: self.load(at, key), key),
            fit=lambda: self.fit(rows, embed),
        )

    def rows_and_key(self, with_embed: bool) -> tuple[Sequence[Row], str]:
        """The training rows and the key of a model fitted on them (with the embedder's
        block or without)."""

        def read() -> tuple[Sequence[Row], str]:
            rows = self.rows()
            return rows, self.model_key(rows, with_embed)

        files = [resource_path(package, name) for package, name in self.sources] or [None]
        return _KEYS.get((self.package, self.name, with_embed), files, read)


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
