"""Semantic signal (seed 000, 30%): how well a message matches each controller's responsibilities.

`SemanticScorer.fit(controllers, embedder)` learns from every controller's description, label,
examples and keywords (short texts); `.score(text)` gives each controller a 0..1 score.

How (no LLM, a few numpy products per query, whatever the number of controllers):

- two views of every text: the MiniLM sentence embedding (when the dense model is there;
  optionally with its top layers fine-tuned on the controllers' texts, see "tuned encoder"
  below) and
  character 2-4-gram (`core.text.sparse.char_ngrams`, language-agnostic: Chinese needs no
  segmenter) plus word 1-2-gram TF-IDF;
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
- score[c] = P(c | text) * gate: the probability that the text is in scope and belongs to c.
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

Fitted scorers are cached on disk (`cache_dir/semantic-<key>.npz`, numpy arrays:
`brain.semantic_file`; the key hashing the controllers' texts, the negatives and the embedder
kind), so `brain ask` never refits. The model of the built-in controllers on the shipped
training data is fitted at build time too (`scripts/fit_default_semantic.py` ->
`brain/data/semantic-<key>.npz`) and loaded when a home's key is that one, so a fresh home does
not spend its first ask fitting it.

Why one file past the usual size: the fit, its on-disk cache and the query path share the
feature views, the expert weights and the out-of-scope model's out-of-fold features, which must
be computed the same way at fit and at query time; split apart, the two halves drift.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import logging
import os
import re
import tempfile
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

from core.progress import step
from core.stores.protocols import ArtifactStore
from core.text.language import detect_language
from core.text.sparse import char_ngrams

if TYPE_CHECKING:
    from controllers.base import Controller
    from core.text.embedder import DenseEmbedder
    from core.text.encoder_tail import EncoderTail

log = logging.getLogger(__name__)

#: Where the build-time fit of the built-in controllers lives (`semantic-<key>.npz`).
SHIPPED_DIR = Path(__file__).parent / "data"
#: A fitted model's file name: `semantic-<key>` and this (`brain.semantic_file`).
MODEL_SUFFIX = ".npz"
#: Fits cached by versions before the .npz files, never read (a home refits once instead).
LEGACY_SUFFIX = ".joblib"

#: In the cache key: 6 since the .npz files, so that no version reads another's files or
#: replicas' shared artifacts.
FORMAT_VERSION = 6
#: Sample weight of a keyword or label as a training text (examples weigh 1).
SHORT_TEXT_WEIGHT = 0.5
#: Inverse regularisation of the logistic regression.
CLASSIFIER_C = 10.0
#: Weight of the logistic regression's log-probabilities in the product of experts, by the
#: text's language (`core.text.language.detect_language`). English: chosen on an 80/20 split of
#: CLINC150 train. Chinese and mixed: 5-fold cross-validation on the shipped training rows
#: (`benchmarks/language_weight.py`, negatives included): zh rows right 77.1% at 0.85, 85.9% at
#: 0.7, 87.6% at 0.5; mixed rows 98.0%, 100%, 97.0% (99 rows); en rows 90.0% to 89.4%.
#: 0.7 rather than 0.5 was picked after seeing 0.5 make five of the dev set's short vague
#: Chinese messages ("处理一下") look sure of one controller.
ENSEMBLE_WEIGHT = {"en": 0.85, "mixed": 0.7, "zh": 0.7}
#: Additive smoothing of the naive Bayes.
BAYES_ALPHA = 0.01
#: Without negatives, texts whose nearest-example cosine is in the lowest GATE_ALPHA of the
#: training texts' own are scaled down.
GATE_ALPHA = 0.2
#: Negatives needed before the out-of-scope model is trained (fewer: the conformal gate).
MIN_NEGATIVES = 10
#: Example texts (not keywords) needed before the encoder's top layers are fine-tuned: with
#: fewer, a tuned encoder memorises them rather than learning the controllers apart.
TUNE_MIN_EXAMPLES = 200
#: Folds of the out-of-fold features for the out-of-scope model.
OOS_FOLDS = 3
#: Share of in-scope example texts (scored out of fold) allowed to be declared out of scope.
DECLARE_RATE = 0.002
#: Without negatives: out_of_scope >= 1 - r / GATE_ALPHA <=> conformal p-value <= r.
CONFORMAL_DECLARE_THRESHOLD = 1.0 - DECLARE_RATE / GATE_ALPHA
#: Rows of the similarity matrix computed at once (bounds memory while fitting).
CHUNK = 2048
NONE_LABEL = "__none__"
NEGATIVES_FILE = "negatives.jsonl"
#: Used when the home has no negatives file: everyday texts outside IT operations (CLINC150).
DEFAULT_NEGATIVES = Path(__file__).parent / "data" / "semantic_negatives.jsonl"


def char_analyzer(text: str) -> list[str]:
    """Character 2-4-grams, normalised the same way as the knowledge base's sparse channel."""
    return char_ngrams(text, 2, 4)


