"""What a message does: asks a question, reports a problem, or asks for work to be done.

A calibrated, multinomial logistic regression fitted on the labelled speech-act set
(`brain/data/speech_acts.jsonl`, split "train" only; the "holdout" split, written with its own
phrase patterns and topics, is never fitted or tuned on), in place of lists of interrogative
openings and failure phrases: the words of IT, facilities, HR and office life in English and
Chinese, in the forms people write them ("also could somebody…", "能不能帮我…", "why doesn't
… work?").

Features, language-independent (Chinese and typos need no segmenter): hashed character
1-4-grams of the message, the same of its first clause apart (a message of several clauses
does what its first one does: "could I get a new mouse, the scroll wheel is gone" asks for
work), hashed word uni- and bigrams, and the message's size and closing question mark. The
scores are temperature-scaled on out-of-fold predictions whose folds keep one phrase
pattern's rows together, so the probabilities are those of wordings the fit has not seen.
With the embedder open, the message's MiniLM vector is a block too, scaled by the message's
Latin share (MiniLM reads English only). The fitted weights, with and without that block, are
shipped beside the data (`speech-<key>.npz`, written by `scripts/make_speech_act_set.py
--fit`); without a shipped copy the one without the block is fitted once in the process.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import pairwise
from typing import cast

import numpy as np
from scipy import sparse

from core.calibrated_linear import CalibratedLinear, fit_temperature, grouped_out_of_fold
from core.cues import cues
from core.model_files import shipped_file
from core.text.language import QUESTION_MARKS
from core.text.sparse import char_ngrams, stable_hash

__all__ = [
    "ACTS",
    "SURE_AT",
    "SpeechAct",
    "SpeechActModel",
    "fit_model",
    "labelled_rows",
    "read",
    "words",
]

DATA_FILE = "speech_acts.jsonl"
SHIPPED_NAME = "speech"
ACTS = ("question", "problem", "work")
#: The model decides the request type at or above this probability; below it the message's
#: form is read by the patterns (`brain.chain.request_type`). Chosen on the train split's
#: out-of-fold readings: 98% of those this sure were right (96% of the rows) with the
#: embedding block, 94% (90% of the rows) without it.
SURE_AT = 0.7
N_HASHED = 2**14
EMBEDDING_DIM = 384
#: The embedding block's scale beside the L2-normalised hashed blocks.
EMBEDDING_WEIGHT = 2.0
C = 4.0
FOLDS = 5
_WORD = re.compile(r"[a-z0-9']+|[\u3400-\u9fff]", re.IGNORECASE)
_CUES = cues(__name__)
#: The marks a first clause ends at (`brain.chain.plea` reads clauses by them too).
CLAUSE_MARKS_LATIN = _CUES.regex("clause_marks_latin")
CLAUSE_MARKS_WIDE = _CUES.regex("clause_marks_wide")
_CLAUSE = re.compile(f"[{CLAUSE_MARKS_LATIN}{CLAUSE_MARKS_WIDE}]")
_CJK = re.compile(r"[\u3400-\u9fff]")
Embed = Callable[[Sequence[str]], np.ndarray]


@dataclass(frozen=True, slots=True)
class SpeechAct:
    """The model's reading of one message: each act's probability."""

    probabilities: dict[str, float]

    @property
    def act(self) -> str:
        """The likeliest act."""
        return max(ACTS, key=lambda a: self.probabilities[a])

    @property
    def confidence(self) -> float:
        return self.probabilities[self.act]

    @property
    def sure(self) -> bool:
        return self.confidence >= SURE_AT

    def describe(self) -> str:
        shown = ", ".join(f"{a} {self.probabilities[a]:.2f}" for a in ACTS)
        return f"speech act {self.act} ({shown})"


def words(text: str) -> list[str]:
    """The message's words (a Chinese character is one)."""
    return _WORD.findall(text)


def _first_clause(text: str) -> str:
    return _CLAUSE.split(text.strip(), maxsplit=1)[0]


def _hash_into(counts: dict[int, float], features: Sequence[str], prefix: str) -> None:
    for feature in features:
        bucket = stable_hash(prefix + feature) % N_HASHED
        counts[bucket] = counts.get(bucket, 0.0) + 1.0


def _row(text: str) -> dict[int, float]:
    """One message's hashed features, each block L2-normalised."""
    lowered = " ".join(text.lower().split())
    words = _WORD.findall(lowered)
    blocks = [
        ("g:", list(char_ngrams(lowered, 1, 4))),
        ("f:", list(char_ngrams(_first_clause(lowered), 1, 4))),
        ("w:", words + [f"{a} {b}" for a, b in pairwise(words)]),
        ("o:", [f"open {w}" for w in words[:2]]),
    ]
    row: dict[int, float] = {}
    for prefix, features in blocks:
        counts: dict[int, float] = {}
        _hash_into(counts, features, prefix)
        norm = math.sqrt(sum(v * v for v in counts.values())) or 1.0
        for bucket, count in counts.items():
            row[bucket] = row.get(bucket, 0.0) + count / norm
    return row


