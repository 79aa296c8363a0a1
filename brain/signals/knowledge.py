"""Knowledge signal (seed 000, 20%) and identifier evidence, both through the KB routing skill.

One retrieval serves every controller (`KnowledgeSkill.confirm_many`). A failing or missing
knowledge base never stops a decision: the signal is 0 and the status says why.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from knowledge.skill import KnowledgeSkill
    from knowledge.types import Confirmation

log = logging.getLogger(__name__)

#: Entity kinds whose values are identifiers the KB may map to a domain.
ID_ENTITY_KINDS = ("ticket_id", "asset_tag", "error_code")


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
