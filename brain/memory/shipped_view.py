"""The model's own examples in the multilingual space: how near the nearest one is to a
message, and how alike a message must be to what several people's corrections share.

Three people who agree teach everyone a kind of message (`brain.memory.agreed`). Two things
decide whether a message is of that kind, and both were measured by hand-set constants:

- **Is a shipped example nearer?** A message nearer one of the model's own examples than to
  the agreed wordings stays where the model puts it. The model's nearest example is a MiniLM
  cosine, meaningless for Chinese: a Chinese look-alike ("工资系统登录不上" after corrections
  about wrong payslips) had no such check and moved. Here the examples the model is fitted on
  (`[training]`: the shipped rows and the home's own) are encoded by the multilingual encoder,
  so the check exists for every language and the same space holds both sides.
- **How alike is alike enough?** The bar is calibrated on held-out labelled rows instead of
  set: every controller's examples are taken three at a time (in file order) as if three
  people had agreed on them; the message's cosine to their centroid is measured for every
  row of *another* controller (rows the triple never saw), and the bar is the score only
  FALSE_SHARE of those reach. On the shipped rows that is about 0.39; a fourth person's
  paraphrases of the correction stories are mostly 0.4-0.7 from the centroid of the three
  taught wordings, other stories' paraphrases mostly below 0.35.

The encoder's rows are made once per process for a given set of examples (1,400 rows in about
1.5 s), on the first message compared with an agreed group.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from brain.memory.kept_rows import kept_rows
from core.text.multilingual import multilingual_vectors

log = logging.getLogger(__name__)

#: The share of other controllers' held-out rows an agreed centroid may reach (the bar).
FALSE_SHARE = 0.01
#: A controller needs this many examples to give calibration triples.
MIN_CLASS = 6
#: Rows per simulated agreement.
AGREEING = 3
#: An agreed group may be this much less alike to a message than the model's nearest own
#: example (a tie goes to the agreed one: three people asked for it), by either encoder.
MARGIN = 0.10
#: The bar when there are too few examples to calibrate (the shipped rows' own figure).
DEFAULT_BAR = 0.39


@dataclass(frozen=True, slots=True)
class Nearest:
    """The model's example nearest a message in the multilingual space."""

    #: The nearest one's cosine and controller.
    similarity: float
    #: The nearest AGREEING examples' rows (nearest first).
    vectors: np.ndarray
    controller: str


@functools.lru_cache(maxsize=4)
def _encoded(
    texts: tuple[str, ...], labels: tuple[str, ...], folder: Path | None
) -> tuple[np.ndarray, float] | None:
    """One set of examples' multilingual rows and calibrated bar, once per process; the rows
    are kept in `folder` (the home's models), so a one-shot command loads them instead of
    encoding 1,400 texts again (1.5 s)."""
    vectors = kept_rows(
        folder, "shipped-multilingual", texts, labels, lambda: multilingual_vectors(list(texts))
    )
    if vectors is None:
        return None
    return vectors, calibrated_bar(vectors, np.array(labels, dtype=object))


def calibrated_bar(vectors: np.ndarray, labels: np.ndarray) -> float:
    """The centroid score that FALSE_SHARE of other controllers' rows reach, over every
    controller's examples taken AGREEING at a time."""
    negatives: list[np.ndarray] = []
    for label in np.unique(labels):
        rows = np.flatnonzero(labels == label)
        if len(rows) < MIN_CLASS:
            continue
        triples = rows[: len(rows) // AGREEING * AGREEING].reshape(-1, AGREEING)
        centroids = vectors[triples].sum(axis=1)
        centroids /= np.maximum(np.linalg.norm(centroids, axis=1, keepdims=True), 1e-6)
        scores = centroids @ vectors[labels != label].T
        negatives.append(scores.ravel())
    if not negatives:
        return DEFAULT_BAR
    return float(np.quantile(np.concatenate(negatives), 1.0 - FALSE_SHARE))


class ShippedView:
    """The model's examples, encoded by the multilingual encoder when first needed."""

    def __init__(
        self, source: Callable[[], Mapping[str, Sequence[str]]], folder: Path | None = None
    ) -> None:
        self._source = source
        self._folder = folder
        self._lock = threading.Lock()
        self._ready = False
        self._vectors: np.ndarray | None = None
        self._labels = np.zeros(0, dtype=object)
        self._bar = DEFAULT_BAR

    def _load(self) -> None:
        with self._lock:
            if self._ready:
                return
            examples = self._source()
            texts = tuple(t for texts in examples.values() for t in texts)
            labels = [name for name, texts in examples.items() for _ in texts]
            self._labels = np.array(labels, dtype=object)
            found = _encoded(texts, tuple(labels), self._folder) if texts else None
            if found is not None:
                self._vectors, self._bar = found
            self._ready = True

    def warm(self) -> None:
        """Encode the examples now (a long-running brain, before its first message)."""
        self._load()

    @property
    def bar(self) -> float:
        """How alike a message must be to an agreed group's centroid (multilingual cosine)."""
        self._load()
        return self._bar

    def nearest(self, query: np.ndarray, names: Sequence[str] | None) -> Nearest | None:
        """The examples of controllers in `names` (any, for None) nearest the message by the
        multilingual cosine (AGREEING of them); None when the encoder cannot run or there are
        no examples."""
        found = self.examples(names)
        if found is None:
            return None
        vectors, labels = found
        sims = vectors @ query
        best = np.argsort(-sims, kind="stable")[:AGREEING]
        return Nearest(float(sims[best[0]]), vectors[best], str(labels[best[0]]))

    def examples(self, names: Sequence[str] | None) -> tuple[np.ndarray, np.ndarray] | None:
        """The multilingual rows of the examples of controllers in `names` (any, for None) and
        their controllers; None when the encoder cannot run or there are none."""
        self._load()
        if self._vectors is None or not len(self._labels):
            return None
        usable = np.ones(len(self._labels), bool)
        if names is not None:
            usable = np.isin(self._labels, list(names))
        if not usable.any():
            return None
        return self._vectors[usable], self._labels[usable]

    def allows(
        self, centre: np.ndarray, query: np.ndarray, controller: str, names: Sequence[str] | None
    ) -> bool:
        """Whether a message whose cosine to an agreed group of `controller` is `centre @
        query` (`centre` a unit vector) may take it despite the model's own examples: the
        nearest one is of that controller, or the message is no more than MARGIN nearer it
        than to the group, or the group itself is alike to it (at the bar: the people who
        agreed overruled that example, as the correction stories' messages nearest a shipped
        example of the controller the model sent them to are)."""
        nearest = self.nearest(query, names)
        if nearest is None or nearest.controller == controller:
            return True
        if float(centre @ query) >= nearest.similarity - MARGIN:
            return True
        return float((nearest.vectors @ centre).max()) >= self.bar
