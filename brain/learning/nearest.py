"""What people agreed takes effect at once: nearest agreed examples beside the fitted model.

The background refit (`brain.learning.org_training`) teaches the semantic model the
organisation's rows, but only once a fit finishes. Until then, and for what a fit does not
capture, this layer sits beside the fitted model: the examples people agreed on (the
organisation lessons' messages, `org_lessons.org_rows`, and the messages a person resolved by a
route and that were confirmed, from the case book) are kept as vectors, and a message whose
nearest example of controller X is close gets X's semantic score raised to the calibrated
probability that a message that close to an example shares its label.

- **Calibrated on the controllers' own examples**, never on a development split: leave-one-out
  nearest neighbours among (at most `CALIBRATION_ROWS` of) the training rows give, for each
  similarity, whether the nearest example had the same controller; a one-feature logistic
  fit of that is the probability used (`Calibration`), and only a probability above how often
  any nearest example is right raises a score. Where similarity does not predict the label
  (the shipped built-in examples: nearest-example agreement is 0.55-0.78 at every cosine,
  their paraphrases cross controllers on purpose) the fit has no positive slope and the layer
  stays off.
- **The same state in every process and replica**: the examples are read from the record
  stores (lessons and cases), refreshed whenever the lesson store's version or the case count
  moves (a route resolution is also a correction, so it moves the version).
- **Small hook**: `brain.parts` wraps whichever semantic model is in use (`NearestModel`); the
  signal, the out-of-scope gate and the rationale read it like the model itself.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from brain.learning.org_lessons import OrgRow
    from brain.memory.lessons import MemoryStore
    from brain.signals.semantic_model import SemanticAnalysis, SemanticModel
    from core.stores.protocols import CaseStore, LessonStore
    from core.text.encoder_tail import EncoderTail

log = logging.getLogger(__name__)

#: Training rows the calibration reads at most (a deterministic sample beyond).
CALIBRATION_ROWS = 1500
#: A raised score below this is no evidence (the layer leaves the model's score alone).
RAISE_MIN = 0.5


@dataclass(frozen=True, slots=True)
class Calibration:
    """P(the nearest example's controller is right | cosine) = sigmoid(a * cosine + b), and
    how often a nearest example is right whatever its cosine (`base`): a probability not above
    it says nothing a random neighbour would not."""

    a: float
    b: float
    base: float

    def __call__(self, cosine: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-(self.a * cosine + self.b)))


def calibrate(vectors: np.ndarray, labels: Sequence[str]) -> Calibration | None:
    """The calibration from leave-one-out nearest neighbours of labelled vectors (None when
    there are too few, or one label only)."""
    if len(labels) < 20 or len(set(labels)) < 2:
        return None
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    similarity = unit @ unit.T
    np.fill_diagonal(similarity, -np.inf)
    nearest = similarity.argmax(axis=1)
    x = similarity[np.arange(len(labels)), nearest].astype(np.float64)
    y = np.asarray([labels[i] == labels[j] for i, j in enumerate(nearest)], dtype=np.float64)
    if y.min() == y.max():
        return None
    a, b = 1.0, 0.0
    for _ in range(50):  # Newton's method on the one-feature logistic log-likelihood
        p = 1.0 / (1.0 + np.exp(-(a * x + b)))
        w = p * (1 - p) + 1e-9
        gradient = np.array([np.sum((y - p) * x), np.sum(y - p)])
        hessian = np.array([[np.sum(w * x * x), np.sum(w * x)], [np.sum(w * x), np.sum(w)]])
        hessian += np.eye(2) * 1e-6
        step = np.linalg.solve(hessian, gradient)
        a, b = a + float(step[0]), b + float(step[1])
        if np.abs(step).max() < 1e-6:
            break
    return Calibration(a, b, float(y.mean())) if a > 0 else None


def _read_calibration(path: Path | None) -> Calibration | None:
    """A calibration fitted before on the same rows (None: none stored, or none found)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path is not None else {}
        return Calibration(**data) if data else None
    except (OSError, ValueError, TypeError):
        return None


@dataclass(frozen=True, slots=True)
class Examples:
    """The agreed examples as one matrix: unit vectors, their controllers and where each
    came from ("organisation" or "resolution")."""

    vectors: np.ndarray
    controllers: tuple[str, ...]
    sources: tuple[str, ...]


class NearestLayer:
    """Reads the agreed examples from the stores and raises the scores of messages near them."""

    def __init__(
        self,
        *,
        rows: Callable[[], list[OrgRow]],
        memory: MemoryStore,
        lessons: Callable[[], LessonStore],
        cases: Callable[[], CaseStore],
        embed: Callable[[str], np.ndarray | None],
        training: Callable[[], list[tuple[str, str]]],
        embed_many: Callable[[Sequence[str]], np.ndarray | None],
        folder: Path | None = None,
    ) -> None:
        self._rows = rows
        self._memory = memory
        self._lessons = lessons
        self._cases = cases
        self._embed = embed
        self._training = training
        self._embed_many = embed_many
        self._folder = folder
        self._guard = threading.Lock()
        self._key: tuple[int, int] | None = None
        self._examples: Examples | None = None
        self._calibration: Calibration | None = None
        self._calibrated = False

    def wrap(self, model: SemanticModel) -> SemanticModel:
        """`model` with this layer beside it."""
        return NearestModel(model, self)

    def examples(self) -> Examples | None:
        """The agreed examples as the stores hold them now (None when there are none)."""
        key = (self._lessons().version(), self._cases().count())
        with self._guard:
            if key == self._key:
                return self._examples
        found = self._read()
        with self._guard:
            self._key, self._examples = key, found
        return found

    def _read(self) -> Examples | None:
        vectors: list[np.ndarray] = []
        controllers: list[str] = []
        sources: list[str] = []
        rows = self._rows() if self._memory.has_corrections() else []
        if rows:
            entries = {e.memory_id: e for e in self._memory.entries()}
            for row in rows:
                entry = entries.get(row.memory_id)
                if entry is not None and entry.vector is not None:
                    vectors.append(np.asarray(entry.vector, dtype=np.float32))
                    controllers.append(row.controller)
                    sources.append("organisation")
        for case in self._cases().all():
            plan = case.get("plan") or {}
            steps = plan.get("steps") or []
            # Confirmed by its asker ("This solved it", or their own correction of it).
            confirmed = case.get("user") in (case.get("confirmed_by") or [])
            confirmed = confirmed and not case.get("rejected_by")
            if len(steps) != 1 or not confirmed or case.get("vector") is None:
                continue
            vectors.append(np.asarray(case["vector"], dtype=np.float32))
            controllers.append(str(steps[0]["controller"]))
            sources.append("resolution")
        if not vectors or len({len(v) for v in vectors}) != 1:
            return None
        matrix = np.vstack(vectors)
        matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-9)
        return Examples(matrix, tuple(controllers), tuple(sources))

    def calibration(self) -> Calibration | None:
        """Fitted once per process on the training rows (see the module docstring)."""
        with self._guard:
            if self._calibrated:
                return self._calibration
        rows = self._training()
        if len(rows) > CALIBRATION_ROWS:
            step = len(rows) / CALIBRATION_ROWS
            rows = [rows[int(i * step)] for i in range(CALIBRATION_ROWS)]
        digest = hashlib.sha1(json.dumps(rows, ensure_ascii=False).encode("utf-8")).hexdigest()
        path = None if self._folder is None else self._folder / f"nearest-{digest[:16]}.json"
        found = _read_calibration(path)
        if found is None or path is None or not path.is_file():
            vectors = self._embed_many([text for text, _ in rows]) if rows else None
            found = None if vectors is None else calibrate(vectors, [label for _, label in rows])
            if vectors is not None and path is not None:  # each process fits it once, not each
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(asdict(found) if found else {}), encoding="utf-8")
        with self._guard:
            self._calibration, self._calibrated = found, True
        return found

    def raised(self, text: str, names: Sequence[str]) -> dict[str, tuple[float, str, float]]:
        """Controller -> (calibrated probability, the nearest example's source, its cosine),
        for the controllers an agreed example near `text` backs."""
        examples = self.examples()
        if examples is None:
            return {}
        vector = self._embed(text)
        if vector is None or len(vector) != examples.vectors.shape[1]:
            return {}
        calibration = self.calibration()
        if calibration is None:
            return {}
        unit = np.asarray(vector, dtype=np.float32)
        unit = unit / max(float(np.linalg.norm(unit)), 1e-9)
        cosines = examples.vectors @ unit
        probabilities = calibration(cosines.astype(np.float64))
        known = set(names)
        found: dict[str, tuple[float, str, float]] = {}
        for index in np.argsort(-cosines):
            controller = examples.controllers[index]
            p = float(probabilities[index])
            if p < max(RAISE_MIN, calibration.base):
                break
            if controller in known and controller not in found:
                found[controller] = (p, examples.sources[index], float(cosines[index]))
        return found


