"""Does a message in a thread continue the thread's open record, or start something new?

A calibrated, multinomial logistic regression over the message and its relation to the record,
fitted on the generated conversation set (`brain/data/continuation.jsonl`, split "train" only;
the "holdout" split, written with other domains and phrasings, is never fitted or tuned on).
Seven classes:

- `answer`: the message answers the bot's open question ("it's the Tableau one");
- `status`: it asks how the record stands ("any update?", "is anyone working on it?");
- `update`: it continues the record otherwise (a detail, "still broken", a retry report, a
  reason or approval);
- `resolved`: it says the record's problem is gone ("works now", "自己好了"): an update that
  ends the work (read as an update by `kind`; `solved` says it);
- `closing`: it ends the exchange and adds nothing ("thanks, bye");
- `question`: it asks something about the record's problem or request that names no subject of
  its own ("what should I try next?", "有什么临时办法吗"): answered on the record's subject;
- `new`: another problem or request, or an unrelated question.

Features (`design`), language-independent: hashed character n-grams of the message (Chinese
and typos need no segmenter) and, apart, of its last clause (where "reset my password, still
error 691" says how things stand), its MiniLM embedding, the same embedding again when the bot asked
a question (what answers look like), the element-wise product of the message's and the
record's embeddings (agreement of topic, learned per dimension), and pair readings: the
embedding cosine and character-n-gram overlap of message and record, shared words and numbers,
the message's size and question mark, which fields were asked, the same user, the time since, a
ticket id named, the record's kind and the script; and, where message or record is Chinese,
the message's vector in the multilingual encoder's space, its element-wise product with the
record's and their cosine (MiniLM reads English only). Without an
embedder the MiniLM blocks are zeros and a model fitted that way is used.

The scores are temperature-scaled on out-of-fold predictions (one parameter: calibration keeps
the ranking) and the fitted weights are shipped beside the data (`continuation-<key>.npz`,
written by `scripts/make_continuation_set.py --fit`) or cached in `$BRAIN_HOME/models`, as the
escalation model is: no PyTorch and nothing downloaded at run time.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
from scipy import sparse

from core import model_files
from core.calibrated_linear import CalibratedLinear, fit_temperature, grouped_out_of_fold
from core.cues import cues
from core.text.language import QUESTION_MARKS
from core.text.multilingual import DIM as ML_DIM
from core.text.multilingual import multilingual_vectors
from core.text.sparse import char_ngrams, stable_hash

__all__ = [
    "CLASSES",
    "CONTINUE_AT",
    "NEW_BELOW",
    "ContinuationModel",
    "Thread",
    "fit_model",
    "labelled_rows",
    "load_or_fit",
]

DATA_FILE = "continuation.jsonl"
#: Fitted weights are stored as "continuation-<key>.npz" (`core.model_files`).
SHIPPED_NAME = "continuation"
CLASSES = ("new", "update", "answer", "status", "closing", "question", "resolved")
#: Continue on the record at or above this probability. Chosen on the train split's
#: out-of-fold readings (phrasings held out), the lowest of 0.5, 0.55, ... 0.85 under which
#: fewer than 2% of new requests reach it (1.7%; 0.6 let 3.2% through once the set held the
#: context details and retries of `continuation_context`).
CONTINUE_AT = 0.75
#: Start something new below this probability (about 3% of follow-ups, out of fold: 2.2%);
#: in between, ask which.
NEW_BELOW = 0.25
EMBEDDING_DIM = 384
N_HASHED = 2**13
#: Fields the bot may be waiting for, one-hot (others count as "other").
QUESTION_FIELDS = ("system", "service", "window", "category", "asset_tag", "other")
KINDS = ("incident", "access", "change", "alarm", "other")
C = 8.0
FOLDS = 5
Embed = Callable[[Sequence[str]], np.ndarray]

_WORD = re.compile(r"[a-z0-9][a-z0-9_.\-]*|[\u3400-\u9fff]", re.IGNORECASE)
_NUMBER = re.compile(r"\d{2,}")
_TICKET = re.compile(r"\b(?:INC|REQ|CHG|ACC|ALM|RFC)-?\d{3,}\b", re.IGNORECASE)
_CJK = re.compile(r"[\u3400-\u9fff]")
_STOP = frozenset({
    "a", "an", "the", "i", "my", "me", "it", "is", "are", "to", "of", "on", "in", "for", "and",
    "or", "but", "with", "this", "that", "be", "was", "not", "no", "can", "you", "we", "our",
    "your", "do", "does", "did", "have", "has", "at", "from", "so", "just", "still", "again",
    "please",
})  # fmt: skip
SCALARS = (
    "cosine",
    "gram_overlap",
    "word_overlap",
    "number_shared",
    "log_size",
    "short",
    "question_mark",
    "asked",
    *(f"asked_{f}" for f in QUESTION_FIELDS),
    "same_user",
    "log_minutes",
    "over_a_day",
    "names_record",
    "names_other_ticket",
    *(f"kind_{k}" for k in KINDS),
    "chinese",
    "ml_cosine",
)


@dataclass(frozen=True, slots=True)
class Thread:
    """What the model reads of one message in a thread."""

    message: str
    #: The record's own text (what it was filed from, its title).
    record: str
    kind: str = ""
    #: The field(s) the bot asked for and is waiting for ("" when none).
    question: str = ""
    same_user: bool = True
    minutes: float = 0.0
    record_id: str = ""


def _size(text: str) -> int:
    """Words, counting two CJK characters as one."""
    cjk = len(_CJK.findall(text))
    return len(re.findall(r"[A-Za-z0-9]+", text)) + (cjk + 1) // 2


def _words(text: str) -> set[str]:
    return {w for w in (m.lower() for m in _WORD.findall(text)) if w not in _STOP}


def _grams(text: str) -> set[str]:
    return set(char_ngrams(text, 2, 3))


def _scalars(t: Thread, cosine: float, ml_cosine: float = 0.0) -> np.ndarray:
    m_grams, r_grams = _grams(t.message), _grams(t.record)
    m_words, r_words = _words(t.message), _words(t.record)
    named = {x.upper().replace("-", "") for x in _TICKET.findall(t.message)}
    own = t.record_id.upper().replace("-", "")
    # Every field asked for: "still need: service, window" waits for a window as much as for
    # a service (reading the first alone, a window given was no answer).
    asked = {f.strip() for f in t.question.split(",") if f.strip()}
    fields = {f if f in QUESTION_FIELDS else "other" for f in asked}
    kind = t.kind if t.kind in KINDS else "other"
    size = _size(t.message)
    values = {
        "cosine": cosine,
        "gram_overlap": len(m_grams & r_grams) / max(1, len(m_grams)),
        "word_overlap": len(m_words & r_words) / max(1, len(m_words)),
        "number_shared": float(
            bool(set(_NUMBER.findall(t.message)) & set(_NUMBER.findall(t.record)))
        ),
        "log_size": math.log1p(size) / 3.0,
        "short": float(size <= 3),
        "question_mark": float(any(mark in t.message for mark in QUESTION_MARKS)),
        "asked": float(bool(asked)),
        **{f"asked_{f}": float(f in fields) for f in QUESTION_FIELDS},
        "same_user": float(t.same_user),
        "log_minutes": math.log1p(max(0.0, t.minutes)) / 8.0,
        "over_a_day": float(t.minutes > 24 * 60),
        "names_record": float(bool(own) and own in named),
        "names_other_ticket": float(bool(named - {own})),
        **{f"kind_{k}": float(kind == k) for k in KINDS},
        "chinese": float(bool(_CJK.search(t.message))),
        "ml_cosine": 2.0 * ml_cosine,
    }
    return np.array([values[name] for name in SCALARS], dtype=np.float64)


def _hashed(texts: Sequence[str]) -> sparse.csr_matrix:
    """Character 2-4-grams of each text, hashed into `N_HASHED` buckets, L2-normalised."""
    rows, cols, vals = [], [], []
    for i, text in enumerate(texts):
        counts: dict[int, float] = {}
        for gram in char_ngrams(text, 2, 4):
            bucket = stable_hash(gram) % N_HASHED
            counts[bucket] = counts.get(bucket, 0.0) + 1.0
        norm = math.sqrt(sum(v * v for v in counts.values())) or 1.0
        for bucket, count in counts.items():
            rows.append(i)
            cols.append(bucket)
            vals.append(count / norm)
    return sparse.csr_matrix((vals, (rows, cols)), shape=(len(texts), N_HASHED))


_CUES = cues(__name__)
_CLAUSE = re.compile(f"[{_CUES.regex('clause_marks')}]+\\s*|{_CUES.regex('clause_words')}")


def _tail(text: str) -> str:
    """The last clause of a message of several ("reset my password, *still error 691*"): where
    a report says how things stand now. "" for a message of one clause."""
    clauses = [c for c in _CLAUSE.split(text.strip()) if c.strip()]
    return clauses[-1] if len(clauses) > 1 else ""


def _multilingual(threads: Sequence[Thread]) -> tuple[np.ndarray, np.ndarray]:
    """The message's vector and its agreement with the record's, in the multilingual encoder's
    space (`core.text.multilingual`), where message or record is Chinese: MiniLM reads English
    only, so without them "我的鼠标坏了" beside a VPN report and "又卡纸了" beside a printer one
    look alike (a short report of something broken). Zeros for English threads (the encoder is
    never loaded for them) and where the encoder cannot run."""
    n = len(threads)
    message, agreement = np.zeros((n, ML_DIM)), np.zeros((n, ML_DIM))
    chinese = [i for i, t in enumerate(threads) if _CJK.search(t.message + t.record)]
    if not chinese:
        return message, agreement
    vectors = multilingual_vectors(
        [threads[i].message for i in chinese] + [threads[i].record for i in chinese]
    )
    if vectors is None:
        return message, agreement
    k = len(chinese)
    message[chinese] = vectors[:k]
    agreement[chinese] = vectors[:k] * vectors[k:] * 4.0
    return message, agreement


def design(threads: Sequence[Thread], embed: Embed | None) -> sparse.csr_matrix:
    """The model's input rows: [grams | last clause's grams | emb | asked x emb | emb * record
    emb | multilingual emb | multilingual emb * record's | pair readings]."""
    n = len(threads)
    if embed is not None and n:
        vectors = np.asarray(embed([t.message for t in threads] + [t.record for t in threads]))
        m_vec, r_vec = vectors[:n], vectors[n:]
        cosines = np.einsum("ij,ij->i", m_vec, r_vec)
    else:
        m_vec = r_vec = np.zeros((n, EMBEDDING_DIM))
        cosines = np.zeros(n)
    asked = np.array([[1.0 if t.question else 0.0] for t in threads]).reshape(n, 1)
    grams = _hashed([t.message for t in threads])
    tails = _hashed([_tail(t.message) for t in threads])
    ml_message, ml_agreement = _multilingual(threads)
    ml = ml_agreement.sum(axis=1) / 4.0
    scalars = np.vstack(
        [_scalars(t, float(c), float(m)) for t, c, m in zip(threads, cosines, ml, strict=True)]
    )
    return sparse.hstack(
        [
            grams,
            tails,
            sparse.csr_matrix(m_vec),
            sparse.csr_matrix(m_vec * asked),
            sparse.csr_matrix(m_vec * r_vec * 4.0),
            sparse.csr_matrix(ml_message),
            sparse.csr_matrix(ml_agreement),
            sparse.csr_matrix(scalars),
        ],
        format="csr",
    )


