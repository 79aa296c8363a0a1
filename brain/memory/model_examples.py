"""The model's own examples in the embedding space, for the online layer's vote.

The online layer (`brain.memory.online_layer`) weighs the corrections a person sees against
the examples the model was fitted on: each controller's examples and the training rows
(`[training]`), embedded as the corrections are (MiniLM). Alone, corrections are the messages
the model got wrong, so a vote of them favours the controllers it gets wrong; beside the
model's examples the nearest examples of every controller take part.

Embedded once per process for a set of examples and kept in the home's models folder (2,100
texts are about 4 s to embed; a one-shot command loads them instead).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from brain.memory.kept_rows import kept_rows
from brain.memory.online_layer import ModelRows

if TYPE_CHECKING:
    from controllers.base import Controller
    from core.text.embedder import DenseEmbedder

log = logging.getLogger(__name__)


class ModelExamples:
    """The examples of the controllers and the training rows, embedded when first needed by
    the embedder (None until it is loaded: then not yet)."""

    def __init__(
        self,
        controllers: Callable[[], Sequence[Controller]],
        training: Callable[[], Mapping[str, Sequence[str]]],
        embedder: Callable[[], DenseEmbedder | None],
        folder: Path | None = None,
    ) -> None:
        self._controllers, self._training = controllers, training
        self._embedder, self._folder = embedder, folder
        self._lock = threading.Lock()
        self._rows: ModelRows | None = None
        self._ready = False

    def rows(self) -> ModelRows | None:
        """The examples' rows and controllers; None without an embedder or examples."""
        with self._lock:
            if not self._ready:
                self._rows = self._load()
                self._ready = self._rows is not None
            return self._rows

    def _load(self) -> ModelRows | None:
        embedder = self._embedder()
        if embedder is None:
            return None
        examples = model_examples(self._controllers(), self._training())
        texts = [t for texts in examples.values() for t in texts if str(t).strip()]
        labels = [n for n, texts in examples.items() for t in texts if str(t).strip()]
        if not texts:
            return None
        # Kept with the fits' vectors (`TrainingVectors`): a process that fitted the model has
        # them all.
        vectors = kept_rows(
            self._folder,
            "examples-embedded",
            texts,
            labels,
            lambda: np.asarray(embedder.embed(texts, training=True), dtype=np.float32),
        )
        if vectors is None:
            return None
        return ModelRows(vectors, np.array(labels, dtype=object))


def model_examples(
    controllers: Sequence[Controller], training: Mapping[str, Sequence[str]]
) -> dict[str, list[str]]:
    """Each controller's examples and its training rows (what the model is fitted on)."""
    return {
        c.name: [str(e) for e in c.examples] + [str(t) for t in training.get(c.name, ())]
        for c in controllers
    }
