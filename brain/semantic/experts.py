"""The experts of the semantic model: logistic regression on one view times naive Bayes on the
TF-IDF view, and the TF-IDF transform the query path runs without scikit-learn.

Each is built either by fitting (scikit-learn, at fit time only) or from the plain arrays a
saved model holds (`from_arrays`), so reading a model file needs numpy and scipy alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from brain.semantic import lexical
from brain.semantic.features import WORD_TOKEN_PATTERN, char_analyzer, log_softmax, word_grams
from brain.semantic.lexical import Lexical

#: Inverse regularisation of the logistic regression.
CLASSIFIER_C = 10.0
#: The logistic regression's solver on a sparse view (character TF-IDF, when no dense encoder
#: runs): its vocabulary times classes is hundreds of thousands of weights, where each lbfgs
#: step costs tens of milliseconds; Newton-CG reaches the same optimum (the problem is strictly
#: convex) in a fraction of the time, as for the lexical expert (`lexical.LEXICAL_SOLVER`).
#: Dense views (384 dimensions) keep lbfgs.
SPARSE_SOLVER = "newton-cg"
#: Additive smoothing of the naive Bayes.
BAYES_ALPHA = 0.01


@dataclass(frozen=True, slots=True)
class Linear:
    """A fitted binary logistic model's coefficients, as the query path reads them."""

    coef_: np.ndarray
    intercept_: np.ndarray


class NaiveBayes:
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

    def fit(self, x: sp.csr_matrix, y: np.ndarray, w: np.ndarray, classes: int) -> NaiveBayes:
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
        return log_softmax(joint)