#: The word vectorizer's tokens (sklearn's `token_pattern`, kept to one-letter words).
WORD_TOKEN_PATTERN = r"(?u)\b\w+\b"
_WORD = re.compile(WORD_TOKEN_PATTERN)


def word_grams(text: str) -> list[str]:
    """Lower-cased words and word pairs: exactly what sklearn's word analyzer gives for the
    scorer's settings (token_pattern above, ngram_range (1, 2), no stop words or accents)."""
    tokens = _WORD.findall(text.lower())
    return tokens + [" ".join(pair) for pair in itertools.pairwise(tokens)]


@dataclass(frozen=True, slots=True)
class _Linear:
    """A fitted binary logistic model's coefficients, as the query path reads them."""

    coef_: np.ndarray
    intercept_: np.ndarray


@dataclass(slots=True)
class SemanticDetail:
    """Everything one query produced, for the benchmark and `brain why`."""

    scores: np.ndarray
    """P(controller | text) * gate, aligned with `SemanticScorer.names`."""
    probabilities: np.ndarray
    """P(controller | text) of the ensemble (renormalised without the none class)."""
    out_of_scope: float
    """1 - gate: how sure the scorer is that no controller should take the text."""
    nearest: float
    """Highest cosine between the text and any controller's training text."""
    declared: bool = False
    """out_of_scope reached the scorer's `declare_threshold`: no controller should take it."""


def _training_rows(
    controllers: Sequence[Controller],
    extra: Mapping[str, Sequence[str]],
    weighted: Mapping[str, float] | None = None,
) -> tuple[list[str], list[int], list[float]]:
    texts: list[str] = []
    labels: list[int] = []
    weights: list[float] = []
    for index, controller in enumerate(controllers):
        full = [str(e) for e in controller.examples if str(e).strip()]
        full += [str(e) for e in extra.get(controller.name, ()) if str(e).strip()]
        if str(controller.description).strip():
            full.append(str(controller.description))
        short = [str(k) for k in controller.keywords if str(k).strip()]
        label = str(getattr(controller, "label", "") or controller.name.replace("_", " "))
        short.append(label)
        for text in full:
            texts.append(text)
            labels.append(index)
            weights.append(float((weighted or {}).get(text, 1.0)))
        for text in short:
            texts.append(text)
            labels.append(index)
            weights.append(SHORT_TEXT_WEIGHT)
    return texts, labels, weights


def shipped_model(key: str) -> Path:
    """Where the build-time fit for `key` is (it exists only for the built-in controllers on
    the shipped training data: `scripts/fit_default_semantic.py`)."""
    return model_path(SHIPPED_DIR, key)


def model_path(folder: Path, key: str) -> Path:
    """The file of the fit with cache key `key` in `folder`."""
    return folder / f"semantic-{key}{MODEL_SUFFIX}"


def _negatives(
    cache: Path | None, negatives: Sequence[str] | None, extra: Sequence[str]
) -> list[str]:
    """The negatives a fit uses: given ones, else the cache's own file, else the shipped."""
    if negatives is None:
        own = cache / NEGATIVES_FILE if cache is not None else None
        negatives = read_negatives(own if own is not None and own.exists() else DEFAULT_NEGATIVES)
    return [*negatives, *extra]


