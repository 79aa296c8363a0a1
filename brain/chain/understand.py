"""Step 1, understand: what the message says, before any controller is scored.

Intent, urgency and entities come from the intent recognizer (without the LLM: it is asked
only when the signals leave the decision below the fast path, see `evaluate`). Identifiers the
knowledge base maps to a domain are found here too. A vague message (no keyword, identifier or
entity) is read in the light of the conversation's ongoing work, when there is some: it
inherits that work's identifiers and counts as evidence for its controller.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import numpy as np

from brain.parts import SCORING_TEXT_CAP
from brain.signals.keyword import NO_CONTEXT_GROUPS
from brain.signals.knowledge import id_domains
from core.limits import MAX_MESSAGE_CHARS
from core.records import IntentResult, Message
from core.text.cleaning import clean_text

if TYPE_CHECKING:
    from brain.parts import BrainParts
    from brain.signals.session import SessionEntry

#: Text kept in the decision record; longer messages are cut (and say so).
STORED_TEXT_CAP = MAX_MESSAGE_CHARS
#: How long an earlier decision of the session counts as the ongoing context.
CONTEXT_WINDOW = timedelta(hours=4)
#: Entity kinds a vague follow-up message inherits from the ongoing decision.
CONTEXT_ENTITY_KINDS = ("ticket_id", "asset_tag", "error_code", "host", "service")


def new_decision_id() -> str:
    """Short, unique, URL-safe."""
    return "d-" + secrets.token_hex(6)


@dataclass(slots=True)
class Understanding:
    """Step 1's output: the message as the rest of the chain reads it."""

    decision_id: str
    message: Message
    #: The cleaned text the decision records.
    text: str
    #: The message with the part of the text the signals look at (bounded cost).
    scoring_message: Message
    #: The intent without the LLM (`evaluate` may replace it with the LLM's vote).
    intent: IntentResult
    entities: dict[str, list[str]]
    #: The query embedding, when the dense model is available.
    vector: np.ndarray | None
    #: Identifiers the knowledge base maps to a domain: token -> controller.
    ids: dict[str, str]
    #: The ongoing work a vague message is read as part of: description -> controller.
    context: dict[str, str]
    #: No keyword, identifier, entity or ongoing work: never routed without asking.
    vague: bool
    #: What the memory did to the reading ("context: ..."), for the record.
    notes: list[str] = field(default_factory=list)
    #: `time.perf_counter()` when the message arrived (the decision's latency).
    started: float = 0.0

    @property
    def scoring_text(self) -> str:
        return self.scoring_message.text


def understand(message: Message, parts: BrainParts) -> Understanding:
    """Read one message (raises ValueError for an empty one)."""
    text = clean_text(message.text)
    started = time.perf_counter()
    decision_id = new_decision_id()
    scoring_text = text[:SCORING_TEXT_CAP]
    scoring_message = replace(message, text=scoring_text)

    intent = parts.recognizer.recognize(scoring_message, use_llm=False)
    entities: dict[str, list[str]] = {k: list(v) for k, v in intent.entities.items()}
    embedder = parts.embedder
    vector = embedder.embed_query(scoring_text) if embedder is not None else None
    ids = id_domains(parts.knowledge, scoring_text, entities)
    keyword_hits = parts.keyword_index().match(scoring_text, ids)
    understood = Understanding(
        decision_id=decision_id,
        message=message,
        text=text,
        scoring_message=scoring_message,
        intent=intent,
        entities=entities,
        vector=vector,
        ids=ids,
        context={},
        vague=not keyword_hits.any_keyword() and not ids and not entities,
        started=started,
    )
    # Out-of-scope text ("book a table") has no intent of ours: it gets no context.
    if understood.vague and intent.group not in NO_CONTEXT_GROUPS:
        ongoing = ongoing_context(parts.session_entries(message.session_key))
        if ongoing is not None:
            _inherit(understood, ongoing, parts)
    return understood


def _inherit(understood: Understanding, ongoing: SessionEntry, parts: BrainParts) -> None:
    """Read a vague message as part of the ongoing work: its identifiers and its controller."""
    wins, _ = ongoing.verdicts()
    inherited = {k: v for k, v in ongoing.entities.items() if k in CONTEXT_ENTITY_KINDS and v}
    entities = understood.entities
    for kind, values in inherited.items():
        entities.setdefault(kind, [])
        entities[kind].extend(v for v in values if v not in entities[kind])
    what = ", ".join(v for values in inherited.values() for v in values)
    description = f"the ongoing {wins[-1]} work ({what or ongoing.decision_id})"
    understood.context[description] = wins[-1]
    understood.ids = {**understood.ids, **id_domains(parts.knowledge, "", inherited)}
    understood.notes.append(
        f"context: a vague message read as part of {description} "
        f"from decision {ongoing.decision_id}"
    )
    understood.vague = False


def ongoing_context(entries: Sequence[SessionEntry]) -> SessionEntry | None:
    """The conversation's latest successful decision, when it is recent enough to count."""
    now = datetime.now(UTC)
    for entry in reversed(entries):
        wins, _ = entry.verdicts()
        if not wins:
            continue
        try:
            created = datetime.fromisoformat(entry.created_at)
        except ValueError:
            continue
        if now - created <= CONTEXT_WINDOW:
            return entry
        return None
    return None