@dataclass(frozen=True, slots=True)
class Reading:
    """The model's reading of one message: class probabilities and what to do."""

    probabilities: dict[str, float]

    @property
    def continues(self) -> float:
        """The probability that the message continues the record (update or closing)."""
        return 1.0 - self.probabilities["new"]

    @property
    def verdict(self) -> str:
        """ "continue" (on the record), "new" (something else) or "ask" (unsure)."""
        if self.continues >= CONTINUE_AT:
            return "continue"
        if self.continues < NEW_BELOW:
            return "new"
        return "ask"

    @property
    def kind(self) -> str:
        """The likeliest way it continues: "update", "answer", "status", "closing" or
        "question" (a message saying the problem is gone is an update: `solved`)."""
        p = dict(self.probabilities)
        p["update"] += p.pop("resolved", 0.0)
        return max(CLASSES[1:-1], key=lambda k: p[k])

    @property
    def solved(self) -> bool:
        """Does it say the record's problem is gone, more likely than anything else it may
        do ("disabled the add-in and it works now")?"""
        p = self.probabilities
        return max(CLASSES[1:], key=lambda k: p.get(k, 0.0)) == "resolved"

    def describe(self) -> str:
        p = self.probabilities
        shown = ", ".join(f"{k} {p[k]:.2f}" for k in CLASSES)
        return f"continues the record with probability {self.continues:.2f} ({shown})"


