"""What the escalation model reads: the embeddings, character n-grams and the rule features.

MiniLM is English-only, so character n-grams (hashed: no vocabulary to ship or drift) carry
typos, and the multilingual sentence vectors (`core.text.multilingual`, trained so that a
sentence and its translation land close) carry Chinese and mixed messages: what the model
learns from an English wording then reaches a Chinese one it was never shown. The rule
features carry what the service-desk matrix and the security taxonomy already know (impact,
service state, priority, security report or question, a request for a person), so the model
learns how much each is worth instead of a hand-set threshold.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from brain.escalation.priority import IMPACTS, STATES, Assessment, assess
from brain.intent.security import SecurityFinding, find_security
from brain.intent.urgency import handoff_signal
from core.text.multilingual import DIM as MULTILINGUAL_DIM

__all__ = [
    "EMBEDDING_DIM",
    "LIVE_WIDTH",
    "MULTILINGUAL_DIM",
    "N_HASHED",
    "RULE_NAMES",
    "Signals",
    "design",
    "forced_security",
    "model_alone",
    "model_decides",
    "one_failing",
    "signals_of",
    "wide",
]

#: The embedding width (MiniLM); zeros when the brain runs without an embedder.
EMBEDDING_DIM = 384
#: Hashed character n-gram buckets.
N_HASHED = 2**14
#: The design's leading columns the live-event model reads: the text alone, no rule block.
LIVE_WIDTH = EMBEDDING_DIM + MULTILINGUAL_DIM + N_HASHED
PRIORITIES = ("P1", "P2", "P3", "P4")
RULE_NAMES: tuple[str, ...] = (
    *(f"impact_{i}" for i in IMPACTS),
    *(f"state_{s}" for s in STATES),
    *(f"priority_{p}" for p in PRIORITIES),
    "production",
    "test_system",
    "customer_data",
    "payments",
    "resolved",
    "not_live",
    "security_event",
    "security_report",
    "security_over",
    "security_question",
    "handoff",
)
#: The character n-gram range (scikit-learn's `char_wb` analyzer, words padded with a space).
NGRAM_RANGE = (2, 4)
_WHITE_SPACES = re.compile(r"\s\s+")
_MASK = 0xFFFFFFFF


def _murmurhash3_32(data: bytes) -> int:
    """MurmurHash3 (x86, 32 bit, seed 0) as a signed int, as scikit-learn's hasher computes it."""
    h = 0
    n = len(data)
    tail = n - n % 4
    for i in range(0, tail, 4):
        k = int.from_bytes(data[i : i + 4], "little")
        k = (k * 0xCC9E2D51) & _MASK
        k = ((k << 15) | (k >> 17)) & _MASK
        k = (k * 0x1B873593) & _MASK
        h ^= k
        h = ((h << 13) | (h >> 19)) & _MASK
        h = (h * 5 + 0xE6546B64) & _MASK
    k = 0
    rest = n - tail
    if rest == 3:
        k ^= data[tail + 2] << 16
    if rest >= 2:
        k ^= data[tail + 1] << 8
    if rest >= 1:
        k ^= data[tail]
        k = (k * 0xCC9E2D51) & _MASK
        k = ((k << 15) | (k >> 17)) & _MASK
        k = (k * 0x1B873593) & _MASK
        h ^= k
    h ^= n
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _MASK
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _MASK
    h ^= h >> 16
    return h - (1 << 32) if h & 0x80000000 else h


def _char_wb_ngrams(text: str) -> list[str]:
    """scikit-learn's `char_wb` n-grams of the lower-cased `text`."""
    text = _WHITE_SPACES.sub(" ", text.lower())
    low, high = NGRAM_RANGE
    grams: list[str] = []
    for word in text.split():
        word = f" {word} "
        for n in range(low, high + 1):
            offset = 0
            grams.append(word[offset : offset + n])
            while offset + n < len(word):
                offset += 1
                grams.append(word[offset : offset + n])
            if offset == 0:  # a short word counts once
                break
    return grams


def _bucket(gram: str) -> int:
    h = _murmurhash3_32(gram.encode("utf-8"))
    if h == -(2**31):
        return (2**31 - 1 - (N_HASHED - 1)) % N_HASHED
    return abs(h) % N_HASHED


def _hashed_grams(texts: Sequence[str]) -> sparse.csr_matrix:
    """Hashed, L2-normalised character n-gram counts: what scikit-learn's `HashingVectorizer`
    (char_wb, 2-4, no alternate sign) gives, computed with plain numpy."""
    indptr = [0]
    indices: list[np.ndarray] = []
    values: list[np.ndarray] = []
    for text in texts:
        buckets = np.array([_bucket(g) for g in _char_wb_ngrams(text)], dtype=np.int64)
        cols, counts = np.unique(buckets, return_counts=True)
        data = counts.astype(np.float64)
        norm = float(np.sqrt(data @ data))
        if norm > 0:
            data /= norm
        indices.append(cols.astype(np.int32))
        values.append(data)
        indptr.append(indptr[-1] + len(cols))
    return sparse.csr_matrix(
        (
            np.concatenate(values) if values else np.zeros(0),
            np.concatenate(indices) if indices else np.zeros(0, dtype=np.int32),
            np.array(indptr, dtype=np.int32),
        ),
        shape=(len(texts), N_HASHED),
    )