@dataclass(frozen=True, slots=True)
class _Analysis:
    scores: np.ndarray
    out_of_scope: float
    declared: bool


class NearestModel:
    """A semantic model with the nearest-example layer beside it (a `SemanticModel`)."""

    def __init__(self, model: SemanticModel, layer: NearestLayer) -> None:
        self.model = model
        self.layer = layer

    @property
    def names(self) -> Sequence[str]:
        return self.model.names

    @property
    def tail(self) -> EncoderTail | None:
        return self.model.tail

    def analyse(self, text: str) -> SemanticAnalysis:
        detail = self.model.analyse(text)
        raised = self.layer.raised(text, self.names)
        if not raised:
            return detail
        scores = np.asarray(detail.scores, dtype=np.float32).copy()
        for index, name in enumerate(self.names):
            if name in raised:
                scores[index] = max(float(scores[index]), raised[name][0])
        best = max(p for p, _, _ in raised.values())
        out_of_scope = min(float(detail.out_of_scope), 1.0 - best)
        return _Analysis(scores, out_of_scope, bool(detail.declared) and best < RAISE_MIN)

    def score(self, text: str) -> Mapping[str, float]:
        scores = self.analyse(text).scores
        return {name: float(scores[i]) for i, name in enumerate(self.names)}

    def helped(self, text: str, scores: np.ndarray) -> dict[str, str]:
        """Why a controller was raised: the fitted model's lessons, or an agreed example."""
        helped = getattr(self.model, "helped", None)
        found: dict[str, str] = dict(helped(text, scores)) if callable(helped) else {}
        for name, (p, source, cosine) in self.layer.raised(text, self.names).items():
            what = "an organisation lesson" if source == "organisation" else "a person's resolution"
            found.setdefault(name, f"is near {what} ({cosine:.2f} alike, {p:.2f})")
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(self.model, name)