@dataclass(frozen=True, slots=True)
class ContinuationModel(CalibratedLinear):
    """Weights over `design`, one temperature, and whether the embedding blocks are used."""

    def read(self, threads: Sequence[Thread], embed: Embed | None) -> list[Reading]:
        """The calibrated readings of `threads`."""
        probs = self.probabilities(design(threads, embed if self.with_embedding else None))
        return [Reading(dict(zip(CLASSES, map(float, row), strict=True))) for row in probs]


def thread_of(row: dict[str, object]) -> Thread:
    """A labelled row as the model reads it."""
    return Thread(
        message=str(row["message"]),
        record=str(row["record"]),
        kind=str(row.get("kind") or ""),
        question=str(row.get("question") or ""),
        same_user=bool(row.get("same_user", True)),
        minutes=float(row.get("minutes") or 0.0),  # type: ignore[arg-type]
    )


def labelled_rows(split: str | None = "train") -> list[dict[str, object]]:
    """The shipped conversation set (one split, or all rows with `split=None`)."""
    text = resources.files("brain.data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [r for r in rows if split is None or r.get("split") == split]


def model_key(rows: Sequence[dict[str, object]], with_embedding: bool) -> str:
    """What the fitted weights depend on: the rows, the feature layout, the settings."""
    digest = hashlib.sha256()
    layout = (EMBEDDING_DIM, ML_DIM, N_HASHED, SCALARS, CLASSES, C, FOLDS, with_embedding, 4)
    digest.update(repr(layout).encode())
    for row in rows:
        digest.update(
            json.dumps([repr(thread_of(row)), row["label"], row.get("template")]).encode()
        )
    return digest.hexdigest()[:16]


def _lr():  # type: ignore[no-untyped-def]
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=C, solver="lbfgs", max_iter=3000)


