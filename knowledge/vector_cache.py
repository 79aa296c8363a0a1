"""Chunk vectors computed ahead of time: the shipped sample KB's, keyed by model and text.

Embedding the sample knowledge base was most of a fresh home's first question. Its vectors are
the model's own, computed at build time by `scripts/embed_sample_kb.py` through the same
engine and export, and shipped as `knowledge/data/vectors-<model id>.npz`: one row per chunk,
keyed by the SHA-256 of the chunk's text. The model id (`DenseEmbedder.model_id`) is the hash
of the model's files and of the export, so another model, another export or another engine
never finds them.

A store takes a vector from here only for a text whose digest is listed; every other text is
embedded as usual. A changed document, another model or a missing file costs time, never
correctness.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

__all__ = ["SHIPPED_DIR", "VectorCache", "text_digest"]

log = logging.getLogger(__name__)

#: Where the shipped vectors live (package data).
SHIPPED_DIR = Path(__file__).resolve().parent / "data"


def text_digest(text: str) -> str:
    """The key of one chunk text: SHA-256 of its UTF-8 bytes, hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class VectorCache:
    """Vectors of known texts under one model id (read-only once loaded)."""

    def __init__(self, model_id: str, digests: Sequence[str], vectors: np.ndarray) -> None:
        if len(digests) != len(vectors):
            raise ValueError(f"{len(digests)} digests for {len(vectors)} vectors")
        self.model_id = model_id
        self._rows = {digest: row for row, digest in enumerate(digests)}
        self._vectors = np.asarray(vectors, dtype=np.float32)
        self._vectors.flags.writeable = False

    def __len__(self) -> int:
        return len(self._rows)

    @staticmethod
    def path(directory: Path, model_id: str) -> Path:
        """The file of `model_id`'s vectors in `directory`."""
        return directory / f"vectors-{model_id}.npz"

    @classmethod
    def load(cls, model_id: str | None, directory: Path | None = None) -> VectorCache | None:
        """The vectors made by `model_id` (in `directory`, by default the shipped ones), or
        None (no such file, or one that cannot be read: the texts are then embedded)."""
        if not model_id:
            return None
        path = cls.path(directory or SHIPPED_DIR, model_id)
        if not path.is_file():
            return None
        try:
            with np.load(path, allow_pickle=False) as data:
                digests = [bytes(d).decode("ascii") for d in data["digests"]]
                vectors = data["vectors"]
                if vectors.ndim != 2:
                    raise ValueError(f"vectors of shape {vectors.shape}")
                return cls(model_id, digests, vectors)
        except (OSError, ValueError, KeyError, UnicodeDecodeError) as exc:
            log.warning("ignoring the precomputed vectors in %s (%s)", path, exc)
            return None

    def lookup(self, texts: Sequence[str], dim: int) -> tuple[np.ndarray, list[int]]:
        """Vectors for `texts` (float32, one row each; zeros where unknown) and the indices
        of the texts that were not found (to embed)."""
        out = np.zeros((len(texts), dim), dtype=np.float32)
        missing: list[int] = []
        for index, text in enumerate(texts):
            row = self._rows.get(text_digest(text))
            if row is None or self._vectors.shape[1] != dim:
                missing.append(index)
            else:
                out[index] = self._vectors[row]
        return out, missing

    @staticmethod
    def write(directory: Path, model_id: str, texts: Sequence[str], vectors: np.ndarray) -> Path:
        """Store `texts`' vectors under `model_id` (the build step); returns the file."""
        unique = {text_digest(text): row for row, text in enumerate(texts)}
        digests = sorted(unique)
        rows = np.asarray(vectors, dtype=np.float32)[[unique[d] for d in digests]]
        directory.mkdir(parents=True, exist_ok=True)
        target = VectorCache.path(directory, model_id)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".npz")
        try:
            with os.fdopen(fd, "wb") as handle:
                np.savez(handle, digests=np.array(digests, dtype="S64"), vectors=rows)
            os.chmod(tmp, 0o644)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return target
