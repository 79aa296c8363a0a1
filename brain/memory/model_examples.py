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

import hashlib
import io
import json
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from brain.memory.online_layer import ModelRows
from brain.semantic.files import write_atomically

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
        key = hashlib.sha256(json.dumps([texts, labels]).encode("utf-8")).hexdigest()[:20]
        path = None if self._folder is None else self._folder / f"examples-embedded-{key}.npy"
        vectors: np.ndarray | None = None
        if path is not None and path.is_file():
            try:
                vectors = np.load(path, allow_pickle=False)
            except (OSError, ValueError):
                vectors = None  # a damaged file: embedded again
        if vectors is None or vectors.shape[0] != len(texts):
            # Kept with the fits' vectors (`TrainingVectors`): a process that fitted the model
            # has them all.
            vectors = np.asarray(embedder.embed(texts, training=True), dtype=np.float32)
            if path is not None:
                buffer = io.BytesIO()
                np.save(buffer, vectors, allow_pickle=False)
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    write_atomically(path, buffer.getvalue())
                except OSError as exc:  # a read-only home: embedded again next time
                    log.warning("could not keep the model examples' rows: %s", exc)
        return ModelRows(vectors, np.array(labels, dtype=object))


def model_examples(
    controllers: Sequence[Controller], training: Mapping[str, Sequence[str]]
) -> dict[str, list[str]]:
    """Each controller's examples and its training rows (what the model is fitted on)."""
    return {
        c.name: [str(e) for e in c.examples] + [str(t) for t in training.get(c.name, ())]
        for c in controllers
    }
