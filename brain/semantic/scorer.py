"""Semantic signal (30%): how well a message matches each controller's responsibilities.

`SemanticScorer.fit(controllers, embedder)` learns from every controller's description, label,
examples and keywords (short texts); `.score(text)` gives each controller a 0..1 score.

How (no LLM, a few numpy products per query, whatever the number of controllers):

- every text is first cut to what its sender wrote (`core.text.email.email_body`: no quoted
  replies, forwarded headers, signature or greeting lines; a chat message is left as it is);
- two views of every text: the MiniLM sentence embedding (when the dense model is there;
  optionally with its top layers fine-tuned on the controllers' texts, see "tuned encoder"
  below) and
  character 2-4-gram (`core.text.sparse.char_ngrams`, language-agnostic: Chinese needs no
  segmenter) plus word 1-2-gram TF-IDF; when the fit's texts are partly Chinese, the logistic
  regression reads the multilingual encoder's vector beside MiniLM's (`Views.multilingual`);
- P(controller | text) is a product of experts: a multinomial logistic regression on the
  embedding (on the TF-IDF without the dense model) times a multinomial naive Bayes on the
  TF-IDF, weighted w : 1 - w in log space, w = ENSEMBLE_WEIGHT[language of the text] with the
  dense model (MiniLM is an English model: on Chinese its embedding is weak and the n-grams
  carry more), else the English weight. The naive Bayes fits in one sparse product and is kept
  sparse, so 1,000 controllers stay cheap in memory and time;
- out-of-scope gate: how far the text is from everything the controllers were described with.
  With negative examples (texts no controller should take: `negatives=`,
  `<cache_dir>/negatives.jsonl`, else the shipped `brain/data/semantic_negatives.jsonl`;
  they also become a "none" class), a small logistic model over
  the ensemble's confidence, margin and "none" probability and the nearest-example cosines
  predicts P(out of scope); it learns from out-of-fold features, so it sees the classifier as
  it behaves on unseen text.
  Without negatives, the gate is the conformal p-value of the nearest-example cosine among the
  training texts' own leave-one-out cosines (`min(1, p / GATE_ALPHA)`).
- score[c] = P(c | text) * gate (without negatives the conformal gate declares, never scales:
  scaled, the GATE_ALPHA least typical in-scope texts looked weak by construction).
- declared out of scope: out_of_scope >= `declare_threshold`, the level that at most
  DECLARE_RATE of the controllers' own example texts reach when scored out of fold (a
  Neyman-Pearson threshold: it bounds how often an in-scope message is turned away, whatever the
  share of out-of-scope traffic). The engine answers those "outside what I can handle" instead of
  asking which controller was meant.

Tuned encoder (`tune=True`; `[training] tune_encoder = true` / BRAIN_TUNE_ENCODER=1): with at
least TUNE_MIN_EXAMPLES example texts and MIN_NEGATIVES negatives, the top layers of MiniLM are
fine-tuned to tell the controllers (and "none") apart (`core.text.encoder_tail`). With many
examples (CLINC150) this lifts the semantic model past what a fixed encoder's features allow.
The shared lower layers run once per query for both the knowledge base and this view, so it
costs a third of an embedding per decision. The out-of-scope model's out-of-fold features come
from tails tuned without the held-out fold, so they show the encoder as it behaves on unseen
text.

Without the dense model (`get_dense_embedder()` is None) only the TF-IDF features are used and
the nearest-example cosines are taken in the character TF-IDF space: lower quality, same API.

Fitted scorers are cached on disk and the built-in controllers' model ships fitted
(`brain.semantic.files`), so `brain ask` never refits.

The parts live beside this module, each computed one way for the fit and the query path:
`features` (views, language weights, cosines), `experts` (the two experts and the TF-IDF
transform), `oos` (the out-of-scope gate), `files` (cache keys and paths), `npz` (the file).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

from brain.semantic import npz
from brain.semantic.experts import Ensemble, FastTfidf
from brain.semantic.features import (
    Views,
    char_analyzer,
    cosines,
    ensemble_weights,
    leave_one_out_nearest,
    multilingual_rows,
    oos_features,
    single_thread_blas,
)
from brain.semantic.files import (
    TUNE_MIN_EXAMPLES,
    cache_key,
    chosen_negatives,
    model_path,
    shared_fit,
    shipped_model,
    training_rows,
    uses_multilingual,
    write_atomically,
)
from brain.semantic.oos import (
    CONFORMAL_DECLARE_THRESHOLD,
    DECLARE_RATE,
    GATE_ALPHA,
    MIN_NEGATIVES,
    fit_oos_model,
)
from core.progress import step
from core.stores.protocols import ArtifactStore
from core.text.email import email_body

if TYPE_CHECKING:
    from controllers.base import Controller
    from core.text.embedder import DenseEmbedder
    from core.text.encoder_tail import EncoderTail

log = logging.getLogger(__name__)

NONE_LABEL = "__none__"


@dataclass(slots=True)
class SemanticDetail:
    """Everything one query produced, for the benchmark and `brain why`."""

    scores: np.ndarray
    """P(controller | text) * gate (the out-of-scope model's; 1 without one), aligned with
    `SemanticScorer.names`."""
    probabilities: np.ndarray
    """P(controller | text) of the ensemble (renormalised without the none class)."""
    out_of_scope: float
    """1 - gate: how sure the scorer is that no controller should take the text."""
    nearest: float
    """Highest cosine between the text and any controller's training text."""
    declared: bool = False
    """out_of_scope reached the scorer's `declare_threshold`: no controller should take it."""


class SemanticScorer:
    """Fitted semantic model over a controller set; `score(text)` per controller, 0..1."""

    def __init__(
        self,
        *,
        names: list[str],
        char_vectorizer: Any,
        word_vectorizer: Any,
        ensemble: Ensemble,
        none_column: int | None,
        reference: np.ndarray | sp.csr_matrix,
        oos_model: Any | None,
        gate_reference: np.ndarray,
        dense: bool,
        declare_threshold: float = CONFORMAL_DECLARE_THRESHOLD,
        tail: EncoderTail | None = None,
        multilingual: bool = False,
    ) -> None:
        self.names = names
        self.char_vectorizer = char_vectorizer
        self.word_vectorizer = word_vectorizer
        self.ensemble = ensemble
        self.none_column = none_column
        self.reference = reference
        self.oos_model = oos_model
        self.gate_reference = gate_reference
        self.dense = dense
        self.declare_threshold = declare_threshold
        self.tail = tail
        """The fine-tuned top of the encoder this model reads texts through (None: as shipped)."""
        self.multilingual = multilingual
        """The logistic expert reads non-English texts' multilingual vectors beside MiniLM's."""
        self.examples_out_of_scope = np.zeros(0, dtype=np.float32)
        """P(out of scope) of each example text from the out-of-fold models (`fit_oos_model`):
        what texts score when unseen, for choosing a declaring bar (`brain.routing.cost`)."""
        self.negatives_out_of_scope = np.zeros(0, dtype=np.float32)
        """The same of each negative (a text no controller should take)."""
        self.embedder: DenseEmbedder | None = None  # attached after fit/load, never saved
        self._fast: tuple[FastTfidf, FastTfidf] | None = None  # built on first use
        self._inscope_columns = np.arange(len(names))

    # -- fitting -------------------------------------------------------------------------
    @classmethod
    def fit(
        cls,
        controllers: Sequence[Controller],
        embedder: DenseEmbedder | None,
        *,
        cache_dir: Path | str | None = None,
        negatives: Sequence[str] | None = None,
        extra_examples: Mapping[str, Sequence[str]] | None = None,
        extra_negatives: Sequence[str] = (),
        tune: bool = False,
        shared: ArtifactStore | None = None,
        lock: Callable[[str], AbstractContextManager[None]] | None = None,
        label: str = "semantic",
        weights: Mapping[str, float] | None = None,
        multilingual: bool = False,
    ) -> SemanticScorer:
        """Fit on the controllers' texts (cached under `cache_dir` when given).

        `shared` (replicas on PostgreSQL): fitted models by cache key, for every replica. A
        replica missing the model locally takes it from there, or fits it (holding `lock`
        of the key, so one replica fits while the others wait) and stores it for the rest,
        named `<label>-<key>` (`brain.learning.org_training` names fits with lessons apart).

        `negatives`: texts no controller should take; default: `<cache_dir>/negatives.jsonl`
        when that file exists (even empty), else the shipped DEFAULT_NEGATIVES; plus
        `extra_negatives`. `extra_examples`: more example texts per controller name (labelled
        training rows, `brain.learning.training`). `tune`: fine-tune the encoder's top layers when
        there are enough examples and negatives (see the module's "tuned encoder").
        `weights`: sample weight of some example texts (default 1; the organisation's
        lessons, `brain.learning.org_training`).
        """
        if not controllers:
            raise ValueError("no controllers to fit the semantic scorer on")
        cache = Path(cache_dir) if cache_dir is not None else None
        negatives = chosen_negatives(cache, negatives, extra_negatives)
        extra = extra_examples or {}
        dense = embedder is not None
        multilingual = multilingual and uses_multilingual(controllers, negatives, dense, extra)
        key = cache_key(controllers, negatives, dense, extra, tune, weights, multilingual)
        path = model_path(cache, key) if cache is not None else None
        shipped = shipped_model(key)
        for candidate in (path, shipped):
            if candidate is None or not candidate.is_file():
                continue
            try:
                loaded = cls.load(candidate, embedder)
                if loaded.names == [c.name for c in controllers]:
                    return loaded
            except Exception as exc:  # a stale or broken cache is refitted, not fatal
                log.warning("semantic cache %s unusable (%s); refitting", candidate, exc)

        def fitted() -> SemanticScorer:
            examples = len(training_rows(controllers, extra)[0]) + len(negatives)
            tuning = " (fine-tuning the encoder: minutes)" if tune and embedder is not None else ""
            fitting = f"fitting the routing model on {examples:,} examples{tuning}"
            with step(fitting), single_thread_blas(fresh=True):  # why: core.native_threads
                rows = (controllers, embedder, list(negatives), extra, tune, weights)
                scorer = cls._fit(*rows, multilingual=multilingual)
            if path is not None:
                try:
                    scorer.save(path)
                except OSError as exc:
                    log.warning("could not cache the semantic model at %s: %s", path, exc)
            return scorer

        if shared is None or path is None:
            return fitted()
        return shared_fit(
            shared,
            lock,
            f"{label}-{key}",
            path,
            fitted,
            lambda: cls.load(path, embedder),
            [c.name for c in controllers],
        )

    @classmethod
    def _fit(
        cls,
        controllers: Sequence[Controller],
        embedder: DenseEmbedder | None,
        negatives: list[str],
        extra: Mapping[str, Sequence[str]],
        tune: bool,
        weighted: Mapping[str, float] | None = None,
        multilingual: bool = False,
    ) -> SemanticScorer:
        from sklearn.feature_extraction.text import TfidfVectorizer

        names = [c.name for c in controllers]
        texts, labels, weights, short = training_rows(controllers, extra, weighted)
        texts = [email_body(t) for t in texts]
        none_label = len(names)
        if negatives:
            texts += negatives
            labels += [none_label] * len(negatives)
            weights += [1.0] * len(negatives)
            short += [False] * len(negatives)
        classes = len(names) + (1 if negatives else 0)
        if classes < 2:
            raise ValueError("the semantic scorer needs at least two classes to tell apart")
        y = np.asarray(labels)
        w = np.asarray(weights)
        char_vectorizer = TfidfVectorizer(
            analyzer=char_analyzer, sublinear_tf=True, dtype=np.float32
        )
        word_vectorizer = TfidfVectorizer(
            analyzer="word",
            ngram_range=(1, 2),
            token_pattern=r"(?u)\b\w+\b",
            sublinear_tf=True,
            dtype=np.float32,
        )
        chars = char_vectorizer.fit_transform(texts)
        words = word_vectorizer.fit_transform(texts)
        example_count = int(((y != none_label) & (w >= 1.0)).sum())
        tail: EncoderTail | None = None
        retune: Callable[[np.ndarray], np.ndarray] | None = None
        dense: np.ndarray | None = None
        if (
            embedder is not None
            and tune
            and len(negatives) >= MIN_NEGATIVES
            and example_count >= TUNE_MIN_EXAMPLES
        ):
            states = embedder.lower_states(texts)
            tail = embedder.train_tail(states, y, w)
            dense = embedder.upper(states, tail)

            def retune(train: np.ndarray) -> np.ndarray:
                fold = embedder.train_tail([states[i] for i in train], y[train], w[train])
                return embedder.upper(states, fold)

        elif embedder is not None:
            dense = embedder.embed(texts, training=True)
        views = Views(
            tfidf=sp.hstack([chars, words], format="csr"),
            chars=chars,
            dense=dense,
            words=words,
            multilingual=multilingual_rows(texts, training=True) if multilingual else None,
        )
        mix = ensemble_weights(texts, dense is not None)
        choice = Ensemble.choose(
            classes,
            views.view,
            views.tfidf,
            y,
            w,
            words=words,
            mix=mix,
            none_label=none_label if negatives else None,
            short=np.asarray(short, dtype=bool),
        )
        if choice is not None and not choice[1]:  # the short texts left out of every part
            kept = np.flatnonzero(~np.asarray(short, dtype=bool))
            views, y, w, mix = views.rows(kept), y[kept], w[kept], mix[kept]
            if retune is not None:
                states = [states[i] for i in kept]  # what `retune` tunes and embeds
        ensemble = Ensemble.fitted(
            classes,
            views.view,
            views.tfidf,
            y,
            w,
            words=views.words,
            mix=mix,
            none_label=none_label if negatives else None,
            chosen=None if choice is None else choice[0],
        )
        inscope = y != none_label
        reference = views.space[inscope]
        loo = leave_one_out_nearest(views.space, inscope)
        oos_model = None
        declare_threshold = CONFORMAL_DECLARE_THRESHOLD
        held_out = (np.zeros(0, dtype=np.float32), np.zeros(0, dtype=np.float32))
        if len(negatives) >= MIN_NEGATIVES:
            oos_model, out_of_fold = fit_oos_model(
                views, y, w, mix, classes, none_label, retune, chosen=ensemble.chosen
            )
            examples = out_of_fold[(y != none_label) & (w >= 1.0)].astype(np.float32)
            declare_threshold = float(np.quantile(examples, 1.0 - DECLARE_RATE))
            held_out = (examples, out_of_fold[y == none_label].astype(np.float32))
        scorer = cls(
            names=names,
            char_vectorizer=char_vectorizer,
            word_vectorizer=word_vectorizer,
            ensemble=ensemble,
            none_column=none_label if negatives else None,
            reference=reference,
            oos_model=oos_model,
            gate_reference=np.sort(loo[inscope]).astype(np.float32),
            dense=embedder is not None,
            declare_threshold=declare_threshold,
            tail=tail,
            multilingual=multilingual,
        )
        scorer.embedder = embedder
        scorer.examples_out_of_scope, scorer.negatives_out_of_scope = held_out
        return scorer

    # -- scoring -------------------------------------------------------------------------
    def _views(self, texts: Sequence[str]) -> Views:
        texts = [email_body(t) for t in texts]  # what the sender wrote, not the thread
        dense: np.ndarray | None = None
        if self.dense:
            if self.embedder is None:
                raise RuntimeError("this scorer was fitted with the dense model, which is missing")
            if len(texts) == 1:  # the engine's query: LRU-cached, lower layers shared
                if self.tail is not None:
                    dense = self.embedder.embed_query_tuned(texts[0], self.tail)[None, :]
                else:
                    dense = self.embedder.embed_query(texts[0])[None, :]
            elif self.tail is not None:
                dense = self.embedder.embed_tuned(texts, self.tail)
            else:
                dense = self.embedder.embed(texts)
        fast = self._tfidf()
        chars = fast[0].transform(texts)
        words = fast[1].transform(texts)
        return Views(
            tfidf=sp.hstack([chars, words], format="csr"),
            chars=chars,
            dense=dense,
            words=words,
            multilingual=multilingual_rows(texts) if self.dense and self.multilingual else None,
        )

    def _tfidf(self) -> tuple[FastTfidf, FastTfidf]:
        if self._fast is None:
            self._fast = (FastTfidf.of(self.char_vectorizer), FastTfidf.of(self.word_vectorizer))
        return self._fast

    def analyse_many(self, texts: Sequence[str]) -> list[SemanticDetail]:
        """Scores and their parts for several texts (batched)."""
        views = self._views(texts)
        probabilities = self.ensemble.proba(
            views.view, views.tfidf, ensemble_weights(texts, self.dense), views.words
        )
        similar = cosines(views.space, self.reference)
        nearest = similar.max(axis=1)
        if self.oos_model is not None:
            features = oos_features(probabilities, self.none_column, similar, views.multilingual)
            z = features @ self.oos_model.coef_[0] + self.oos_model.intercept_[0]
            gate = 1.0 / (1.0 + np.exp(np.clip(z, -50.0, 50.0)))
            scale = gate
        else:
            rank = np.searchsorted(self.gate_reference, nearest, side="right")
            pvalue = (rank + 1) / (len(self.gate_reference) + 1)
            gate = np.minimum(1.0, pvalue / GATE_ALPHA)
            scale = np.ones_like(gate)  # a p-value declares; it is no evidence against one
        inscope = probabilities[:, self._inscope_columns]
        inscope = inscope / np.maximum(inscope.sum(axis=1, keepdims=True), 1e-12)
        scores = inscope * scale[:, None]
        return [
            SemanticDetail(
                scores=scores[i].astype(np.float32),
                probabilities=inscope[i].astype(np.float32),
                out_of_scope=float(1.0 - gate[i]),
                nearest=float(nearest[i]),
                declared=bool(1.0 - gate[i] >= self.declare_threshold),
            )
            for i in range(len(texts))
        ]

    def analyse(self, text: str) -> SemanticDetail:
        """Scores and their parts for one text.

        One query is a handful of matrix-vector products: a second BLAS thread only adds
        hand-off cost (several times the product itself on a busy 2-core machine).
        """
        with single_thread_blas():
            return self.analyse_many([text])[0]

    def score(self, text: str) -> dict[str, float]:
        """0..1 per controller: P(the text is in scope and belongs to that controller)."""
        detail = self.analyse(text)
        return dict(zip(self.names, detail.scores.tolist(), strict=True))

    # -- persistence ---------------------------------------------------------------------
    def parts(self) -> npz.ModelParts:
        """What the model's file stores (`brain.semantic.npz`); the embedder is not stored."""
        return npz.ModelParts(
            names=self.names,
            ensemble=self.ensemble,
            none_column=self.none_column,
            reference=self.reference,
            oos_model=self.oos_model,
            gate_reference=self.gate_reference,
            dense=self.dense,
            declare_threshold=self.declare_threshold,
            tail=self.tail,
            tfidf=self._tfidf(),
            out_of_fold=(self.examples_out_of_scope, self.negatives_out_of_scope),
            multilingual=self.multilingual,
        )

    def save(self, path: Path | str) -> Path:
        """Write the model's arrays to `path` atomically (`brain.semantic.npz`)."""
        target = Path(path)
        write_atomically(target, npz.to_bytes(self.parts()))
        return target

    @classmethod
    def load(cls, path: Path | str, embedder: DenseEmbedder | None) -> SemanticScorer:
        """Read a saved scorer and attach the embedder (ValueError when it does not fit)."""
        parts = npz.read_shared(Path(path))
        scorer = cls(char_vectorizer=None, word_vectorizer=None, **parts.scorer_fields())
        scorer._fast = parts.tfidf
        scorer.examples_out_of_scope, scorer.negatives_out_of_scope = parts.out_of_fold
        if scorer.dense and embedder is None:
            raise ValueError("the cached model needs the dense embedder, which is missing")
        tail = scorer.tail
        if (
            tail is not None
            and not tail.onnx
            and embedder is not None
            and embedder.engine == "onnx"
        ):
            # fitted before ONNX Runtime ran the embeddings: refit once, so the tuned top's
            # graph is stored with it (exporting it in every process would load PyTorch)
            raise ValueError("the cached tuned encoder has no ONNX graph")
        scorer.embedder = embedder
        return scorer
