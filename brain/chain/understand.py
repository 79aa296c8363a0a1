"""Step 1, understand: what the message says, before any controller is scored.

Intent, urgency and entities come from the intent recognizer (without the LLM: it is asked
only when the signals leave the decision below the fast path, see `evaluate`). Identifiers the
knowledge base maps to a domain are found here too. A vague message (no keyword, identifier or
entity) is read in the light of the conversation's ongoing work only with evidence that it
refers to it: a pronoun or elliptical follow-up ("it's stuck again", "还是不行"), an
entity it shares, a short reply to a question the bot asked, or a meaning close to the ongoing
topic. It then inherits that work's identifiers and counts as evidence for its controller, and
the notes say why; a self-contained message on a new topic is decided on its own.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import numpy as np

from brain.parts import SCORING_TEXT_CAP
from brain.signals.keyword_index import NO_CONTEXT_GROUPS
from brain.signals.knowledge import id_domains
from core.cues import cues
from core.limits import MAX_MESSAGE_CHARS
from core.logs import bind
from core.records import IntentResult, Message
from core.text.cleaning import clean_text
from core.text.language import turn_is_chinese

if TYPE_CHECKING:
    from brain.parts import BrainParts
    from brain.signals.session_cache import SessionEntry

#: Text kept in the decision record; longer messages are cut (and say so).
STORED_TEXT_CAP = MAX_MESSAGE_CHARS
#: How long an earlier decision of the session counts as the ongoing context.
CONTEXT_WINDOW = timedelta(hours=4)
#: Entity kinds a vague follow-up message inherits from the ongoing decision.
CONTEXT_ENTITY_KINDS = ("ticket_id", "asset_tag", "error_code", "host", "service")
#: Spans of time a demonstrative can name without pointing back at anything said ("this
#: week", "that morning", "这个月"): a change "for this week" is new work, not "this" problem.
PERIODS = "morning|afternoon|evening|night|week|weekend|month|quarter|year|sprint|" + (
    "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
)
#: Words that refer back to something said before (pronouns, "again", "still", 还是, 又...).
REFERRING = re.compile(
    r"\b(it|its|it's|(this|that|these|those)(?!\s+(?:" + PERIODS + r")\b)|they|them|"
    r"same|again|still|anymore|either|the (issue|problem|error|ticket|request|one))\b|"
    + cues(__name__).regex("referring_zh"),
    re.IGNORECASE,
)
#: A reply this short (words, or CJK characters / 2) answers the question the bot just asked.
SHORT_REPLY = 4
#: A follow-up this short may refer back even when it reads as small talk ("还是不行").
ELLIPTICAL = 8
#: Embedding cosine to the ongoing message above which a message is about the same topic.
SAME_TOPIC = 0.6


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
    def in_chinese(self) -> bool:
        """Are replies about this message in Chinese? The conversation's rule for a turn
        (`turn_is_chinese`: a bare "ok" or name in a Chinese thread, "还是 not working"), so the
        chain's questions, the controllers' replies and the conversation's lines around them
        are in one language; routing reads the text itself."""
        return turn_is_chinese(self.text, self.message.history)

    @property
    def scoring_text(self) -> str:
        return self.scoring_message.text


def understand(message: Message, parts: BrainParts) -> Understanding:
    """Read one message (raises ValueError for an empty one)."""
    text = clean_text(message.text)
    started = time.perf_counter()
    decision_id = new_decision_id()
    bind(decision_id=decision_id)  # the rest of this decision's log lines carry it
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
    if understood.vague and not message.new_topic:
        ongoing = ongoing_context(parts.session_entries(message.session_key))
        if ongoing is not None:
            why = reference_evidence(understood, ongoing, parts)
            # Out-of-scope text ("book a table") gets no context unless it clearly refers back.
            small_talk = intent.group in NO_CONTEXT_GROUPS
            if why and (not small_talk or why.startswith("it refers back")):
                _inherit(understood, ongoing, parts, why)
            elif not why:
                understood.notes.append(
                    "context: not used; the message does not refer to the ongoing "
                    f"{ongoing.verdicts()[0][-1]} work (decided on its own)"
                )
    return understood


def _size(text: str) -> int:
    """Words, counting two CJK characters as one."""
    cjk = len(re.findall(r"[\u3400-\u9fff]", text))
    return len(re.findall(r"[A-Za-z0-9]+", text)) + (cjk + 1) // 2


def reference_evidence(understood: Understanding, ongoing: SessionEntry, parts: BrainParts) -> str:
    """Why the message refers to the ongoing work, in words; "" when nothing says it does."""
    text = understood.text
    size = _size(text)
    if REFERRING.search(text) and size <= ELLIPTICAL:
        return "it refers back (a pronoun or elliptical follow-up)"
    shared = {value.upper() for values in understood.entities.values() for value in values} & {
        value.upper() for values in ongoing.entities.values() for value in values
    }
    if shared:
        return f"it names {', '.join(sorted(shared))} of the ongoing work"
    if ongoing.asked and size <= SHORT_REPLY:
        return "it is a short reply to the question the bot asked"
    embedder = parts.embedder
    if understood.vector is not None and embedder is not None and ongoing.text:
        cosine = float(np.dot(understood.vector, embedder.embed_query(ongoing.text)))
        if cosine >= SAME_TOPIC:
            return f"it is about the same topic (similarity {cosine:.2f})"
    return ""


def _inherit(understood: Understanding, ongoing: SessionEntry, parts: BrainParts, why: str) -> None:
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
        f"from decision {ongoing.decision_id}, because {why}"
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
