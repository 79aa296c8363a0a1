"""MiniLM through PyTorch and sentence-transformers: the reference engine.

ONNX Runtime (`core.text.onnx_encoder`) is the default; this engine stays for comparing the two
(`BRAIN_EMBEDDING_ENGINE=torch`, benchmarks/startup.py) and is the one that fine-tunes the
encoder's top (`core.text.encoder_tail`) in either engine.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from core.text import encoder_tail

if TYPE_CHECKING:
    from core.text.encoder_tail import EncoderTail

__all__ = ["TorchEncoder", "as_tensors", "load_sentence_transformer"]


def load_sentence_transformer(model_dir: Path, *, threads: int = 1) -> Any:
    """The packaged model as a SentenceTransformer on CPU, with the hub switched offline."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    import torch
    import transformers
    from sentence_transformers import SentenceTransformer

    # One intra-op thread by default: on a small shared CPU, two spinning threads made a single
    # query embedding 40x slower under load (measured 490 ms vs 12 ms); `threads`
    # ([knowledge] encoder_threads) raises it on a dedicated machine.
    torch.set_num_threads(max(1, threads))
    transformers.utils.logging.disable_progress_bar()
    return SentenceTransformer(str(model_dir), device="cpu")


class TorchEncoder:
    """Sentence vectors, lower-layer states and fine-tuned views through PyTorch."""

    def __init__(self, model: Any, *, training_threads: int | None = None) -> None:
        self.model = model
        self._training_threads = training_threads
        dimension = getattr(model, "get_embedding_dimension", None) or (
            model.get_sentence_embedding_dimension
        )
        self.dim = int(dimension())

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        vectors = self.model.encode(
            list(texts),
            batch_size=64,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def lower_states(self, texts: Sequence[str]) -> list[Any]:
        return encoder_tail.lower_states(self.model, texts)

    def upper(self, states: Sequence[Any], tail: EncoderTail | None = None) -> np.ndarray:
        return encoder_tail.upper(self.model, as_tensors(states), tail)

    def train_tail(
        self, states: Sequence[Any], labels: np.ndarray, weights: np.ndarray
    ) -> EncoderTail:
        return encoder_tail.train_tail(
            self.model, as_tensors(states), labels, weights, threads=self._training_threads
        )


def as_tensors(states: Sequence[Any]) -> list[Any]:
    """States as torch tensors (a model fitted by the ONNX engine keeps numpy ones)."""
    import torch

    return [torch.from_numpy(s) if isinstance(s, np.ndarray) else s for s in states]