def fit_key(
    controllers: Sequence[Controller],
    *,
    dense: bool,
    cache_dir: Path | str | None = None,
    negatives: Sequence[str] | None = None,
    extra_examples: Mapping[str, Sequence[str]] | None = None,
    extra_negatives: Sequence[str] = (),
    tune: bool = False,
    weights: Mapping[str, float] | None = None,
) -> str:
    """The cache key `SemanticScorer.fit` uses for these arguments (without fitting)."""
    cache = Path(cache_dir) if cache_dir is not None else None
    chosen = _negatives(cache, negatives, extra_negatives)
    return cache_key(controllers, chosen, dense, extra_examples or {}, tune, weights)


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".semantic-", suffix=MODEL_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:  # no half-written temporary left beside the models
        Path(tmp).unlink(missing_ok=True)
        raise


def cache_key(
    controllers: Sequence[Controller],
    negatives: Sequence[str],
    dense: bool,
    extra: Mapping[str, Sequence[str]] | None = None,
    tune: bool = False,
    weights: Mapping[str, float] | None = None,
) -> str:
    """Hash of everything the fitted model depends on."""
    from core.text import encoder_tail

    extra = extra or {}
    content: dict[str, Any] = {
        "tune": [
            encoder_tail.TUNED_LAYERS,
            encoder_tail.EPOCHS,
            encoder_tail.LEARNING_RATE,
            TUNE_MIN_EXAMPLES,
        ]
        if tune
        else None,
        "extra": {c.name: list(extra.get(c.name, ())) for c in controllers},
        "format": FORMAT_VERSION,
        "dense": dense,
        "controllers": [
            [
                c.name,
                str(getattr(c, "label", "")),
                str(c.description),
                [str(k) for k in c.keywords],
                [str(e) for e in c.examples],
            ]
            for c in controllers
        ],
        "negatives": list(negatives),
    }
    if weights:  # only then: the keys of fits without weights stay as they were
        content["weights"] = sorted(weights.items())
    blob = json.dumps(content, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:20]


def read_negatives(path: Path) -> list[str]:
    """Texts of a JSON-lines file ({"text": ...} per line); bad lines are skipped."""
    texts: list[str] = []
    if not path.is_file():
        return texts
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and isinstance(row.get("text"), str) and row["text"].strip():
            texts.append(row["text"])
    return texts


class _NaiveBayes:
    """Multinomial naive Bayes over TF-IDF rows, stored sparse (uniform class prior).

    log P(x | c) = sum_j x_j log((n_cj + a) / (n_c + a V))
                 = |x|_1 (log a - log(n_c + a V)) + x . log1p(n_cj / a)
    and the second term is a sparse product, so memory grows with the n-grams each class has,
    not classes x vocabulary.
    """

    def __init__(self, alpha: float = BAYES_ALPHA) -> None:
        self.alpha = alpha
        self.log_ratio: sp.csr_matrix | None = None
        self.mass = np.zeros(0)

    def fit(self, x: sp.csr_matrix, y: np.ndarray, w: np.ndarray, classes: int) -> _NaiveBayes:
        onehot = sp.csr_matrix((w, (y, np.arange(len(y)))), shape=(classes, len(y)))
        counts = sp.csr_matrix(onehot @ x, dtype=np.float64)
        totals = np.asarray(counts.sum(axis=1)).ravel()
        counts.data = np.log1p(counts.data / self.alpha)
        # Stored vocabulary x classes, so a query row multiplies CSR by CSR with no conversion.
        self.log_ratio = counts.T.astype(np.float32).tocsr()
        self.mass = np.log(self.alpha) - np.log(totals + self.alpha * x.shape[1])
        return self

    def log_proba(self, x: sp.csr_matrix) -> np.ndarray:
        assert self.log_ratio is not None
        product = (x @ self.log_ratio).toarray()
        joint = product + np.asarray(x.sum(axis=1)) * self.mass[None, :]
        return _log_softmax(joint)


def _log_softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