@dataclass(frozen=True, slots=True)
class Signals:
    """The rule readings of one message (what the record's evidence is made of)."""

    assessment: Assessment
    security: str | None  # "event" | "question" | None
    security_classes: tuple[str, ...]
    security_cue: str
    handoff: str | None
    #: Why a reported security event does not force a page ("" when it does, or is none).
    security_held: str = ""

    def vector(self) -> np.ndarray:
        """The rule features, in `RULE_NAMES` order."""
        a = self.assessment
        on = {
            f"impact_{a.impact}",
            f"state_{a.state}",
            f"priority_{a.priority}",
            *(name for name in ("production", "test_system", "customer_data") if getattr(a, name)),
            *(name for name in ("payments", "resolved", "not_live") if getattr(a, name)),
        }
        if self.security == "event":
            on.add("security_report" if self.security_held else "security_event")
            if "over" in self.security_held:
                on.add("security_over")
        elif self.security:
            on.add(f"security_{self.security}")
        if self.handoff == "human_handoff":
            on.add("handoff")
        return np.array([1.0 if n in on else 0.0 for n in RULE_NAMES], dtype=np.float32)


def wide(assessment: Assessment) -> bool:
    """Where the model makes the P1 call at its recall-first threshold: the matrix says P1, or
    P2 with many or all affected by a live failure (degraded or down). "Urgent" for everyone
    is urgency, not a failure, so it never reaches the threshold."""
    a = assessment
    live = a.state in ("degraded", "down")
    return a.priority == "P1" or (a.priority == "P2" and a.impact in ("many", "all") and live)


def model_decides(signals: Signals) -> bool:
    """No rule forces or vetoes the page (a person asked for, security reported or asked
    about, a resolved alert or no live event) and the message is `wide`: the rows whose page
    the threshold decides, so the only ones it is chosen on."""
    a = signals.assessment
    ruled = signals.handoff == "human_handoff" or signals.security is not None
    return not ruled and not a.resolved and not a.not_live and wide(a)


def forced_security(signals: Signals) -> bool:
    """A reported security event the rules force to P1 (described, live or not over, with
    the data or access at risk its class needs)."""
    return signals.security == "event" and not signals.security_held


def model_alone(signals: Signals, asked: bool) -> bool:
    """The message is the model's alone: no rule forces or vetoes a page, the matrix reads no
    live failure, and it does not end as a question (a question never pages alone)."""
    a = signals.assessment
    ruled = signals.handoff == "human_handoff" or signals.security is not None
    live = a.state in ("degraded", "down")
    return not (ruled or a.resolved or a.not_live or wide(a) or live or asked)


def one_failing(signals: Signals) -> bool:
    """No rule forces or vetoes a page and the matrix reads a live failure (degraded or down)
    but not a wide one: one person's broken mailbox, or a company's whose scope the matrix
    does not read ("the phone lines are broken for the entire workforce"). The model pages
    there above a bar of its own, fitted as `alone` is, since most such failures are one
    person's."""
    a = signals.assessment
    ruled = signals.handoff == "human_handoff" or signals.security is not None
    live = a.state in ("degraded", "down")
    return live and not (ruled or a.resolved or a.not_live or wide(a))


def held(finding: SecurityFinding | None) -> str:
    """Why a reported security event is not forced to P1 ("" when it is): words alone do not
    page, so an event needs describing (a pattern, or a topic beside a report word; a bare
    mention only when it is happening now), must not be over or handled, and must carry the
    impact its class needs (a lost laptop with client data on it)."""
    if finding is None or finding.kind != "event":
        return ""
    if finding.over:
        return f"over or handled ({finding.over!r})"
    if finding.how == "mention" and not finding.live:
        return "named, not described as happening now"
    if not finding.critical:
        return "no data or access at risk named"
    return ""


def signals_of(text: str) -> Signals:
    """The matrix, the security taxonomy and the hand-off cue on `text`."""
    finding = find_security(text)
    handoff = handoff_signal(text)
    return Signals(
        assessment=assess(text),
        security=finding.kind if finding is not None else None,
        security_classes=finding.classes if finding is not None else (),
        security_cue=finding.describe() if finding is not None else "",
        handoff=handoff,
        security_held=held(finding),
    )


def design(
    texts: Sequence[str], embeddings: np.ndarray | None, multilingual: np.ndarray | None = None
) -> sparse.csr_matrix:
    """The model's input rows: [embedding | multilingual vector | hashed char n-grams | rule
    features x 2]; a missing embedder's block is zeros."""
    n = len(texts)
    if embeddings is None:
        embeddings = np.zeros((n, EMBEDDING_DIM), dtype=np.float32)
    if multilingual is None:
        multilingual = np.zeros((n, MULTILINGUAL_DIM), dtype=np.float32)
    rules = np.vstack([signals_of(t).vector() for t in texts]) if n else np.zeros((0, 0))
    grams = _hashed_grams(list(texts))
    # The rule block is doubled so one regularisation strength suits all the blocks.
    return sparse.hstack(
        [
            sparse.csr_matrix(embeddings),
            sparse.csr_matrix(multilingual),
            grams,
            sparse.csr_matrix(2.0 * rules),
        ],
        format="csr",
    )
