"""What every DCR stage reads about one unknown message, gathered once."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from core.records import DryRunRecord, Entities, IntentResult, SignalScores

if TYPE_CHECKING:
    from brain.dynamic.cases import SimilarCase
    from brain.routing.plan import Candidate
    from knowledge.types import Hit

#: Fragment thresholds: a controller has a clue of its own in the message when its keywords
#: match this strongly, the KB supports it this much (an identifier of its format gives 0.8,
#: a glossary term of its domain 0.6), or the intent recognizer's group names it.
KEYWORD_CLUE = 0.5
KNOWLEDGE_CLUE = 0.6


@dataclass(slots=True)
class Situation:
    """The unknown message as the loop sees it."""

    text: str
    intent: IntentResult
    entities: Entities
    #: Ranked, calibrated candidates (best first).
    candidates: Sequence[Candidate]
    #: Controller -> its signal scores.
    signals: Mapping[str, SignalScores]
    #: Identifier token -> the controller its format belongs to.
    ids: Mapping[str, str]
    vector: np.ndarray | None
    names: Sequence[str]
    labels: Mapping[str, str]
    feeds: Mapping[str, Sequence[str]]
    dry_run: Callable[[str], DryRunRecord]
    chinese: bool
    #: The semantic model declared the message out of scope: clues alone do not override it.
    declared_out_of_scope: bool = False
    #: Confirmed or failed cases at least `same_problem` similar (most similar first).
    similar: list[SimilarCase] = field(default_factory=list)
    #: KB hits for message + intent + entities.
    kb_hits: list[Hit] = field(default_factory=list)
    #: What the message does (`brain.chain.request_type`: "problem" for a report; "" unread).
    request_type: str = ""
    #: The controller that takes problems no other controller fits (the `outages` role).
    takes_problems: str | None = None
    #: Controllers whose dry-run refused the message itself (not for a missing parameter, nor
    #: for being down): "a fault of a 显示器 reported, not an order".
    refused: tuple[str, ...] = ()
    _dry_runs: dict[str, DryRunRecord] = field(default_factory=dict)

    def confidence(self, name: str) -> float:
        return next((c.confidence for c in self.candidates if c.name == name), 0.0)

    def clues(self, name: str) -> list[str]:
        """The fragment-level clues the message holds for `name` (empty: none)."""
        found: list[str] = []
        scores = self.signals.get(name)
        if scores is not None:
            keyword = scores.signals.get("keyword", 0.0)
            knowledge = scores.signals.get("knowledge", 0.0)
            if keyword >= KEYWORD_CLUE:
                found.append(f"its keywords match ({keyword:.2f})")
            if knowledge >= KNOWLEDGE_CLUE:
                found.append(f"the knowledge base supports it ({knowledge:.2f})")
        tokens = [token for token, owner in self.ids.items() if owner == name]
        if tokens:
            found.append(f"identifier {tokens[0]} is of its format")
        if self.intent.group == name and self.intent.confidence >= 0.5:
            found.append(f"the intent {self.intent.intent} belongs to it")
        if self._left_to(name):
            found.append(
                f"a problem is reported that {', '.join(self.refused)} refused, and it takes "
                "the problems no other controller fits"
            )
        return found

    def _left_to(self, name: str) -> bool:
        """Is `name` the one left to take a reported problem? The message reports one (its
        request type, as the speech-act model or the message's form reads it), another
        controller refused it by what it says (a fault of a monitor is no equipment order),
        and `name` holds the role of the problems no other controller fits."""
        return (
            self.request_type == "problem"
            and name == self.takes_problems
            and bool(self.refused)
            and name not in self.refused
        )

    def check(self, name: str) -> DryRunRecord:
        """The controller's dry-run (once per decision)."""
        if name not in self._dry_runs:
            self._dry_runs[name] = self.dry_run(name)
        return self._dry_runs[name]

    @property
    def dry_runs(self) -> list[DryRunRecord]:
        return list(self._dry_runs.values())