class _Ensemble:
    """Logistic regression on one view times naive Bayes on the TF-IDF view."""

    def __init__(self, classes: int) -> None:
        from sklearn.linear_model import LogisticRegression

        self.classes = classes
        self.logistic = LogisticRegression(C=CLASSIFIER_C, max_iter=300)
        self.bayes = _NaiveBayes()

    def fit(
        self, view: np.ndarray | sp.csr_matrix, tfidf: sp.csr_matrix, y: np.ndarray, w: np.ndarray
    ) -> _Ensemble:
        self.logistic.fit(view, y, sample_weight=w)
        self.bayes.fit(tfidf, y, w, self.classes)
        # Plain arrays for the query path (sklearn's per-call validation costs milliseconds).
        self.coef = np.asarray(self.logistic.coef_, dtype=np.float32)
        self.intercept = np.asarray(self.logistic.intercept_, dtype=np.float32)
        self.labels = np.asarray(self.logistic.classes_)
        if self.coef.shape[0] == 1:  # binary: sklearn keeps one row for the second class
            self.coef = np.vstack([-self.coef / 2, self.coef / 2])
            self.intercept = np.array([-self.intercept[0] / 2, self.intercept[0] / 2])
        return self

    def proba(
        self, view: np.ndarray | sp.csr_matrix, tfidf: sp.csr_matrix, weight: np.ndarray
    ) -> np.ndarray:
        """P(class | text); `weight`: each row's logistic weight (`ensemble_weights`)."""
        product: Any = view @ self.coef.T
        logits = np.asarray(product.toarray() if sp.issparse(product) else product)
        logits = logits + self.intercept
        logistic = np.full((view.shape[0], self.classes), -30.0)
        logistic[:, self.labels] = _log_softmax(logits)
        weight = weight[:, None]
        joint = weight * logistic + (1.0 - weight) * self.bayes.log_proba(tfidf)
        return np.exp(_log_softmax(joint))


class _FastTfidf:
    """A fitted sublinear, L2-normalised TfidfVectorizer's transform, without sklearn's
    per-call input validation (which dominates the cost of one short query), and without
    sklearn at all once fitted: the analyzer is named ("char" or "word", see `word_grams`), not
    a closure, so a saved model loads without importing scikit-learn (and scipy.stats, which
    it imports): about half of a warm `brain ask` process's import time."""

    def __init__(self, vectorizer: Any) -> None:
        self.kind = "char" if vectorizer.analyzer is char_analyzer else "word"
        if self.kind == "word" and (
            vectorizer.token_pattern != WORD_TOKEN_PATTERN
            or tuple(vectorizer.ngram_range) != (1, 2)
            or not vectorizer.lowercase
            or vectorizer.stop_words is not None
            or vectorizer.strip_accents is not None
        ):
            raise ValueError("word_grams reproduces only the scorer's own word vectorizer")
        self.vocabulary: dict[str, int] = dict(vectorizer.vocabulary_)
        self.idf = np.asarray(vectorizer.idf_, dtype=np.float32)

    def analyzer(self, text: str) -> list[str]:
        return char_analyzer(text) if self.kind == "char" else word_grams(text)

    def transform(self, texts: Sequence[str]) -> sp.csr_matrix:
        indptr = [0]
        indices: list[int] = []
        values: list[float] = []
        for text in texts:
            counts: dict[int, int] = {}
            for gram in self.analyzer(text):
                column = self.vocabulary.get(gram)
                if column is not None:
                    counts[column] = counts.get(column, 0) + 1
            columns = sorted(counts)
            row = (1.0 + np.log(np.array([counts[c] for c in columns], dtype=np.float32))) * (
                self.idf[columns]
            )
            norm = float(np.sqrt((row * row).sum())) if len(columns) else 0.0
            indices.extend(columns)
            values.extend((row / norm).tolist() if norm > 0 else row.tolist())
            indptr.append(len(indices))
        return sp.csr_matrix(
            (np.asarray(values, dtype=np.float32), indices, indptr),
            shape=(len(texts), len(self.vocabulary)),
        )


def ensemble_weights(texts: Sequence[str], dense: bool) -> np.ndarray:
    """The logistic expert's weight for each text: by its language when that expert reads the
    MiniLM embedding, the English weight when it reads the TF-IDF (the weights were chosen
    for MiniLM's weakness on Chinese)."""
    if not dense:
        return np.full(len(texts), ENSEMBLE_WEIGHT["en"])
    return np.array([ENSEMBLE_WEIGHT[detect_language(t)] for t in texts])