def design(texts: Sequence[str], vectors: np.ndarray | None = None) -> sparse.csr_matrix:
    """The model's input rows: hashed features, then size, question mark and script, then
    the MiniLM embedding when `vectors` are given (one a text)."""
    rows, cols, vals = [], [], []
    for i, text in enumerate(texts):
        for bucket, value in _row(text).items():
            rows.append(i)
            cols.append(bucket)
            vals.append(value)
        size = len(words(text))
        stripped = text.strip()
        extra = (
            math.log1p(size) / 3.0,
            float(stripped.endswith(QUESTION_MARKS)),
            float(bool(_CJK.search(text))),
        )
        for offset, value in enumerate(extra):
            rows.append(i)
            cols.append(N_HASHED + offset)
            vals.append(value)
    hashed = sparse.csr_matrix((vals, (rows, cols)), shape=(len(texts), N_HASHED + 3))
    if vectors is None:
        return hashed
    # MiniLM reads English only: a Chinese message's vector counts as much as its Latin share.
    latin = np.array([[_latin_share(t)] for t in texts])
    return sparse.hstack(
        [hashed, sparse.csr_matrix(np.asarray(vectors) * latin * EMBEDDING_WEIGHT)], format="csr"
    )


def _latin_share(text: str) -> float:
    """The share of a message's characters (spaces aside) that are not Chinese."""
    chars = len("".join(text.split()))
    return 1.0 - len(_CJK.findall(text)) / max(1, chars)


@dataclass(frozen=True, slots=True)
class SpeechActModel(CalibratedLinear):
    """Weights over `design`, one temperature, and whether the embedding block is used."""

    def read(self, texts: Sequence[str], vectors: np.ndarray | None = None) -> list[SpeechAct]:
        """The calibrated readings of `texts` (`vectors`: their MiniLM embeddings, read only by
        a model fitted with them; a model fitted with them needs them)."""
        probs = self.probabilities(design(texts, vectors if self.with_embedding else None))
        return [SpeechAct(dict(zip(ACTS, map(float, row), strict=True))) for row in probs]


def labelled_rows(split: str | None = "train") -> list[dict[str, str]]:
    """The shipped speech-act set (one split, or all rows with `split=None`)."""
    text = resources.files("brain.data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [r for r in rows if split is None or r.get("split") == split]


def model_key(rows: Sequence[dict[str, str]], with_embedding: bool) -> str:
    """What the fitted weights depend on: the rows, the feature layout, the settings."""
    layout = (N_HASHED, EMBEDDING_DIM, EMBEDDING_WEIGHT, ACTS, C, FOLDS, with_embedding, 1)
    return rows_key(layout, rows)


def rows_key(layout: tuple[object, ...], rows: Sequence[dict[str, str]]) -> str:
    """A digest of a model's settings (`layout`) and labelled rows (text, label, template):
    the key its shipped weights are filed under."""
    digest = hashlib.sha256(repr(layout).encode())
    for row in rows:
        digest.update(json.dumps([row["text"], row["label"], row.get("template")]).encode())
    return digest.hexdigest()[:16]


def logistic():  # type: ignore[no-untyped-def]
    """The models' estimator over `design` (deterministic: lbfgs)."""
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=C, solver="lbfgs", max_iter=3000)


def out_of_fold(rows: Sequence[dict[str, str]], embed: Embed | None = None) -> np.ndarray:
    """Each row's scores from a model fitted without its phrase pattern."""
    texts = [r["text"] for r in rows]
    x = design(texts, embed(texts) if embed is not None else None)
    labels = np.array([ACTS.index(r["label"]) for r in rows])
    groups = [r.get("template") or r["text"] for r in rows]
    return grouped_out_of_fold(x, labels, groups, len(ACTS), logistic, FOLDS)


def fit_model(rows: Sequence[dict[str, str]], embed: Embed | None = None) -> SpeechActModel:
    """Fit, and calibrate on out-of-fold scores (deterministic: fixed folds, lbfgs)."""
    texts = [r["text"] for r in rows]
    labels = np.array([ACTS.index(r["label"]) for r in rows])
    final = logistic().fit(design(texts, embed(texts) if embed is not None else None), labels)
    return SpeechActModel(
        coef=final.coef_.astype(np.float64),
        intercept=final.intercept_.astype(np.float64),
        temperature=fit_temperature(out_of_fold(rows, embed), labels),
        with_embedding=embed is not None,
        key=model_key(rows, embed is not None),
    )


@cache
def shipped_model(with_embedding: bool) -> SpeechActModel | None:
    """The model fitted at build time on the shipped rows, with or without the embedding
    block; without one shipped, the one without the block is fitted now (a second or so) and
    None is returned for the other (it needs the embedder to fit)."""
    rows = labelled_rows("train")
    key = model_key(rows, with_embedding)
    path = shipped_file("brain.data", SHIPPED_NAME, key)
    if path.is_file():
        try:
            return SpeechActModel.load(path, key)
        except (OSError, ValueError, KeyError):
            pass  # a damaged copy: fit
    return None if with_embedding else fit_model(rows)


def read(text: str, vector: np.ndarray | None = None) -> SpeechAct:
    """The shipped model's reading of one message (`vector`: its MiniLM query embedding, when
    the embedder is open)."""
    model = shipped_model(True) if vector is not None else None
    if model is None:
        return cast("SpeechActModel", shipped_model(False)).read([text])[0]
    return model.read([text], np.asarray(vector)[None, :])[0]