class Ensemble:
    """Logistic regression on one view times naive Bayes on the TF-IDF view, times (with many
    examples) the lexical expert on word TF-IDF (`brain.semantic.lexical`)."""

    def __init__(
        self,
        classes: int,
        coef: np.ndarray,
        intercept: np.ndarray,
        labels: np.ndarray,
        bayes: NaiveBayes,
        lexical: Lexical | None = None,
        lexical_weight: float = 0.0,
        bayes_scale: float = 1.0,
    ) -> None:
        self.classes = classes
        self.coef = coef
        self.intercept = intercept
        self.labels = labels
        self.bayes = bayes
        self.lexical = lexical
        self.lexical_weight = lexical_weight
        self.bayes_scale = bayes_scale

    @classmethod
    def fitted(
        cls,
        classes: int,
        view: np.ndarray | sp.csr_matrix,
        tfidf: sp.csr_matrix,
        y: np.ndarray,
        w: np.ndarray,
        *,
        words: sp.csr_matrix | None = None,
        mix: np.ndarray | None = None,
        none_label: int | None = None,
        chosen: tuple[float, float] | None = None,
    ) -> Ensemble:
        """The experts fitted on the rows `y` (weights `w`) of the views.

        With `words` and enough examples the lexical expert joins; its weight and the naive
        Bayes' scale are `chosen`, else picked on a held-out fold (`choose`)."""
        if chosen is None:
            choice = cls.choose(
                classes, view, tfidf, y, w, words=words, mix=mix, none_label=none_label
            )
            if choice is None:
                return cls._plain(classes, view, tfidf, y, w)
            chosen = choice[0]
        ensemble = cls._plain(classes, view, tfidf, y, w)
        ensemble.lexical_weight, ensemble.bayes_scale = chosen
        if ensemble.lexical_weight > 0 and words is not None:
            ensemble.lexical = Lexical.fitted(words, y, w)
        return ensemble

    @classmethod
    def choose(
        cls,
        classes: int,
        view: np.ndarray | sp.csr_matrix,
        tfidf: sp.csr_matrix,
        y: np.ndarray,
        w: np.ndarray,
        *,
        words: sp.csr_matrix | None,
        mix: np.ndarray | None,
        none_label: int | None,
        short: np.ndarray | None = None,
    ) -> tuple[tuple[float, float], bool] | None:
        """((lexical weight, naive Bayes scale), whether the `short` rows stay): chosen on a
        held-out fold of the example texts (`lexical.holdout`; `mix`: each row's logistic
        weight), with and without the short rows (the controllers' keywords and labels as
        training texts) when there are any; None with too few examples for the lexical expert
        (the plain experts on every row).

        Why the short rows are weighed too: keywords mined from thousands of labelled rows
        repeat the rows' own words one at a time, and as training texts they pulled the
        embedding's logistic regression off the messages (on a fold of CLINC150's train, right
        intent first 0.9733 with them, 0.9768 without) and taught the out-of-scope gate that
        lone words far from every example are in scope. A person's few curated keywords on a
        hand-written controller are another matter: the fold decides, ties keep them."""
        if words is None or not lexical.wanted(y, w, none_label):
            return None
        fit, held = lexical.holdout(y, w)
        mixed = (mix[held] if mix is not None else np.full(len(held), 0.85))[:, None]
        best: tuple[tuple[float, float], tuple[float, float], bool] | None = None
        dropping = short is not None and bool(short[fit].any())
        for keep in (True, False) if dropping else (True,):
            rows = fit if keep or short is None else fit[~short[fit]]
            part = cls._plain(classes, view[rows], tfidf[rows], y[rows], w[rows])
            part.lexical = Lexical.fitted(words[rows], y[rows], w[rows])
            logistic, bayes, lex = part.log_parts(view[held], tfidf[held], words[held])

            def parts(
                v: float,
                b: float,
                logistic: np.ndarray = logistic,
                bayes: np.ndarray = bayes,
                lex: np.ndarray = lex,
            ) -> np.ndarray:
                return log_softmax(mixed * logistic + b * (1.0 - mixed) * bayes + v * lex)

            chosen, score = lexical.choose(parts, y[held])
            if best is None or score > best[1]:
                best = (chosen, score, keep)
        assert best is not None
        return best[0], best[2]

    @classmethod
    def _plain(
        cls,
        classes: int,
        view: np.ndarray | sp.csr_matrix,
        tfidf: sp.csr_matrix,
        y: np.ndarray,
        w: np.ndarray,
    ) -> Ensemble:
        from sklearn.linear_model import LogisticRegression

        solver = SPARSE_SOLVER if sp.issparse(view) else "lbfgs"
        logistic = LogisticRegression(C=CLASSIFIER_C, max_iter=300, solver=solver)
        logistic.fit(view, y, sample_weight=w)
        bayes = NaiveBayes().fit(tfidf, y, w, classes)
        # Plain arrays for the query path (sklearn's per-call validation costs milliseconds).
        coef = np.asarray(logistic.coef_, dtype=np.float32)
        intercept = np.asarray(logistic.intercept_, dtype=np.float32)
        if coef.shape[0] == 1:  # binary: sklearn keeps one row for the second class
            coef = np.vstack([-coef / 2, coef / 2])
            intercept = np.array([-intercept[0] / 2, intercept[0] / 2])
        return cls(classes, coef, intercept, np.asarray(logistic.classes_), bayes)

    @property
    def chosen(self) -> tuple[float, float]:
        """(lexical weight, naive Bayes scale): what the out-of-fold refits reuse."""
        return self.lexical_weight, self.bayes_scale

    def log_parts(
        self,
        view: np.ndarray | sp.csr_matrix,
        tfidf: sp.csr_matrix,
        words: sp.csr_matrix | None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each expert's log P(class | text): logistic, naive Bayes, lexical (0 without)."""
        product: Any = view @ self.coef.T
        logits = np.asarray(product.toarray() if sp.issparse(product) else product)
        logits = logits + self.intercept
        logistic = np.full((view.shape[0], self.classes), -30.0)
        logistic[:, self.labels] = log_softmax(logits)
        bayes = self.bayes.log_proba(tfidf)
        if self.lexical is None or words is None:
            return logistic, bayes, np.zeros_like(logistic)
        return logistic, bayes, self.lexical.log_proba(words, self.classes)

    def proba(
        self,
        view: np.ndarray | sp.csr_matrix,
        tfidf: sp.csr_matrix,
        weight: np.ndarray,
        words: sp.csr_matrix | None = None,
    ) -> np.ndarray:
        """P(class | text); `weight`: each row's logistic weight (`ensemble_weights`)."""
        logistic, bayes, lex = self.log_parts(view, tfidf, words)
        weight = weight[:, None]
        joint = weight * logistic + self.bayes_scale * (1.0 - weight) * bayes
        if self.lexical is not None:
            joint = joint + self.lexical_weight * lex
        return np.exp(log_softmax(joint))


class FastTfidf:
    """A fitted sublinear, L2-normalised TfidfVectorizer's transform, without sklearn's
    per-call input validation (which dominates the cost of one short query), and without
    sklearn at all once fitted: the analyzer is named ("char" or "word", see `word_grams`), not
    a closure, so a saved model loads without importing scikit-learn (and scipy.stats, which
    it imports): about half of a warm `brain ask` process's import time."""

    def __init__(self, kind: str, vocabulary: dict[str, int], idf: np.ndarray) -> None:
        self.kind = kind
        self.vocabulary = vocabulary
        self.idf = idf

    @classmethod
    def of(cls, vectorizer: Any) -> FastTfidf:
        """The transform of a fitted TfidfVectorizer of the scorer's own settings."""
        kind = "char" if vectorizer.analyzer is char_analyzer else "word"
        if kind == "word" and (
            vectorizer.token_pattern != WORD_TOKEN_PATTERN
            or tuple(vectorizer.ngram_range) != (1, 2)
            or not vectorizer.lowercase
            or vectorizer.stop_words is not None
            or vectorizer.strip_accents is not None
        ):
            raise ValueError("word_grams reproduces only the scorer's own word vectorizer")
        return cls(
            kind, dict(vectorizer.vocabulary_), np.asarray(vectorizer.idf_, dtype=np.float32)
        )

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