def _oos_features(
    probabilities: np.ndarray, none_column: int | None, cosines: np.ndarray
) -> np.ndarray:
    """Per query: log max prob, log margin, log P(none), nearest cosine, mean of the top 5."""
    if none_column is None:
        inscope = probabilities
        none = np.zeros(len(probabilities))
    else:
        inscope = np.delete(probabilities, none_column, axis=1)
        none = probabilities[:, none_column]
    inscope = inscope / np.maximum(inscope.sum(axis=1, keepdims=True), 1e-12)
    if inscope.shape[1] > 1:
        top2 = -np.partition(-inscope, 1, axis=1)[:, :2]
        best, second = top2[:, 0], top2[:, 1]
    else:
        best, second = inscope[:, 0], np.zeros(len(inscope))
    k = min(5, cosines.shape[1])
    topk = -np.partition(-cosines, k - 1, axis=1)[:, :k]
    return np.column_stack(
        [
            np.log(best + 1e-6),
            np.log(best + 1e-6) - np.log(second + 1e-6),
            np.log(none + 1e-6),
            topk.max(axis=1),
            topk.mean(axis=1),
        ]
    )


@dataclass(slots=True)
class _Views:
    """The feature views of some texts."""

    tfidf: sp.csr_matrix
    """Character and word TF-IDF side by side."""
    chars: sp.csr_matrix
    dense: np.ndarray | None

    @property
    def view(self) -> np.ndarray | sp.csr_matrix:
        """What the logistic regression reads."""
        return self.dense if self.dense is not None else self.tfidf

    @property
    def space(self) -> np.ndarray | sp.csr_matrix:
        """Where nearest-example cosines are taken (L2-normalised rows)."""
        return self.dense if self.dense is not None else self.chars

    def rows(self, index: np.ndarray) -> _Views:
        return _Views(
            tfidf=self.tfidf[index],
            chars=self.chars[index],
            dense=self.dense[index] if self.dense is not None else None,
        )


