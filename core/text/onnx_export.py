"""MiniLM as ONNX files, exported once from the packaged PyTorch weights (the `tune` extra).

ONNX Runtime runs every embedding; PyTorch is needed only here, at install time (`core.text.
install` runs `python -m core.text.onnx_export` in a throwaway environment that has it) or on a
home's first use where PyTorch is installed, and to fine-tune the optional encoder top
(`core.text.encoder_tail`). The model is exported in
two graphs split at the fork layer, so every view of a text shares the lower layers:

- lower: `AutoModel` cut to its first `fork` layers; (input_ids, attention_mask,
  token_type_ids) -> token states after the fork layer;
- upper: the remaining layers; (hidden, attention_mask) -> last_hidden_state. A fine-tuned top
  is exported the same way (`export_top`).

Mean pooling and normalisation happen in numpy (`core.text.onnx_encoder`). The export is
checked against PyTorch on fixed texts (cosine >= MIN_COSINE) and written under the cache
directory with the model's hash in the file names (`core.text.onnx_files`). Two processes
exporting at once wait for one another (a file lock), and every file appears by an atomic
rename, so a reader never sees half a model. Importing this module is cheap: torch is imported
by the functions that need it.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from core.cues import cues
from core.progress import PROGRESS_LOGGER, step
from core.text import encoder_tail
from core.text.encoder_tail import EncoderTail
from core.text.onnx_encoder import OnnxEncoder, read_tokenizer
from core.text.onnx_files import OnnxFiles, fork_layer, onnx_files, write_atomically
from core.text.torch_encoder import as_tensors

__all__ = [
    "MIN_COSINE",
    "ensure_exported",
    "export_tail",
    "export_top",
    "export_whole_model",
    "main",
    "train_exported_tail",
]

log = logging.getLogger(__name__)

OPSET = 17
#: Lowest cosine between an ONNX and a PyTorch sentence vector that passes the export check.
MIN_COSINE = 0.9999
#: Texts the export is checked on: short, long (truncated), Chinese, identifiers, padding.
_CUES = cues(__name__)
CHECK_TEXTS = (*_CUES.words("check_texts"), _CUES.text("long_text") * 30)


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


def export_tail(model: Any, tail: EncoderTail) -> bytes:
    """A fine-tuned top (trained on `model`, a SentenceTransformer) as its ONNX graph."""
    return export_top(tail.module(model))


def train_exported_tail(
    model: Any,
    states: Sequence[Any],
    labels: np.ndarray,
    weights: np.ndarray,
    *,
    threads: int | None = None,
) -> EncoderTail:
    """Fine-tune a copy of the top layers in PyTorch (`encoder_tail.train_tail`) and export it,
    so queries through it run on ONNX Runtime (`OnnxEncoder`'s tuner)."""
    tail = encoder_tail.train_tail(model, as_tensors(states), labels, weights, threads=threads)
    tail.onnx = export_tail(model, tail)
    return tail


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
    write_atomically(files.upper, upper_bytes)
    write_atomically(files.lower, lower_bytes)


def _check(model: Any, model_dir: Path, lower: bytes, upper: bytes) -> None:
    """Raise unless the ONNX graphs give PyTorch's sentence vectors on CHECK_TEXTS."""
    import torch

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
    buffer: Any = io.BytesIO()  # the exporter writes to file objects; its stubs say paths only
    module.eval()  # a new wrapper is in training mode, which the export restores afterwards
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # tracer notes on shape-dependent Python branches
        torch.onnx.export(
            module,
            args,
            buffer,
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

    class Top(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.layers = layers

        def forward(self, hidden: Any, attention_mask: Any) -> Any:
            return encoder_tail.run_layers(self.layers, hidden, attention_mask)

    return Top()


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m core.text.onnx_export --model-dir D --cache-dir C`: export (and check) the
    model's graphs into C unless they are there; the install step runs it where PyTorch is."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-dir", type=Path, required=True)
    parser.add_argument("--cache-dir", type=Path, required=True)
    args = parser.parse_args(argv)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    for name in (PROGRESS_LOGGER, __name__):
        logging.getLogger(name).addHandler(handler)
        logging.getLogger(name).setLevel(logging.INFO)
    ensure_exported(args.model_dir, args.cache_dir, fork_layer(args.model_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