def out_of_fold(
    x: sparse.csr_matrix, labels: np.ndarray, rows: Sequence[dict[str, object]]
) -> np.ndarray:
    """Scores of each row from a model fitted without its phrasing (the folds keep the rows
    made from one phrase pattern together, so calibration sees wordings it was not fitted on,
    as it will at run time)."""
    groups = [str(r.get("template") or r["message"]) for r in rows]
    return grouped_out_of_fold(x, labels, groups, len(CLASSES), _lr, FOLDS)


def fit_model(rows: Sequence[dict[str, object]], embed: Embed | None) -> ContinuationModel:
    """Fit, and calibrate on out-of-fold scores (deterministic: fixed folds, lbfgs)."""
    threads = [thread_of(r) for r in rows]
    labels = np.array([CLASSES.index(str(r["label"])) for r in rows])
    x = design(threads, embed)
    scores = out_of_fold(x, labels, rows)
    final = _lr().fit(x, labels)
    return ContinuationModel(
        coef=final.coef_.astype(np.float64),
        intercept=final.intercept_.astype(np.float64),
        temperature=fit_temperature(scores, labels),
        with_embedding=embed is not None,
        key=model_key(rows, embed is not None),
    )


#: Where the fitted weights are shipped and cached, and how they are read or fitted.
FILES = model_files.ModelFiles(
    SHIPPED_NAME,
    labelled_rows,
    model_key,
    fit_model,
    ContinuationModel.load,
    sources=(("brain.data", DATA_FILE),),
)


def load_or_fit(cache_dir: Path, embed: Embed | None) -> ContinuationModel:
    """The model for the shipped rows: the shipped copy, the home's cache, or a fresh fit."""
    return FILES.load_or_fit(cache_dir, embed)
