"""A small model fitted at build time and shipped beside its training data, else read from the
home's cache, else fitted there once: how the escalation and thread-continuation models are
opened. A damaged copy is passed over (and a fit replaces the cached one), never fatal.

Each brain a process opens finds the same model: the training rows are read and hashed once
per process while their files are unchanged (`sources`), and a fitted file is loaded once
while it is unchanged (`core.loaded_files`); the loaded models are frozen and shared.

Finding the model needs only its key, and computing the key reads and hashes every training
row (the escalation and continuation sets: 0.17 s CPU in each new `brain` process). The key is
therefore kept once per installation (`core.install_kept`), named by the size and time of
every file it is computed from: the rows' `sources` and every module of the package whose code
computes it; the rows are read only when a model has to be fitted."""

from __future__ import annotations

import ast
import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from core.cues import SUFFIX
from core.loaded_files import LoadedFiles, resource_path
from core.safe_yaml import load_shipped_yaml


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
#: Each model's key alone, by (package, name, with the embedder).
_KEYS_ALONE: LoadedFiles[str] = LoadedFiles()
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
        with_embed = embed is not None
        key = self.key(with_embed)
        return shipped_or_fitted(
            shipped_file(self.package, self.name, key),
            cache_dir / f"{self.name}-{key}.npz",
            load=lambda path: _MODELS.load(path, lambda at: self.load(at, key), key),
            fit=lambda: self.fit(self.rows_and_key(with_embed)[0], embed),
        )

    def key(self, with_embed: bool) -> str:
        """The key of a model fitted on the training rows (`rows_and_key`'s), without reading
        the rows where this installation kept it for the same files."""
        files = self._source_files()
        return _KEYS_ALONE.get(
            (self.package, self.name, with_embed), files, lambda: self._kept_key(with_embed)
        )

    def _kept_key(self, with_embed: bool) -> str:
        from core.install_kept import kept_name, kept_or_built

        def computed() -> str:
            return self.rows_and_key(with_embed)[1]

        inputs = _versions_of([*self._source_files(), *_code_files(self.model_key)])
        if inputs is None:
            return computed()
        return kept_or_built(
            kept_name(f"{self.name}-key-{int(with_embed)}", inputs) + ".txt",
            computed,
            read=_read_key,
            dump=str.encode,
        )

    def _source_files(self) -> list[Path | None]:
        return [resource_path(package, name) for package, name in self.sources] or [None]

    def rows_and_key(self, with_embed: bool) -> tuple[Sequence[Row], str]:
        """The training rows and the key of a model fitted on them (with the embedder's
        block or without)."""

        def read() -> tuple[Sequence[Row], str]:
            rows = self.rows()
            return rows, self.model_key(rows, with_embed)

        return _KEYS.get((self.package, self.name, with_embed), self._source_files(), read)


def _code_files(function: Callable[..., Any]) -> list[Path | None]:
    """Every module of the top-level package that defines `function`: the code a model key
    is computed by (its feature layout, its settings, `code_digest`) is among them."""
    top = function.__module__.split(".")[0]
    try:
        root = Path(str(resources.files(top)))
    except (ModuleNotFoundError, TypeError):
        return [None]
    found: list[Path | None] = [*sorted(root.rglob("*.py")), *sorted(root.rglob(f"*{SUFFIX}"))]
    return found or [None]


def _versions_of(files: Sequence[Path | None]) -> str | None:
    """Each file's path, size and modification time, one a line (None when one is missing)."""
    lines = []
    for path in files:
        if path is None:
            return None
        try:
            stat = path.stat()
        except OSError:
            return None
        lines.append(f"{path}\t{stat.st_size}\t{stat.st_mtime_ns}")
    return "\n".join(lines)


def _read_key(path: Path) -> str:
    key = path.read_text(encoding="utf-8").strip()
    if not key or not key.isalnum():
        raise ValueError("not a kept key")
    return key


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


def code_digest(root: str, within: str) -> str:
    """A digest of the code of module `root` and of every module of package `within` it
    imports, directly or through another: what a model's input is computed by, beside the data
    its key already hashes. The modules are read as source, never imported. Each is hashed as
    its syntax tree without docstrings, so a comment, a docstring or a reformatting keeps the
    key while any change to what the code computes moves it (a hand-bumped version would be
    forgotten, and a raw byte hash would refit for every comment). A module's cue file
    (`core.cues`: the words and patterns it reads) is part of its code and hashed as its
    data, so moving a cue list from code to its file moves the key once, and a changed cue
    moves it again."""
    return _code_digest(root, within)


@lru_cache(maxsize=8)
def _code_digest(root: str, within: str) -> str:
    digest = hashlib.sha256()
    for name, tree in sorted(_closure(root, within).items()):
        digest.update(f"{name}\n{ast.unparse(tree)}\n".encode())
        cue_file = _cue_file(name)
        if cue_file is not None:
            digest.update(f"{name}{SUFFIX}\n".encode() + _cue_data(cue_file) + b"\n")
    return digest.hexdigest()


def _cue_file(module: str) -> Path | None:
    """The cue file beside module `module`'s source (`core.cues`), None if it has none."""
    path = _module_file(module)
    if path is None or path.name == "__init__.py":
        return None
    cue_file = path.with_name(path.stem + SUFFIX)
    return cue_file if cue_file.is_file() else None


def _cue_data(path: Path) -> bytes:
    """A cue file's entries as JSON, in the file's order (alternatives are joined in it):
    its comments and layout do not move a key."""
    data = load_shipped_yaml(path.read_text(encoding="utf-8"))
    return json.dumps(data, ensure_ascii=False).encode()


def _closure(root: str, within: str) -> dict[str, ast.Module]:
    """Module `root` and every module of package `within` it reaches by imports, by name,
    with their docstrings removed."""
    found: dict[str, ast.Module] = {}
    todo = [root]
    while todo:
        name = todo.pop()
        path = _module_file(name)
        if name in found or path is None:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found[name] = _without_docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                todo.extend(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                todo.append(node.module)  # "from a.b import c": a.b, and a.b.c if a module
                todo.extend(f"{node.module}.{alias.name}" for alias in node.names)
        todo = [n for n in todo if n == within or n.startswith(f"{within}.")]
    return found


def _module_file(name: str) -> Path | None:
    """The source file of module `name` (a package's `__init__.py`), None if there is none."""
    top, *rest = name.split(".")
    try:
        base = Path(str(resources.files(top)))
    except (ModuleNotFoundError, TypeError):
        return None
    module = base.joinpath(*rest).with_suffix(".py") if rest else None
    for path in (module, base.joinpath(*rest, "__init__.py")):
        if path is not None and path.is_file():
            return path
    return None


def _without_docstrings(tree: ast.Module) -> ast.Module:
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return tree