class SemanticScorer:
    """Fitted semantic model over a controller set; `score(text)` per controller, 0..1."""

    def __init__(
        self,
        *,
        names: list[str],
        char_vectorizer: Any,
        word_vectorizer: Any,
        ensemble: _Ensemble,
        none_column: int | None,
        reference: np.ndarray | sp.csr_matrix,
        oos_model: Any | None,
        gate_reference: np.ndarray,
        dense: bool,
        declare_threshold: float = CONFORMAL_DECLARE_THRESHOLD,
        tail: EncoderTail | None = None,
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
        self.embedder: DenseEmbedder | None = None  # attached after fit/load, never saved
        self._fast: tuple[_FastTfidf, _FastTfidf] | None = None  # built on first use
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
    ) -> SemanticScorer:
        """Fit on the controllers' texts (cached under `cache_dir` when given).

        `shared` (replicas on PostgreSQL): fitted models by cache key, for every replica. A
        replica missing the model locally takes it from there, or fits it (holding `lock`
        of the key, so one replica fits while the others wait) and stores it for the rest,
        named `<label>-<key>` (`brain.org_training` names fits with lessons apart).

        `negatives`: texts no controller should take; default: `<cache_dir>/negatives.jsonl`
        when that file exists (even empty), else the shipped DEFAULT_NEGATIVES; plus
        `extra_negatives`. `extra_examples`: more example texts per controller name (labelled
        training rows, `brain.training`). `tune`: fine-tune the encoder's top layers when
        there are enough examples and negatives (see the module's "tuned encoder").
        `weights`: sample weight of some example texts (default 1; the organisation's
        lessons, `brain.org_training`).
        """
        if not controllers:
            raise ValueError("no controllers to fit the semantic scorer on")
        cache = Path(cache_dir) if cache_dir is not None else None
        negatives = _negatives(cache, negatives, extra_negatives)
        extra = extra_examples or {}
        key = cache_key(controllers, negatives, embedder is not None, extra, tune, weights)
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
            examples = len(_training_rows(controllers, extra)[0]) + len(negatives)
            tuning = " (fine-tuning the encoder: minutes)" if tune and embedder is not None else ""
            with step(f"fitting the routing model on {examples:,} examples{tuning}"):
                scorer = cls._fit(controllers, embedder, list(negatives), extra, tune, weights)
            if path is not None:
                try:
                    scorer.save(path)
                except OSError as exc:
                    log.warning("could not cache the semantic model at %s: %s", path, exc)
            return scorer

        if shared is None or path is None:
            return fitted()
        name = f"{label}-{key}"
        with lock(f"fit:{name}") if lock is not None else contextlib.nullcontext():
            blob = shared.get(name)
            if blob is not None:
                try:
                    _write_atomically(path, blob)
                    loaded = cls.load(path, embedder)
                    if loaded.names == [c.name for c in controllers]:
                        return loaded
                except Exception as exc:  # refit (and replace it) rather than fail
                    log.warning("shared semantic model %s unusable (%s); refitting", name, exc)
            scorer = fitted()
            if path.is_file():
                shared.put(name, path.read_bytes())
            return scorer

    @classmethod
    def _fit(
        cls,
        controllers: Sequence[Controller],
        embedder: DenseEmbedder | None,
        negatives: list[str],
        extra: Mapping[str, Sequence[str]],
        tune: bool,
        weighted: Mapping[str, float] | None = None,
    ) -> SemanticScorer:
        from sklearn.feature_extraction.text import TfidfVectorizer

        names = [c.name for c in controllers]
        texts, labels, weights = _training_rows(controllers, extra, weighted)
        none_label = len(names)
        if negatives:
            texts += negatives
            labels += [none_label] * len(negatives)
            weights += [1.0] * len(negatives)
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
            dense = embedder.embed(texts)
        views = _Views(tfidf=sp.hstack([chars, words], format="csr"), chars=chars, dense=dense)
        ensemble = _Ensemble(classes).fit(views.view, views.tfidf, y, w)
        inscope = y != none_label
        reference = views.space[inscope]
        loo = _leave_one_out_nearest(views.space, inscope)
        oos_model = None
        declare_threshold = CONFORMAL_DECLARE_THRESHOLD
        if len(negatives) >= MIN_NEGATIVES:
            mix = ensemble_weights(texts, dense is not None)
            oos_model, out_of_fold = _fit_oos_model(views, y, w, mix, classes, none_label, retune)
            examples = out_of_fold[(y != none_label) & (w >= 1.0)]
            declare_threshold = float(np.quantile(examples, 1.0 - DECLARE_RATE))
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
        )
        scorer.embedder = embedder
        return scorer

    # -- scoring -------------------------------------------------------------------------
    def _views(self, texts: Sequence[str]) -> _Views:
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
        return _Views(tfidf=sp.hstack([chars, words], format="csr"), chars=chars, dense=dense)

    def _tfidf(self) -> tuple[_FastTfidf, _FastTfidf]:
        if self._fast is None:
            self._fast = (_FastTfidf(self.char_vectorizer), _FastTfidf(self.word_vectorizer))
        return self._fast

    def analyse_many(self, texts: Sequence[str]) -> list[SemanticDetail]:
        """Scores and their parts for several texts (batched)."""
        views = self._views(texts)
        probabilities = self.ensemble.proba(
            views.view, views.tfidf, ensemble_weights(texts, self.dense)
        )
        cosines = _cosines(views.space, self.reference)
        nearest = cosines.max(axis=1)
        if self.oos_model is not None:
            features = _oos_features(probabilities, self.none_column, cosines)
            z = features @ self.oos_model.coef_[0] + self.oos_model.intercept_[0]
            gate = 1.0 / (1.0 + np.exp(np.clip(z, -50.0, 50.0)))
        else:
            rank = np.searchsorted(self.gate_reference, nearest, side="right")
            pvalue = (rank + 1) / (len(self.gate_reference) + 1)
            gate = np.minimum(1.0, pvalue / GATE_ALPHA)
        inscope = probabilities[:, self._inscope_columns]
        inscope = inscope / np.maximum(inscope.sum(axis=1, keepdims=True), 1e-12)
        scores = inscope * gate[:, None]
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
        with _single_thread_blas():
            return self.analyse_many([text])[0]

    def score(self, text: str) -> dict[str, float]:
        """0..1 per controller: P(the text is in scope and belongs to that controller)."""
        detail = self.analyse(text)
        return dict(zip(self.names, detail.scores.tolist(), strict=True))

    # -- persistence ---------------------------------------------------------------------
    def save(self, path: Path | str) -> Path:
        """Write the model's arrays to `path` atomically (`brain.semantic_file`); the embedder
        is not stored."""
        from brain import semantic_file

        target = Path(path)
        _write_atomically(target, semantic_file.to_bytes(self))
        return target

    @classmethod
    def load(cls, path: Path | str, embedder: DenseEmbedder | None) -> SemanticScorer:
        """Read a saved scorer and attach the embedder (ValueError when it does not fit)."""
        from brain import semantic_file

        scorer = semantic_file.read(Path(path))
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


