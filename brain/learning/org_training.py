"""The semantic model learns the organisation's lessons without a restart.

`brain.learning.org_lessons` turns agreed corrections into training rows; `OrgTraining` keeps a
semantic
model fitted on the training data plus those rows and swaps it into the running brain:

- **Off the decision path, one at a time, debounced.** A correction or a forget schedules a
  check on one background thread; checks within `[memory] org_refit_delay_s` coalesce into one.
  Decisions also look (at most once per delay) for lessons written by other processes. A check
  recomputes the rows only when the lesson store's version moved, and fits only when the rows
  (or the controller set) changed. Meanwhile decisions keep being answered by the model in use.
- **A full refit, cached like every fit.** The refit is `SemanticScorer.fit` on the same data
  plus the rows: the same features, the same out-of-scope model and threshold, stored under its
  cache key (`$BRAIN_HOME/models/semantic-<key>.npz`). The key hashes the rows, so every
  process with the same lessons looks for the same file and loads it instead of fitting; on
  PostgreSQL the fit is shared as artifact `semantic-org-<key>` under the fit lock of its key,
  so one replica fits and the others load it. Embeddings of texts already seen are kept
  between refits (`_MemoEmbedder`) and new ones are embedded in small batches, so a refit costs
  the fit itself (about half of a cold one) and never holds the embedder for long.
  An incremental update (naive Bayes counts and the nearest-example space only) was weighed and
  not taken: it leaves the logistic expert and the out-of-scope model fitted without the rows,
  and the full refit is seconds (benchmarks/HISTORY.md, "organisation lessons").
- **Swapped atomically.** The new model replaces the old in one assignment; a decision reads
  one or the other, never a mix.
- **Forgetting.** A forget removes the user's lessons, so the rows lose their messages. Fits
  that may hold them (every org fit in `models/`, and `semantic-org-*` artifacts on PostgreSQL)
  are deleted at once and a refit without them is scheduled; until it is swapped in, the old
  model lives on in the running process's memory only.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from brain.learning.org_lessons import MoveGroups, OrgRow, digest, examples_of, org_rows
from brain.learning.shipped_vectors import use_shipped_vectors
from brain.learning.training import load_training
from brain.memory.agreed import AgreedExamples
from brain.memory.example_pool import LINKING
from brain.semantic.features import single_thread_blas
from core.text.kept import KeptDict

if TYPE_CHECKING:
    from brain.memory.lessons import LessonRecall
    from brain.signals.semantic_model import SemanticAnalysis, SemanticModel
    from controllers.base import Controller
    from core.config import Settings
    from core.stores.factory import Stores
    from core.text.embedder import DenseEmbedder
    from core.text.encoder_tail import EncoderTail

log = logging.getLogger(__name__)

#: Shared-artifact name prefix of fits that include organisation rows (PostgreSQL).
ORG_ARTIFACT = "semantic-org"
#: Texts embedded per call during a background refit (the embedder is locked per call).
EMBED_BATCH = 32
#: An organisation row weighs as many examples as users agreed on its group, up to this: it is
#: a message the model got wrong that several people corrected the same way, where a shipped
#: example is one text somebody wrote.
MAX_ROW_WEIGHT = 10.0
#: A controller's semantic score this much above the model without the rows was the rows' doing.
HELP_MARGIN = 0.05


def fit_model(
    settings: Settings,
    controllers: Sequence[Controller],
    embedder: DenseEmbedder | None,
    stores: Stores,
    rows: Sequence[OrgRow] = (),
) -> SemanticModel:
    """The semantic model on the training data plus `rows` (loaded when its fit is cached)."""
    from brain.semantic.scorer import SemanticScorer

    training = load_training(settings)
    if embedder is not None:
        use_shipped_vectors(embedder)  # a fit reads the shipped texts' kept vectors
    return SemanticScorer.fit(
        controllers,
        embedder,
        cache_dir=settings.home / "models",
        extra_examples=_with_rows(training.examples, rows),
        extra_negatives=training.negatives,
        tune=settings.training.tune_encoder,
        multilingual=settings.training.multilingual_view,
        shared=stores.artifacts,
        lock=stores.coordinator.serialized,
        label=ORG_ARTIFACT if rows else "semantic",
        weights=row_weights(rows),
    )


def model_key(
    settings: Settings, controllers: Sequence[Controller], dense: bool, rows: Sequence[OrgRow]
) -> str:
    """The cache key `fit_model` fits (or loads) for these rows."""
    from brain.semantic.files import fit_key

    training = load_training(settings)
    return fit_key(
        controllers,
        dense=dense,
        cache_dir=settings.home / "models",
        extra_examples=_with_rows(training.examples, rows),
        extra_negatives=training.negatives,
        tune=settings.training.tune_encoder,
        weights=row_weights(rows),
        multilingual=settings.training.multilingual_view,
    )


def row_weights(rows: Sequence[OrgRow]) -> dict[str, float]:
    """Each row's sample weight in the fit (see MAX_ROW_WEIGHT)."""
    return {row.text: min(float(len(row.users)), MAX_ROW_WEIGHT) for row in rows}


