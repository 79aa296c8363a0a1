"""Example texts' vectors kept in a home's models folder, so a one-shot command loads them
instead of encoding a thousand texts again: the shipped examples' multilingual rows
(`brain.memory.shipped_view`) and the model's examples' MiniLM rows
(`brain.memory.model_examples`), each named by a hash of its texts and labels."""

from __future__ import annotations

import hashlib
import io
import json
import logging
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from brain.semantic.files import write_atomically

log = logging.getLogger(__name__)


def kept_rows(
    folder: Path | None,
    prefix: str,
    texts: Sequence[str],
    labels: Sequence[str],
    compute: Callable[[], np.ndarray | None],
) -> np.ndarray | None:
    """The rows of `texts` kept in `folder` as `<prefix>-<hash>.npy`, else `compute()`d and
    kept there (None when it cannot be computed). A damaged or mismatched file is computed
    again; a read-only home computes them again next time."""
    key = hashlib.sha256(json.dumps([list(texts), list(labels)]).encode("utf-8")).hexdigest()[:20]
    path = None if folder is None else folder / f"{prefix}-{key}.npy"
    vectors: np.ndarray | None = None
    if path is not None and path.is_file():
        try:
            vectors = np.load(path, allow_pickle=False)
        except (OSError, ValueError):
            vectors = None  # a damaged file: computed again
    if vectors is not None and vectors.shape[0] == len(texts):
        return vectors
    vectors = compute()
    if vectors is not None and path is not None:
        buffer = io.BytesIO()
        np.save(buffer, vectors, allow_pickle=False)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, buffer.getvalue())
        except OSError as exc:
            log.warning("could not keep the rows of %s: %s", prefix, exc)
    return vectors
