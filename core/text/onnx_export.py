"""MiniLM as ONNX files, exported once from the packaged PyTorch weights.

ONNX Runtime runs every embedding; PyTorch is needed only here, the first time a model is used
(and to fine-tune the optional encoder top, `core.text.encoder_tail`). The model is exported in
two graphs split at the fork layer, so every view of a text shares the lower layers:

- lower: `AutoModel` cut to its first `fork` layers; (input_ids, attention_mask,
  token_type_ids) -> token states after the fork layer;
- upper: the remaining layers; (hidden, attention_mask) -> last_hidden_state. A fine-tuned top
  is exported the same way (`export_top`).

Mean pooling and normalisation happen in numpy (`core.text.onnx_encoder`). The export is
checked against PyTorch on fixed texts (cosine >= MIN_COSINE) and written under the cache
directory with the model's hash in the file names. Two processes exporting at once wait for one
another (a file lock), and every file appears by an atomic rename, so a reader never sees half
a model. Importing this module is cheap: torch is imported by the functions that need it.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import logging
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from core.progress import step

__all__ = [
    "MIN_COSINE",
    "OnnxFiles",
    "ensure_exported",
    "export_top",
    "find_exported",
    "model_key",
    "onnx_files",
]

log = logging.getLogger(__name__)

#: Bumped when the exported graphs change, so old files are not reused.
EXPORT_VERSION = 1
OPSET = 17
#: Lowest cosine between an ONNX and a PyTorch sentence vector that passes the export check.
MIN_COSINE = 0.9999
#: Texts the export is checked on: short, long (truncated), Chinese, identifiers, padding.
CHECK_TEXTS = (
    "hi",
    "VPN error 691 when I connect from home, please help",
    "process ticket 2025060300011279027",
    "打印机卡纸了，工单 #10086 还没处理",
    "the laptop will not boot after the update, the screen stays black " * 30,
)
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
        _write_atomically(stamp, json.dumps(stamp_data).encode("utf-8"))
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


def ensure_exported(model_dir: Path, cache_dir: Path, fork: int) -> OnnxFiles:
    """The model's ONNX graphs under `cache_dir`, exported and checked first if missing."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    files = onnx_files(model_dir, cache_dir, fork)
    if files.exist():
        return files
    from filelock import FileLock

    with FileLock(str(files.lower.with_suffix(".lock"))):
        if not files.exist():  # another process may have finished while we waited
            with step(f"exporting MiniLM to ONNX (once, under {cache_dir})"):
                _export(model_dir, files, fork)
    return files


def export_top(layers: Any) -> bytes:
    """Transformer layers (the shipped or a fine-tuned top) as an ONNX graph:
    (hidden, attention_mask) -> last_hidden_state."""
    import torch

    hidden = torch.randn(2, 4, int(layers[0].attention.self.all_head_size))
    mask = torch.tensor([[1, 1, 1, 1], [1, 1, 1, 0]])
    return _to_onnx(_top(layers), (hidden, mask), ["hidden", "attention_mask"])


def export_whole_model(model_dir: Path) -> bytes:
    """The model as one graph (no split), for the benchmark that measures what the split at
    the fork layer costs."""
    from transformers import AutoModel

    model = AutoModel.from_pretrained(str(model_dir)).eval()
    ids = _dummy_ids()
    return _to_onnx(
        _last_hidden_state(model),
        (ids, (ids != 0).long(), ids * 0),
        ["input_ids", "attention_mask", "token_type_ids"],
    )


# -- export ----------------------------------------------------------------------------------


def _export(model_dir: Path, files: OnnxFiles, fork: int) -> None:
    import copy

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    import transformers
    from transformers import AutoModel

    transformers.utils.logging.disable_progress_bar()
    model = AutoModel.from_pretrained(str(model_dir)).eval()
    lower = copy.deepcopy(model)
    lower.encoder.layer = lower.encoder.layer[:fork]
    ids = _dummy_ids()
    lower_bytes = _to_onnx(
        _last_hidden_state(lower),
        (ids, (ids != 0).long(), ids * 0),
        ["input_ids", "attention_mask", "token_type_ids"],
    )
    upper_bytes = export_top(model.encoder.layer[fork:])
    _check(model, model_dir, lower_bytes, upper_bytes)
    _write_atomically(files.upper, upper_bytes)
    _write_atomically(files.lower, lower_bytes)


def _check(model: Any, model_dir: Path, lower: bytes, upper: bytes) -> None:
    """Raise unless the ONNX graphs give PyTorch's sentence vectors on CHECK_TEXTS."""
    import torch

    from core.text.onnx_encoder import OnnxEncoder, read_tokenizer

    tokenizer = read_tokenizer(model_dir)
    encoded = tokenizer.encode_batch(list(CHECK_TEXTS))
    ids = torch.tensor([e.ids for e in encoded])
    mask = torch.tensor([e.attention_mask for e in encoded])
    with torch.no_grad():
        hidden = model(input_ids=ids, attention_mask=mask, token_type_ids=ids * 0)
    weights = mask[:, :, None].float()
    expected = (hidden.last_hidden_state * weights).sum(1) / weights.sum(1)
    expected = torch.nn.functional.normalize(expected, dim=-1).numpy()
    got = OnnxEncoder(lower, upper, tokenizer, threads=1).embed(list(CHECK_TEXTS))
    worst = float(np.min(np.sum(expected * got, axis=1)))
    if worst < MIN_COSINE:
        raise RuntimeError(f"ONNX export differs from PyTorch (cosine {worst:.6f})")
    log.info("ONNX export checked against PyTorch: minimum cosine %.7f", worst)


def _to_onnx(module: Any, args: tuple[Any, ...], inputs: list[str]) -> bytes:
    import warnings

    import torch

    dynamic = {"0": "batch", "1": "sequence"}
    axes = {name: {int(k): v for k, v in dynamic.items()} for name in [*inputs, "out"]}
    buffer = io.BytesIO()
    module.eval()  # a new wrapper is in training mode, which the export restores afterwards
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # tracer notes on shape-dependent Python branches
        torch.onnx.export(
            module,
            args,
            buffer,  # type: ignore[arg-type]  # the TorchScript exporter writes to file objects
            input_names=inputs,
            output_names=["out"],
            dynamic_axes=axes,
            opset_version=OPSET,
            dynamo=False,
        )
    return buffer.getvalue()


def _dummy_ids() -> Any:
    import torch

    return torch.tensor([[101, 7592, 2088, 102], [101, 7592, 102, 0]])


def _write_atomically(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)  # readable like any model file (mkstemp makes it private)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _last_hidden_state(model: Any) -> Any:
    """`AutoModel` with the plain signature ONNX needs, returning last_hidden_state."""
    import torch

    class LastHiddenState(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.model(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    return LastHiddenState()


def _top(layers: Any) -> Any:
    """Transformer layers on token states, padding masked out (`encoder_tail.run_layers`)."""
    import torch

    from core.text.encoder_tail import run_layers

    class Top(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.layers = layers

        def forward(self, hidden: Any, attention_mask: Any) -> Any:
            return run_layers(self.layers, hidden, attention_mask)

    return Top()