def _with_rows(
    examples: Mapping[str, Sequence[str]], rows: Sequence[OrgRow]
) -> dict[str, list[str]]:
    extra = {name: list(texts) for name, texts in examples.items()}
    for name, texts in examples_of(rows).items():
        extra.setdefault(name, []).extend(texts)
    return extra


class _MemoEmbedder:
    """The embedder as a refit sees it: texts embedded before are not embedded again, and new
    ones go in small batches (each holds the embedder's lock, which decisions also need)."""

    def __init__(self, embedder: DenseEmbedder, memo: dict[str, np.ndarray]) -> None:
        self._embedder = embedder
        self._memo = memo

    def embed(self, texts: Sequence[str], *, training: bool = False) -> np.ndarray:
        missing = list(dict.fromkeys(t for t in texts if t not in self._memo))
        for start in range(0, len(missing), EMBED_BATCH):
            batch = missing[start : start + EMBED_BATCH]
            vectors = self._embedder.embed(batch, training=training)
            for text, vector in zip(batch, vectors, strict=True):
                self._memo[text] = vector
        if not texts:
            return np.zeros((0, self._embedder.dim), dtype=np.float32)
        return np.stack([self._memo[t] for t in texts]).astype(np.float32)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._embedder, name)


@dataclass(frozen=True, slots=True)
class OrgTrainedModel:
    """A semantic model fitted with the organisation's rows (a `SemanticModel`), and what it
    was fitted on; it can tell which controllers the rows raised for a text."""

    model: SemanticModel
    #: The model without the rows (to tell what the rows changed).
    base: SemanticModel
    rows: tuple[OrgRow, ...]
    key: str
    registry_version: str
    fitted_at: str
    seconds: float

    @property
    def names(self) -> Sequence[str]:
        return self.model.names

    @property
    def tail(self) -> EncoderTail | None:
        return self.model.tail

    @property
    def examples_out_of_scope(self) -> np.ndarray:
        return self.model.examples_out_of_scope

    @property
    def negatives_out_of_scope(self) -> np.ndarray:
        return self.model.negatives_out_of_scope

    def analyse(self, text: str) -> SemanticAnalysis:
        return self.model.analyse(text)

    def score(self, text: str) -> Mapping[str, float]:
        return self.model.score(text)

    def helped(self, text: str, scores: np.ndarray) -> dict[str, str]:
        """Controller -> why, for the controllers the rows raised `text`'s score of."""
        trained = {row.controller for row in self.rows}
        if not trained or list(self.base.names) != list(self.names):
            return {}
        base = np.asarray(self.base.analyse(text).scores, dtype=np.float32)
        found: dict[str, str] = {}
        for index, name in enumerate(self.names):
            if name in trained and float(scores[index]) - float(base[index]) >= HELP_MARGIN:
                count = sum(1 for row in self.rows if row.controller == name)
                found[name] = (
                    f"learned from {count} organisation lesson(s) ({base[index]:.2f} -> "
                    f"{float(scores[index]):.2f} with them)"
                )
        return found

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "rows": len(self.rows),
            "fitted_at": self.fitted_at,
            "seconds": round(self.seconds, 2),
        }


