"""What the escalation model reads: the embedding, character n-grams and the rule features.

MiniLM is English-only, so character n-grams (hashed: no vocabulary to ship or drift) carry
Chinese and typos; the rule features carry what the service-desk matrix and the security
taxonomy already know (impact, service state, priority, security report or question, a request
for a person), so the model learns how much each is worth instead of a hand-set threshold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import HashingVectorizer

from brain.escalation.priority import IMPACTS, STATES, Assessment, assess
from brain.intent.security import find_security
from brain.intent.urgency import handoff_signal

__all__ = ["EMBEDDING_DIM", "N_HASHED", "RULE_NAMES", "Signals", "design", "signals_of"]

#: The embedding width (MiniLM); zeros when the brain runs without an embedder.
EMBEDDING_DIM = 384
#: Hashed character n-gram buckets.
N_HASHED = 2**14
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
    "security_question",
    "handoff",
)
_HASHER = HashingVectorizer(
    analyzer="char_wb",
    ngram_range=(2, 4),
    n_features=N_HASHED,
    alternate_sign=False,
    norm="l2",
    lowercase=True,
)


@dataclass(frozen=True, slots=True)
class Signals:
    """The rule readings of one message (what the record's evidence is made of)."""

    assessment: Assessment
    security: str | None  # "event" | "question" | None
    security_classes: tuple[str, ...]
    security_cue: str
    handoff: str | None

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
        if self.security:
            on.add(f"security_{self.security}")
        if self.handoff == "human_handoff":
            on.add("handoff")
        return np.array([1.0 if n in on else 0.0 for n in RULE_NAMES], dtype=np.float32)


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
    )


def design(texts: Sequence[str], embeddings: np.ndarray | None) -> sparse.csr_matrix:
    """The model's input rows: [embedding | hashed char n-grams | rule features x 2]."""
    n = len(texts)
    if embeddings is None:
        embeddings = np.zeros((n, EMBEDDING_DIM), dtype=np.float32)
    rules = np.vstack([signals_of(t).vector() for t in texts]) if n else np.zeros((0, 0))
    grams = _HASHER.transform(list(texts))
    # The rule block is doubled so one regularisation strength suits all three blocks.
    return sparse.hstack(
        [sparse.csr_matrix(embeddings), grams, sparse.csr_matrix(2.0 * rules)], format="csr"
    )
