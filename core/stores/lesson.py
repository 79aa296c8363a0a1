"""One routing lesson, the record the lesson store (`core.stores.protocols.LessonStore`) reads
and writes: typed everywhere, a plain document only inside the store backends (`to_doc`,
`from_doc`), so the memory ring, the replay and the forgetting never handle raw dicts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.text.language import is_chinese
from core.text.sparse import char_ngrams
from core.vector_text import decode_vector, encode_vector

if TYPE_CHECKING:  # numpy is imported when a vector is read or written: `brain why` needs none
    import numpy as np

#: Characters of a message a lesson keeps (and compares by).
TEXT_CAP = 500


#: Lessons that state where a message belongs (a correction's "moved to" half).
MOVED_TO = "correction-right"


def gram_set(text: str) -> frozenset[str]:
    """The character 2-3-grams a lesson is compared by."""
    return frozenset(char_ngrams(text[:TEXT_CAP], 2, 3))


@dataclass(slots=True)
class Lesson:
    """One persisted routing lesson."""

    memory_id: str
    controller: str
    weight: float
    kind: str
    text: str
    decision_id: str
    user: str
    created_at: str
    ids: list[str] = field(default_factory=list)
    vector: np.ndarray | None = None
    latin: bool = True
    channel: str = ""
    #: The knowledge-base entry that best matched the message ("" when none did).
    scenario: str = ""
    #: The controller the message was moved from and to (a correction), else both "".
    moved_from: str = ""
    moved_to: str = ""
    #: Who wrote the message the lesson is about (may differ from who taught it).
    asker: str = ""
    #: The Slack workspace the lesson was learned in (None with one workspace): it is
    #: recalled only for messages of the same workspace.
    team: str | None = None
    #: The text's character n-grams, computed when first compared (`grams`).
    gram_cache: frozenset[str] | None = field(default=None, repr=False, compare=False)

    @property
    def grams(self) -> frozenset[str]:
        """The character 2-3-grams the lesson is compared by."""
        if self.gram_cache is None:
            self.gram_cache = gram_set(self.text)
        return self.gram_cache

    def to_doc(self) -> dict[str, Any]:
        return {
            "memory_id": self.memory_id,
            "controller": self.controller,
            "weight": self.weight,
            "kind": self.kind,
            "text": self.text,
            "decision_id": self.decision_id,
            "user": self.user,
            "created_at": self.created_at,
            "ids": self.ids,
            "vector": encode_vector(self.vector),
            "channel": self.channel,
            "scenario": self.scenario,
            "moved_from": self.moved_from,
            "moved_to": self.moved_to,
            "asker": self.asker,
            **({"team": self.team} if self.team is not None else {}),
        }

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> Lesson:
        text = str(doc.get("text", ""))
        return cls(
            memory_id=str(doc["memory_id"]),
            controller=str(doc["controller"]),
            weight=float(doc["weight"]),
            kind=str(doc.get("kind", "")),
            text=text,
            decision_id=str(doc.get("decision_id", "")),
            user=str(doc.get("user", "")),
            created_at=str(doc.get("created_at", "")),
            ids=[str(i) for i in doc.get("ids", [])],
            vector=decode_vector(doc.get("vector")),
            latin=not is_chinese(text),
            channel=str(doc.get("channel", "")),
            scenario=str(doc.get("scenario", "")),
            moved_from=str(doc.get("moved_from", "")),
            moved_to=str(doc.get("moved_to", "")),
            asker=str(doc.get("asker", doc.get("user", ""))),
            team=doc.get("team"),
        )

    @property
    def order(self) -> tuple[str, str]:
        """Lessons are listed oldest first."""
        return (self.created_at, self.memory_id)