class OrgTraining:
    """Keeps an org-trained semantic model for one brain and refits it in the background."""

    def __init__(
        self,
        settings: Settings,
        memory: LessonRecall,
        agreed: AgreedExamples,
        *,
        controllers: Callable[[], list[Controller]],
        registry_version: Callable[[], str],
        base: Callable[[], SemanticModel | None],
        embedder: Callable[[], DenseEmbedder | None],
        stores: Callable[[], Stores],
    ) -> None:
        self.settings = settings
        self._memory = memory
        self._agreed = agreed
        self._controllers = controllers
        self._registry_version = registry_version
        self._base = base
        self._embedder = embedder
        self._stores = stores
        self.enabled = settings.memory.org_training
        #: Each correction's group, kept up to date from the lesson feed (and saved).
        self.groups = MoveGroups(
            settings.home / "models" / "org-groups.json",
            linked=agreed.linked,
            linking=LINKING,
        )
        self._delay = settings.memory.org_refit_delay_s
        self._cond = threading.Condition()
        self._pending = False
        self._busy = False
        self._due = 0.0
        self._last_look = float("-inf")
        self._thread: threading.Thread | None = None
        self._started = False
        self._closed = False
        #: Refit in the background (a long-running process: `Brain.warm`, the bot); a one-shot
        #: CLI process only loads a fit cached for the current lessons.
        self._background = False
        #: The model in use (None: the base model); replaced in one assignment.
        self._current: OrgTrainedModel | None = None
        #: (registry version, lesson store version) last checked successfully.
        self._seen: tuple[str, int] | None = None
        self._memo: dict[str, np.ndarray] = {}
        #: A forget drops the forgotten person's lesson texts from it (`core.text.kept`).
        self._kept_memo = KeptDict(self._memo, whole=False)
        self._fitting = threading.Lock()  # one check (and fit) at a time in this process
        #: Refits done by this process (a test or a report may wait for / read it).
        self.refits = 0
        self.last_error = ""

    # -- what decisions read ---------------------------------------------------------------
    def model(self) -> OrgTrainedModel | None:
        """The org-trained model for the current controller set, or None (use the base). On
        first use, a fit cached for the current lessons is loaded at once; a refit needed is
        left to the background."""
        if not self.enabled:
            return None
        if not self._started:
            self._start()
        else:
            self._look()
        current = self._current
        if current is None or current.registry_version != self._registry_version():
            return None
        return current

    def rows(self) -> list[OrgRow]:
        """The organisation's training rows as the lessons stand now (the embedder opens
        first: corrections are grouped by meaning, in every process alike)."""
        self._embedder()
        names = [c.name for c in self._controllers()]
        memory = self.settings.memory
        with single_thread_blas():  # many matrix-vector products: no thread hand-off
            return org_rows(
                self._memory,
                names=names,
                agreement=memory.agreement_users,
                groups=self.groups,
                joined=lambda entry: self._agreed.joined(entry, names),
            )

    # -- scheduling --------------------------------------------------------------------------
    def schedule(self, delay: float | None = None) -> None:
        """Ask for a check (and refit when the rows changed) after `delay` (default: the
        configured one); requests within the delay coalesce."""
        if not self.enabled or not self._started or not self._background:
            return  # not a long-running deciding process: nothing of its own to refit
        with self._cond:
            if self._closed:
                return
            self._pending = True
            self._due = time.monotonic() + (self._delay if delay is None else delay)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="brain-org-refit", daemon=True
                )
                self._thread.start()
            self._cond.notify_all()

    def follow(self) -> None:
        """Refit in the background from now on, whenever the organisation's lessons change
        (`Brain.warm` calls it: the bot and other long-running processes)."""
        self._background = True
        if self._started:
            self.schedule(delay=0.0)
        else:
            self.model()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until no check is pending or running; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and not self._busy, timeout)

    def close(self) -> None:
        """Stop refitting: the background thread ends after the check it may be running (it
        holds the brain's parts, so a thread left waiting kept a closed brain's models and stores
        alive for the rest of the process, one per brain a process opened)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def refit_now(self) -> OrgTrainedModel | None:
        """Check and refit in this thread (`brain memory refit`); the model in use after."""
        self._check()
        return self._current

    def forgotten(self) -> int:
        """After a forget: delete every fit that may hold the forgotten messages, and the one
        in use (its rows are their texts: the base model answers until the refit), then refit.
        How many local files were deleted."""
        removed = self._prune(keep=set())
        artifacts = self._stores().artifacts
        if artifacts is not None:
            artifacts.remove_prefix(f"{ORG_ARTIFACT}-")
        with self._cond:
            self._seen = None
            self._current = None
        self.schedule(delay=0.0)
        return removed

    def _start(self) -> None:
        self._started = True
        self._last_look = time.monotonic()
        try:
            rows = self.rows()
            if rows and self._cached(rows):
                with self._fitting:
                    self._swap(rows)  # a load, not a fit
                return
        except Exception as exc:  # the base model answers meanwhile
            log.warning("organisation lessons not loaded: %s", exc)
        self.schedule(delay=0.0)

    def _look(self) -> None:
        """From the decision path: at most once per delay, look for others' lessons."""
        now = time.monotonic()
        due = now - self._last_look >= max(self._delay, 0.5)
        if self._background and due and not self._pending:
            self._last_look = now
            self.schedule(delay=0.0)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending or self._closed)
                while not self._closed and (wait := self._due - time.monotonic()) > 0:
                    self._cond.wait(wait)
                if self._closed:
                    self._pending = False
                    self._thread = None
                    self._cond.notify_all()
                    return
                self._pending = False
                self._busy = True
            try:
                self._check()
            except Exception as exc:  # the model in use stays; the next check tries again
                self.last_error = f"{type(exc).__name__}: {exc}"
                log.warning("organisation refit failed: %s", self.last_error)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    # -- checking and fitting ----------------------------------------------------------------
    def _check(self) -> None:
        with self._fitting:
            self._check_locked()

    def _check_locked(self) -> None:
        seen = (self._registry_version(), self._memory.lessons.version())
        if seen == self._seen:
            return
        rows = self.rows()
        current = self._current
        if not rows:
            self._current = None
        elif (
            current is None
            or current.registry_version != seen[0]
            or digest(current.rows) != digest(rows)
        ):
            self._swap(rows)
        self._seen = seen

    def _swap(self, rows: Sequence[OrgRow]) -> None:
        base = self._base()
        if base is None:
            return  # no semantic model at all (nothing to train)
        controllers = self._controllers()
        version = self._registry_version()
        embedder = self._embedder()
        seeing: Any = _MemoEmbedder(embedder, self._memo) if embedder is not None else None
        started = time.perf_counter()
        model = fit_model(self.settings, controllers, seeing, self._stores(), rows)
        cast(Any, model).embedder = embedder  # the real one, not the refit's view of it
        key = model_key(self.settings, controllers, embedder is not None, rows)
        self._current = OrgTrainedModel(
            model=model,
            base=base,
            rows=tuple(rows),
            key=key,
            registry_version=version,
            fitted_at=time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()),
            seconds=time.perf_counter() - started,
        )
        self.refits += 1
        self._prune(keep={key})

    def _cached(self, rows: Sequence[OrgRow]) -> bool:
        embedder = self._embedder()
        key = model_key(self.settings, self._controllers(), embedder is not None, rows)
        if self._path(key).is_file():
            return True
        artifacts = self._stores().artifacts
        return artifacts is not None and artifacts.get(f"{ORG_ARTIFACT}-{key}") is not None

    def _path(self, key: str) -> Path:
        from brain.semantic.files import model_path

        return model_path(self.settings.home / "models", key)

    def _prune(self, keep: set[str]) -> int:
        """Delete the home's fits other than the base model's and `keep` (old org fits)."""
        from brain.semantic.files import LEGACY_SUFFIX, MODEL_SUFFIX

        folder = self.settings.home / "models"
        if not folder.is_dir():
            return 0
        embedder = self._embedder()
        keep = keep | {model_key(self.settings, self._controllers(), embedder is not None, ())}
        removed = 0
        # fits of versions before the .npz files are never read again: all of them go
        legacy = list(folder.glob(f"semantic-*{LEGACY_SUFFIX}"))
        for path in [*folder.glob(f"semantic-*{MODEL_SUFFIX}"), *legacy]:
            if path in legacy or path.stem.removeprefix("semantic-") not in keep:
                path.unlink(missing_ok=True)
                removed += 1
        return removed

    def report(self) -> dict[str, Any]:
        """What `brain memory show --org` prints: the rows as the lessons stand, the key of
        the fit with them and whether it is fitted (cached), and the fit this process uses."""
        rows = self.rows()
        embedder = self._embedder()
        key = model_key(self.settings, self._controllers(), embedder is not None, rows)
        current = self._current
        return {
            "enabled": self.enabled,
            "rows": [row.to_dict() for row in rows],
            "key": key if rows else None,
            "fitted": bool(rows) and self._cached(rows),
            "in_use": current.to_dict() if current is not None else None,
            "refits": self.refits,
            "last_error": self.last_error,
        }
