"""The case book: unknown problems the dynamic tier saw, and what became of them.

One case per dynamic decision (keyed by its decision id): the message and its vector, the plan
that answered it (or the boundary it hit) and who confirmed or rejected it afterwards. It is
the dynamic tier's own memory of "similar unknown cases": the draft starts
from a plan confirmed on a similar case, the counter-example check looks for a similar case the
same plan failed, evolution clusters confirmed cases, and boundaries become evolution signals.
Stored behind `core.stores.protocols.CaseStore`.

Every dynamic decision reads the whole book, so it reads the store's view (parsed again only
after another write, by any process) and keeps each case's decoded vector until the case
changes: a look-up copies and decodes nothing it read before.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np

from core.plans import Plan
from core.stores.protocols import CaseStore
from core.text.sparse import char_ngrams
from core.vector_text import decode_vector, encode_vector

#: Without the dense model, character n-gram cosine stands in; it runs lower than MiniLM's.
SPARSE_SCALE = 0.85
#: Cases kept for similarity look-ups (the newest); older ones only count in reports.
MAX_SCANNED = 5_000
#: A stored case as read: shared with the store's view, so never changed in place (write
#: through `CaseBook.feedback`, `mark_evolved` and the store).
Case = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class SimilarCase:
    """A stored case and how similar its message is to the one at hand."""

    case: Case
    similarity: float

    @property
    def plan(self) -> Plan | None:
        data = self.case.get("plan")
        return None if data is None else Plan.from_dict(data)

    @property
    def confirmed(self) -> bool:
        return bool(self.case.get("confirmed_by"))

    @property
    def failed(self) -> bool:
        return bool(self.case.get("rejected_by"))


def ngram_cosine(a: str, b: str) -> float:
    """Cosine of character 2..4-gram counts (language-agnostic)."""
    ca, cb = Counter(char_ngrams(a)), Counter(char_ngrams(b))
    if not ca or not cb:
        return 0.0
    dot = sum(v * cb.get(k, 0) for k, v in ca.items())
    norm = math.sqrt(sum(v * v for v in ca.values())) * math.sqrt(sum(v * v for v in cb.values()))
    return dot / norm if norm else 0.0


class CaseBook:
    """Reads and writes cases; `embed` gives a text's vector (None without the dense model)."""

    def __init__(
        self, store: CaseStore, embed: Callable[[str], np.ndarray | None] | None = None
    ) -> None:
        self.store = store
        self.embed = embed
        #: case id -> (its stored vector, decoded): decoded again only when the case changed.
        self._decoded: dict[str, tuple[object, np.ndarray | None]] = {}

    def record(
        self,
        *,
        decision_id: str,
        text: str,
        user: str,
        result: str,
        plan: Plan | None,
        vector: np.ndarray | None,
    ) -> dict[str, Any]:
        """Keep one dynamic decision's case (a retry of the same decision keeps the first)."""
        case: dict[str, Any] = {
            "case_id": decision_id,
            "decision_id": decision_id,
            "text": text[:500],
            "user": user,
            "result": result,
            "plan": None if plan is None else plan.to_dict(),
            "signature": None if plan is None else plan.signature,
            "vector": encode_vector(vector),
            "confirmed_by": [],
            "rejected_by": [],
            "evolved": None,
            "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        self.store.insert(case)
        return case

    def feedback(self, case_id: str, *, user: str, confirmed: bool) -> dict[str, Any] | None:
        """A person confirmed (or rejected/corrected) what the case's decision did."""
        field, other = (
            ("confirmed_by", "rejected_by") if confirmed else ("rejected_by", "confirmed_by")
        )

        def change(case: dict[str, Any]) -> None:
            if user not in case[field]:
                case[field].append(user)
            if user in case[other]:
                case[other].remove(user)

        return self.store.modify(case_id, change)

    def mark_evolved(self, case_ids: Sequence[str], name: str) -> None:
        for case_id in case_ids:
            self.store.modify(case_id, lambda case: case.__setitem__("evolved", name))

    def forget_user(self, user: str) -> list[dict[str, Any]]:
        """The right to be forgotten: remove the user's cases (their message, vector and
        plan) and their name from others' confirmations; the removed cases are returned so
        what was derived from them (evolved controllers' examples) can forget them too."""
        rows = self.store.all()
        mine = [case for case in rows if case.get("user") == user]
        self.store.remove([str(case["case_id"]) for case in mine])

        def unname(case: dict[str, Any]) -> None:
            for name in ("confirmed_by", "rejected_by"):
                case[name] = [u for u in case.get(name) or [] if u != user]
            resolutions = case.get("resolutions") or []
            case["resolutions"] = [r for r in resolutions if r.get("by") != user]

        for case in rows:
            if case.get("user") == user:
                continue
            named = user in (case.get("confirmed_by") or []) + (case.get("rejected_by") or [])
            if named or any(r.get("by") == user for r in case.get("resolutions") or []):
                self.store.modify(str(case["case_id"]), unname)
        return mine

    def cases(self) -> list[Case]:
        """The newest `MAX_SCANNED` cases, oldest first (read-only: `Case`)."""
        rows = list(self.store.view())
        rows.sort(key=lambda c: str(c.get("created_at", "")))
        return rows[-MAX_SCANNED:]

    def vector_of(self, case: Case) -> np.ndarray | None:
        """The case's stored vector, decoded once per version of the case."""
        stored = case.get("vector")
        name = str(case.get("case_id"))
        known = self._decoded.get(name)
        if known is not None and known[0] == stored:
            return known[1]
        vector = decode_vector(stored)
        self._decoded[name] = (stored, vector)
        return vector

    def similar(
        self,
        text: str,
        vector: np.ndarray | None,
        *,
        minimum: float,
        exclude: str | None = None,
        cases: Sequence[Case] | None = None,
    ) -> list[SimilarCase]:
        """Cases at least `minimum` similar to `text`, most similar first."""
        book = self.cases() if cases is None else cases
        rows = [c for c in book if c.get("case_id") != exclude]
        scores = self._scores(text, vector, rows)
        if cases is None and len(self._decoded) > len(book):
            # A removed (forgotten) case's vector leaves this process's memory too.
            live = {str(c.get("case_id")) for c in book}
            self._decoded = {k: v for k, v in self._decoded.items() if k in live}
        found = [
            SimilarCase(case, round(float(score), 4))
            for case, score in zip(rows, scores, strict=True)
            if score >= minimum
        ]
        found.sort(key=lambda s: -s.similarity)
        return found

    def _scores(self, text: str, vector: np.ndarray | None, rows: Sequence[Case]) -> list[float]:
        """`similarity` of every row, the dense cosines as one matrix product."""
        scores = [0.0] * len(rows)
        stored = [None if vector is None else self.vector_of(c) for c in rows]
        dense = {
            i: other
            for i, other in enumerate(stored)
            if vector is not None and other is not None and other.shape == vector.shape
        }
        if dense and vector is not None:
            matrix = np.stack(list(dense.values())).astype(np.float32, copy=False)
            norms = np.linalg.norm(matrix, axis=1) * float(np.linalg.norm(vector))
            cosines = (matrix @ vector.astype(np.float32)) / np.where(norms > 0, norms, 1.0)
            for i, cosine in zip(dense, cosines.tolist(), strict=True):
                scores[i] = float(cosine)
        taken = set(dense)
        for i, case in enumerate(rows):
            if i not in taken:
                scores[i] = self.similarity(text, vector, case)
        return scores

    @staticmethod
    def similarity(text: str, vector: np.ndarray | None, case: Case) -> float:
        """MiniLM cosine when both have a vector, else scaled character n-gram cosine."""
        other = None if vector is None else decode_vector(case.get("vector"))
        if vector is not None and other is not None and other.shape == vector.shape:
            denominator = float(np.linalg.norm(vector) * np.linalg.norm(other)) or 1.0
            return float(np.dot(vector, other)) / denominator
        return ngram_cosine(text, str(case.get("text", ""))) / SPARSE_SCALE
