"""Is a ticket about the topic searched for? The bar a ticket passes to be shown, learned from
labelled (topic, ticket) pairs instead of a fixed cosine floor.

A fixed floor on the multilingual cosine (0.40) let unrelated topics through: a topic that
shares one word with a ticket ("coffee machine" and the Chinese character for "machine" in
"printer") is found by the words, and one the encoder puts near some ticket by meaning. Two readings
of a pair decide together: how alike they are by meaning (the multilingual cosine,
`core.text.multilingual`) and how much of the topic the ticket's own words cover (the share of the
topic's words and Chinese character pairs found in the ticket: one shared word of three is not the
topic). A logistic regression over the two (the classes weighted equally) gives each pair a score;
the bar on it is what a search must get right as a whole: a related topic shows its ticket, an
unrelated one shows none. It is chosen where the mean of those two shares is highest, on scores each
topic got from a fit without it (5 folds by topic), on the data of
`controllers/data/ticket_relevance.json` (a desk and topics written for it, related or not;
never the benchmark's splits). Where the encoder cannot run, a second model fitted the same
way on the words' share alone decides.

The fit is deterministic and small (about 3,400 pairs, 150 texts to encode), so it is made
once per process on the first search that needs it, never shipped stale beside its data.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from sklearn.linear_model import LogisticRegression

DATA = Path(__file__).resolve().parent / "data" / "ticket_relevance.json"
#: Folds of the out-of-fold scores the bar is chosen on.
FOLDS = 5
#: The bars tried (p of the pair's logistic regression).
BARS = np.round(np.arange(0.30, 0.995, 0.01), 2)

#: Texts -> their multilingual vectors (None: the encoder cannot run).
Encode = Callable[[Sequence[str]], "np.ndarray | None"]
#: A text's search units: its words and Chinese character pairs (`ticket_search.units`).
Units = Callable[[str], set[str]]


@dataclass(frozen=True, slots=True)
class Relevance:
    """p(about) of (topic, ticket) pairs from their cosine and the words' cover, and the bar a
    ticket's p must reach to be shown."""

    weights: tuple[float, ...]
    bias: float
    bar: float
    #: On the training topics, out of fold at `bar`: the share of related topics whose ticket
    #: passes, and of unrelated topics with no ticket passing.
    related: float = 0.0
    unrelated: float = 0.0

    def probability(self, features: np.ndarray) -> np.ndarray:
        """p(about) of each row of `features` (cosine and cover, or cover alone)."""
        logits = features @ np.asarray(self.weights) + self.bias
        return np.asarray(1.0 / (1.0 + np.exp(-logits)))

    def about(self, features: np.ndarray) -> np.ndarray:
        """Which rows are past the bar."""
        return self.probability(features) >= self.bar


def cover(topic_units: set[str], ticket_tokens: set[str]) -> float:
    """The share of the topic's units the ticket's words hold (0 when it has none)."""
    if not topic_units:
        return 0.0
    return len(topic_units & ticket_tokens) / len(topic_units)


def labelled_pairs(
    units: Units, tokens: Callable[[str], list[str]]
) -> tuple[list[str], list[str], np.ndarray, np.ndarray]:
    """The training data as (topics, ticket texts, cover matrix, labels matrix): one row per
    topic, one column per ticket."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    ids = list(data["tickets"])
    texts = [str(data["tickets"][key]) for key in ids]
    topics = [str(topic) for topic, _ in data["topics"]]
    words = [set(tokens(text)) for text in texts]
    covers = np.array([[cover(units(topic), w) for w in words] for topic in topics])
    labels = np.array([[key in wanted for key in ids] for _, wanted in data["topics"]])
    return topics, texts, covers, labels


def _regression(features: np.ndarray, labels: np.ndarray) -> LogisticRegression:
    # Imported here: loading scikit-learn costs a command that never searches tickets
    # (`brain tickets`, `brain why`) most of its start-up.
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(class_weight="balanced", C=1.0, solver="lbfgs")
    return model.fit(features, labels)


def _shares(scores: np.ndarray, labels: np.ndarray, bar: float) -> tuple[float, float]:
    """(related topics whose ticket passes, unrelated topics with none passing), as shares."""
    passing = np.asarray(scores >= bar)
    related = np.asarray(labels.any(axis=1))
    found = np.asarray((passing & labels).any(axis=1))
    none = np.asarray(~passing.any(axis=1))
    return float(found[related].mean()), float(none[~related].mean())


def fit(features: np.ndarray, labels: np.ndarray) -> Relevance:
    """The model of `features` (topics x tickets x readings) for `labels` (topics x tickets):
    the regression on every pair, the bar on out-of-fold scores (see the module's text)."""
    width = features.shape[-1]
    folds = np.arange(len(labels)) % FOLDS
    scores = np.zeros(labels.shape)
    for fold in range(FOLDS):
        out = folds == fold
        model = _regression(features[~out].reshape(-1, width), labels[~out].ravel())
        scores[out] = model.predict_proba(features[out].reshape(-1, width))[:, 1].reshape(
            labels[out].shape
        )
    kept = max(BARS, key=lambda bar: sum(_shares(scores, labels, float(bar))))
    related, unrelated = _shares(scores, labels, float(kept))
    final = _regression(features.reshape(-1, width), labels.ravel())
    weights = tuple(float(w) for w in final.coef_[0])
    return Relevance(weights, float(final.intercept_[0]), float(kept), related, unrelated)


_LOCK = threading.Lock()
_FITTED: dict[bool, Relevance] = {}


def relevance(
    units: Units, tokens: Callable[[str], list[str]], encode: Encode | None
) -> tuple[Relevance, bool]:
    """The fitted bar of this process: (model, whether it reads the cosine). With `encode`
    (the multilingual encoder) the two-reading model; without it, or when the encoder cannot
    run, the words' model."""
    with _LOCK:
        if encode is not None and True not in _FITTED:
            topics, texts, covers, labels = labelled_pairs(units, tokens)
            vectors = encode([*topics, *texts])
            if vectors is not None:
                cosines = vectors[: len(topics)] @ vectors[len(topics) :].T
                _FITTED[True] = fit(np.stack([cosines, covers], axis=-1), labels)
        if encode is not None and True in _FITTED:
            return _FITTED[True], True
        if False not in _FITTED:
            _, _, covers, labels = labelled_pairs(units, tokens)
            _FITTED[False] = fit(covers[..., None], labels)
        return _FITTED[False], False
