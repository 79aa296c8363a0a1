"""A decision as the debug console draws it, read through `brain why`'s explanation.

`explain_decision` (brain/decisions/explain.py) gives every field; this adds what a page
shows beside the numbers: each intent vote's weight and weighted share (`brain.intent.vote`),
each candidate's role (primary, supporting), and the retrieval hits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from pathlib import PurePath
from typing import Any

from brain import INTENT_VOTE_WEIGHTS, explain_decision, signal_names
from core.records import Decision, RetrievalHit

#: How the vote's sources are named on the page (the design calls the keyword rules "pattern").
SOURCE_NAMES = {"llm": "LLM", "semantic": "semantic", "keyword": "pattern"}


def votes(intent: dict[str, Any]) -> list[dict[str, Any]]:
    """The three recognizers' confidences, weights and weighted shares, then any markers."""
    scores = intent.get("source_scores") or {}
    rows = []
    for source, weight in INTENT_VOTE_WEIGHTS.items():
        confidence = float(scores.get(source, 0.0))
        rows.append(
            {
                "source": SOURCE_NAMES.get(source, source),
                "confidence": confidence,
                "weight": weight,
                "weighted": weight * confidence,
            }
        )
    markers = [
        {"source": name, "confidence": float(value), "weight": None, "weighted": None}
        for name, value in scores.items()
        if name not in INTENT_VOTE_WEIGHTS
    ]
    return rows + markers


def domains(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every scored controller, best first, with its role in the decision."""
    supporting = set(data.get("supporting") or [])
    rows = []
    for name, row in (data.get("signals") or {}).items():
        role = (
            "primary"
            if name == data.get("controller")
            else "supporting"
            if name in supporting
            else ""
        )
        rows.append(
            {
                "controller": name,
                "role": role,
                "total": float(row.get("total", 0.0)),
                "confidence": row.get("confidence"),
            }
        )
    return sorted(rows, key=lambda r: -(r["confidence"] or r["total"]))


def _hits(hits: Sequence[RetrievalHit]) -> list[dict[str, Any]]:
    """Retrieval hits best first, each source named by its file (the installation's absolute
    path says nothing to a reader and tells a visitor where the code is installed)."""
    rows = [{**asdict(hit), "source": PurePath(hit.source).name or hit.source} for hit in hits]
    return sorted(rows, key=lambda row: -float(row["score"]))


def decision_view(
    decision: Decision, *, searched: Sequence[RetrievalHit] = (), lessons: Sequence[Any] = ()
) -> dict[str, Any]:
    """Everything a decision page shows. `searched`: hits read from the knowledge base for
    the message when the decision recorded none (shown as such)."""
    data = explain_decision(decision)
    signals = data.get("signals") or {}
    recorded = _hits(decision.retrieval)
    return {
        **data,
        "votes": votes(data.get("intent") or {}),
        "domains": domains(data),
        "signal_columns": [*signal_names(signals), "total"],
        "retrieval": recorded or _hits(searched),
        "retrieval_recorded": bool(recorded),
        "escalation_fields": sorted((data.get("escalation") or {}).items()),
        "lessons": list(lessons),
    }
