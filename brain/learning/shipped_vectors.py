"""The MiniLM vectors of the shipped training texts, kept once per installation.

Every process's first fit of the routing model (a new YAML or evolved controller, a home's
training rows, the organisation's lessons, `brain controllers approve`) sent about 2,100 texts
through MiniLM, nearly all of them the same in every home: the built-in controllers' examples,
descriptions, keywords and labels, the shipped training rows and the shipped negatives (5.5 s
of an 8.3 s fit). A process keeps them for its next fit (`core.text.embedding_caches.
TrainingVectors`); this keeps them for every later process of the installation too, in its
install cache (`core.text.embedder.install_cache_dir`), named by the hash of those texts and
of the encoder's own id (its files, export and engine), so other texts or another encoder name
another file. Only package data is kept: a home's own rows, controllers and lessons never are
(their vectors must not outlive a `brain forget`), and a fit that does not hold every shipped
text (a home that hides a built-in controller, its own negatives) writes nothing. The vectors
are the encoder's exact output (a text's vector does not depend on its batch), so a fit gives
the same model whether it read them or embedded them. Where the install cache does not exist
nothing is written, and a file that cannot be read back is ignored (the fit embeds, as before).
"""

from __future__ import annotations

import functools
import io
import logging
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from brain.learning.training import split_shipped
from brain.semantic.files import DEFAULT_NEGATIVES, read_negatives, training_rows
from controllers.registry import BUILTIN_ORIGIN, ControllerRegistry
from core.config import Settings
from core.install_kept import keep, kept_name
from core.text.email import email_body

if TYPE_CHECKING:
    from core.text.embedder import DenseEmbedder

log = logging.getLogger(__name__)

PREFIX = "training-vectors"


def kept_folder() -> Path:
    """Where the installation keeps them (its install cache)."""
    from core.text.embedder import install_cache_dir

    return install_cache_dir()


def use_shipped_vectors(embedder: DenseEmbedder) -> None:
    """Let `embedder`'s fits read, and keep, the shipped texts' vectors."""
    if embedder.trained.shipped is None:
        embedder.trained.shipped = KeptShippedVectors(embedder)


class KeptShippedVectors:
    """`core.text.embedding_caches.ShippedVectors` over the install cache."""

    def __init__(self, embedder: DenseEmbedder) -> None:
        self._embedder = embedder
        self._unreadable = False

    @functools.cached_property
    def texts(self) -> tuple[str, ...]:
        """What a fit of every built-in controller on the shipped data embeds, in its order,
        whatever controllers a home has (a home's own are never among them)."""
        registry = ControllerRegistry.load(Settings(), yaml_files=False)
        builtin = [c for c in registry if getattr(c, "origin", None) == BUILTIN_ORIGIN]
        fit, calibration = split_shipped()
        examples: dict[str, list[str]] = {}
        negatives = read_negatives(DEFAULT_NEGATIVES)
        for row in (*fit, *calibration):
            if row.label is None:
                negatives.append(row.text)
            else:
                examples.setdefault(row.label, []).append(row.text)
        texts = [email_body(t) for t in training_rows(builtin, examples)[0]]
        return tuple(dict.fromkeys([*texts, *negatives]))

    @functools.cached_property
    def name(self) -> str | None:
        """The file name of these texts' vectors by this encoder, None when it has no id."""
        model = self._embedder.model_id
        if model is None or not self.texts:
            return None
        return f"{kept_name(PREFIX, model, *self.texts)}.npy"

    def kept(self) -> dict[str, np.ndarray]:
        path = None if self.name is None else kept_folder() / self.name
        if path is None or not path.is_file():
            return {}
        try:
            vectors = np.load(path, allow_pickle=False)
            if vectors.shape != (len(self.texts), self._embedder.dim):
                raise ValueError(f"shape {vectors.shape}")
        except (OSError, ValueError) as exc:  # truncated or foreign: embedded and replaced
            log.info("not reading %s (%s)", path.name, exc)
            self._unreadable = True
            return {}
        return dict(zip(self.texts, vectors.astype(np.float32, copy=False), strict=True))

    def offer(self, vectors: dict[str, np.ndarray]) -> None:
        path = None if self.name is None else kept_folder() / self.name
        if path is None or not path.parent.is_dir():
            return
        if path.is_file() and not self._unreadable:
            return
        if any(vectors.get(text) is None for text in self.texts):
            return  # not a fit of every shipped text: nothing to keep
        buffer = io.BytesIO()
        np.save(buffer, np.stack([vectors[text] for text in self.texts]), allow_pickle=False)
        keep(path, buffer.getvalue())
        self._unreadable = False