_BLAS: Any = None


def _single_thread_blas() -> Any:
    """Context manager limiting BLAS to one thread (threadpoolctl, a scikit-learn dependency)."""
    global _BLAS
    if _BLAS is None:
        from threadpoolctl import ThreadpoolController

        _BLAS = ThreadpoolController()
    return _BLAS.limit(limits=1, user_api="blas")


def _cosines(queries: np.ndarray | sp.spmatrix, reference: np.ndarray | sp.spmatrix) -> np.ndarray:
    """Cosines of queries against reference rows (both L2-normalised), as a dense array."""
    product = queries @ reference.T
    return np.asarray(product.toarray() if sp.issparse(product) else product, dtype=np.float32)


def _leave_one_out_nearest(space: np.ndarray | sp.spmatrix, inscope: np.ndarray) -> np.ndarray:
    """Each row's highest cosine to another in-scope training text."""
    reference = space[inscope]
    positions = np.flatnonzero(inscope)
    nearest = np.zeros(space.shape[0], dtype=np.float32)
    for start in range(0, space.shape[0], CHUNK):
        stop = min(start + CHUNK, space.shape[0])
        block = _cosines(space[start:stop], reference)
        rows = np.arange(start, stop)
        own = np.searchsorted(positions, rows)
        clipped = np.minimum(own, len(positions) - 1)
        mine = (own < len(positions)) & (positions[clipped] == rows)
        block[np.flatnonzero(mine), own[mine]] = -1.0
        nearest[start:stop] = block.max(axis=1) if block.shape[1] else 0.0
    return nearest


def _fit_oos_model(
    views: _Views,
    y: np.ndarray,
    w: np.ndarray,
    mix: np.ndarray,
    classes: int,
    none_label: int,
    retune: Callable[[np.ndarray], np.ndarray] | None = None,
) -> tuple[Any, np.ndarray]:
    """Logistic model of P(out of scope) on out-of-fold features of the ensemble, and its
    P(out of scope) of every training text from those out-of-fold features.

    `mix`: each text's logistic weight in the ensemble (`ensemble_weights`). `retune(train)`:
    every text's dense vector through an encoder tuned on the `train` rows only (a tuned
    encoder has seen its own training texts: their vectors are too clean)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold

    features = np.zeros((len(y), 5))
    smallest = int(np.bincount(y, minlength=classes).min())
    folds = StratifiedKFold(n_splits=max(2, min(OOS_FOLDS, smallest)), shuffle=True, random_state=0)
    for train, held in folds.split(np.zeros(len(y)), y):
        part, rest = views.rows(train), views.rows(held)
        if retune is not None:
            dense = retune(train)
            part.dense, rest.dense = dense[train], dense[held]
        ensemble = _Ensemble(classes).fit(part.view, part.tfidf, y[train], w[train])
        probabilities = ensemble.proba(rest.view, rest.tfidf, mix[held])
        reference = part.space[y[train] != none_label]
        cosines = _cosines(rest.space, reference)
        features[held] = _oos_features(probabilities, none_label, cosines)
    model = LogisticRegression(C=1.0, class_weight="balanced", max_iter=1000)
    model.fit(features, y == none_label)
    return model, model.predict_proba(features)[:, 1]
