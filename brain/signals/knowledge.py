"""Knowledge signal (20%) and identifier evidence, both through the KB routing skill.

One retrieval serves every controller (`KnowledgeSkill.confirm_many`). A failing or missing
knowledge base never stops a decision: the signal is 0 and the status says why. It is scored
last (deferred), once the other signals' partial total says which controllers could still win.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from brain.signals.base import PartialTotal, Signal, SignalQuery, SignalReading, SignalSources

if TYPE_CHECKING:
    from knowledge.skill import KnowledgeSkill
    from knowledge.types import Confirmation

log = logging.getLogger(__name__)

#: Entity kinds whose values are identifiers the KB may map to a domain.
ID_ENTITY_KINDS = ("ticket_id", "asset_tag", "error_code")
#: Registries up to this size get a KB confirmation for every controller (see
#: `knowledge_candidates` for larger ones).
KB_MAX_CONFIRM = 32


def knowledge_signal(
    skill: KnowledgeSkill | None, text: str, names: Sequence[str]
) -> tuple[np.ndarray, dict[str, Confirmation], str]:
    """(score per controller aligned with `names`, confirmations, status)."""
    values = np.zeros(len(names), dtype=np.float32)
    if skill is None:
        return values, {}, "unavailable: no knowledge base"
    try:
        confirmations = dict(skill.confirm_many(text, list(names)))
    except Exception as exc:  # the KB is a signal, not a dependency of deciding
        log.warning("knowledge confirmation failed: %s: %s", type(exc).__name__, exc)
        return values, {}, f"failed: {type(exc).__name__}"
    for index, name in enumerate(names):
        confirmation = confirmations.get(name)
        if confirmation is not None:
            values[index] = min(max(float(confirmation.score), 0.0), 1.0)
    return values, confirmations, "ok"


def id_domains(
    skill: KnowledgeSkill | None, text: str, entities: Mapping[str, Sequence[str]]
) -> dict[str, str]:
    """Identifiers in the message that the KB maps to a business domain: token -> domain."""
    if skill is None:
        return {}
    found: dict[str, str] = {}
    try:
        for match in skill.find_ids(text):
            if match.domain:
                found[match.token] = match.domain
        for kind in ID_ENTITY_KINDS:
            for token in entities.get(kind, []):
                if token in found:
                    continue
                classified = skill.classify_id(token)
                if classified is not None and classified.domain:
                    found[token] = classified.domain
    except Exception as exc:
        log.warning("identifier classification failed: %s: %s", type(exc).__name__, exc)
    return found


def knowledge_candidates(
    partial: np.ndarray, weight: float, identified: Sequence[int] = ()
) -> np.ndarray:
    """Controllers worth a KB confirmation: all in a small registry; in a large one, those that
    could still reach the leader with a perfect KB score (plus any with identifier evidence,
    `identified`), at most KB_MAX_CONFIRM. The rest cannot win on the KB alone and get 0."""
    count = len(partial)
    if count <= KB_MAX_CONFIRM:
        return np.arange(count)
    reachable = np.flatnonzero(partial + weight >= float(partial.max()))
    chosen = set(reachable[np.argsort(-partial[reachable])][:KB_MAX_CONFIRM].tolist())
    chosen.update(identified)
    return np.array(sorted(chosen), dtype=np.int64)


class KnowledgeSignal(Signal):
    """How well the knowledge base's documents of each controller's domain back the message."""

    name: ClassVar[str] = "knowledge"
    word: ClassVar[str] = "knowledge base"
    deferred: ClassVar[bool] = True
    calibrated: ClassVar[bool] = True
    calibration_order: ClassVar[int] = 30
    telling_order: ClassVar[int] = 20

    def score(
        self, query: SignalQuery, sources: SignalSources, partial: PartialTotal | None
    ) -> SignalReading:
        names = query.names
        values = np.zeros(len(names), dtype=np.float32)
        if partial is None:
            asked = np.arange(len(names))
        else:
            keyword = partial.readings.get("keyword")
            identified = list(keyword.evidence.ids) if keyword is not None else []
            asked = knowledge_candidates(partial.total, partial.weight, identified)
        found, confirmations, status = knowledge_signal(
            sources.knowledge, query.text, [names[int(i)] for i in asked]
        )
        values[asked] = found
        return SignalReading(values, status, confirmations)

    def reasons(self, reading: SignalReading, index: int, controller: str) -> list[str]:
        confirmation = (reading.evidence or {}).get(controller)
        if confirmation is not None and confirmation.score >= 0.3 and confirmation.evidence:
            title = confirmation.evidence[0].title or confirmation.evidence[0].source
            return [f"knowledge base '{title}' supports {controller}"]
        return []
