"""The escalation model: a calibrated logistic regression that says "page on-call" or not.

Fit on the labelled escalation set (`brain/data/escalation.jsonl`, rows of split "train" only;
the "holdout" rows are never seen here, so the benchmark's held-out figure is honest). The
probability is Platt-calibrated on out-of-fold scores, and the threshold is chosen recall first:
the highest one that still pages, out of fold, every must-page training row whose page it
decides (`features.model_decides`: rows a rule forces or vetoes do not lower it), lowered by a
margin.
Fitting is deterministic (fixed folds, liblinear), and the fitted weights are cached in
`$BRAIN_HOME/models/escalation-<key>.npz` (the key hashes the rows and the feature layout), or
read from the copy shipped beside this module.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from brain.escalation.features import (
    EMBEDDING_DIM,
    N_HASHED,
    RULE_NAMES,
    design,
    model_decides,
    signals_of,
)

if TYPE_CHECKING:
    from sklearn.linear_model import LogisticRegression

__all__ = ["DATA_FILE", "EscalationModel", "fit_model", "labelled_rows", "load_or_fit"]

DATA_FILE = "escalation.jsonl"
#: Regularisation (inverse strength) of the logistic regression.
C = 4.0
#: The threshold sits this far below the lowest out-of-fold must-page probability.
RECALL_MARGIN = 0.5
FOLDS = 5
Embed = Callable[[Sequence[str]], np.ndarray]


@dataclass(frozen=True, slots=True)
class EscalationModel:
    """Weights over `features.design`, Platt calibration and the recall-first threshold."""

    coef: np.ndarray
    intercept: float
    platt_a: float
    platt_b: float
    threshold: float
    with_embedding: bool
    key: str

    def probability(self, text: str, vector: np.ndarray | None) -> float:
        """The calibrated probability that `text` must page on-call."""
        embedding = vector[None, :] if (self.with_embedding and vector is not None) else None
        score = float((design([text], embedding) @ self.coef)[0] + self.intercept)
        return float(_sigmoid(self.platt_a * score + self.platt_b))

    def save(self, path: Path) -> None:
        """Write the weights (a temporary file replaced atomically)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(
            tmp,
            coef=self.coef.astype(np.float32),
            meta=np.array(
                [self.intercept, self.platt_a, self.platt_b, self.threshold, self.with_embedding]
            ),
        )
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path, key: str) -> EscalationModel:
        """Read weights written by `save`."""
        with np.load(path) as data:
            meta = data["meta"]
            return cls(
                coef=data["coef"].astype(np.float64),
                intercept=float(meta[0]),
                platt_a=float(meta[1]),
                platt_b=float(meta[2]),
                threshold=float(meta[3]),
                with_embedding=bool(meta[4]),
                key=key,
            )


def _sigmoid(x: float | np.ndarray) -> float | np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def labelled_rows(split: str | None = "train") -> list[dict[str, object]]:
    """The shipped escalation set (one split, or all rows with `split=None`)."""
    text = resources.files("brain.data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [r for r in rows if split is None or r.get("split", "train") == split]


def model_key(rows: Sequence[dict[str, object]], with_embedding: bool) -> str:
    """What the fitted weights depend on: the rows, the feature layout, the settings."""
    digest = hashlib.sha256()
    layout = (EMBEDDING_DIM, N_HASHED, RULE_NAMES, C, RECALL_MARGIN, FOLDS, with_embedding, 2)
    digest.update(repr(layout).encode())
    for package, name in (("brain.escalation", "priority.yaml"), ("brain.intent", "security.yaml")):
        digest.update(resources.files(package).joinpath(name).read_bytes())  # rule features
    for row in rows:
        digest.update(json.dumps([row["text"], bool(row["escalate"])]).encode())
    return digest.hexdigest()[:16]


def _lr() -> LogisticRegression:
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=C, solver="liblinear", class_weight="balanced", max_iter=2000)


def fit_model(rows: Sequence[dict[str, object]], embed: Embed | None) -> EscalationModel:
    """Fit, calibrate out of fold and choose the threshold recall first (deterministic)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold

    texts = [str(r["text"]) for r in rows]
    labels = np.array([bool(r["escalate"]) for r in rows], dtype=int)
    x = design(texts, embed(texts) if embed is not None else None)
    scores = np.zeros(len(texts))
    folds = StratifiedKFold(n_splits=FOLDS, shuffle=True, random_state=0)
    for train, test in folds.split(x, labels):
        scores[test] = _lr().fit(x[train], labels[train]).decision_function(x[test])
    platt = LogisticRegression(C=1e4, solver="lbfgs").fit(scores[:, None], labels)
    a, b = float(platt.coef_[0, 0]), float(platt.intercept_[0])
    calibrated = np.asarray(_sigmoid(a * scores + b))
    decided = np.array([model_decides(signals_of(t)) for t in texts], dtype=bool)
    governed = (labels == 1) & decided
    lowest = float(calibrated[governed if governed.any() else labels == 1].min())
    final = _lr().fit(x, labels)
    return EscalationModel(
        coef=final.coef_[0].astype(np.float64),
        intercept=float(final.intercept_[0]),
        platt_a=a,
        platt_b=b,
        threshold=max(0.02, lowest * RECALL_MARGIN),
        with_embedding=embed is not None,
        key=model_key(rows, embed is not None),
    )


def shipped_path(key: str) -> Path:
    """Where a copy fitted at build time lives (beside the data)."""
    return Path(str(resources.files("brain.data"))) / f"escalation-{key}.npz"


def load_or_fit(cache_dir: Path, embed: Embed | None) -> EscalationModel:
    """The model for the shipped rows: the shipped copy, the home's cache, or a fresh fit."""
    rows = labelled_rows("train")
    key = model_key(rows, embed is not None)
    for path in (shipped_path(key), cache_dir / f"escalation-{key}.npz"):
        if path.is_file():
            try:
                return EscalationModel.load(path, key)
            except (OSError, ValueError, KeyError):
                continue  # a damaged cache is refitted below
    model = fit_model(rows, embed)
    model.save(cache_dir / f"escalation-{key}.npz")
    return model
