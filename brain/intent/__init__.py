"""Step 1, intent recognition: the design's three-way vote plus urgency, entities and a cache.

`IntentRecognizer.recognize` runs the LLM, semantic and keyword recognizers independently,
merges them with `brain.intent.vote.vote`, then judges urgency and extracts entities.

Beyond the seed, explicit cues are checked apart from the vote (`brain.intent.urgency`): a
reported security event always yields ``security_incident`` (so critical urgency) and a question
about security never does; an explicit request for a person or on-call yields ``human_handoff``
or ``escalation``; and those paging intents need their cue or a score of at least 0.5, so a
faint semantic match in the no-LLM fallback cannot page anyone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from brain.intent.cache import IntentCache
from brain.intent.entities import IdFinder, extract_entities
from brain.intent.recognizers import KeywordRecognizer, LLMRecognizer, SemanticRecognizer, Vote
from brain.intent.taxonomy import OTHER, intent_group, spec
from brain.intent.urgency import handoff_signal, security_signal, urgency
from brain.intent.vote import VoteResult, vote
from core.llm import LLMClient
from core.records import IntentResult, Message

__all__ = ["IntentRecognizer"]

#: Recognizers look at this much of a message; entities at a larger prefix.
MAX_RECOGNIZE_CHARS = 4000
MAX_ENTITY_CHARS = 20000
MAX_HISTORY = 5
#: Confidence given to an intent forced by an explicit cue (security event, handoff request).
CUE_CONFIDENCE = 0.8
#: Intents that escalate to on-call (critical security incidents, handoff requests).
PAGING_INTENTS = frozenset({"security_incident", "escalation", "human_handoff"})
#: LLM outcomes worth caching; transient faults (timeout, error, invalid) are retried next time.
_CACHEABLE_STATUS = frozenset({"ok", "skipped", "disabled"})

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _clean(text: str, limit: int) -> str:
    return _CONTROL.sub(" ", text[:limit]).strip()


def _confirm(voted: VoteResult, intent: str, cue: str, scores: dict[str, float]) -> VoteResult:
    """The cue's intent with at least the cue confidence; the deciding source is kept when the
    vote already agreed (so an LLM's reasoning still describes the result)."""
    source = voted.source if voted.intent == intent else cue
    return VoteResult(intent, max(voted.confidence, CUE_CONFIDENCE), source, scores)


class IntentRecognizer:
    """Recognizes intent, urgency and entities of a message (thread-safe)."""

    def __init__(
        self,
        llm: LLMClient | None = None,
        knowledge: IdFinder | None = None,
        *,
        cache_size: int = 1000,
    ) -> None:
        self.llm = llm
        self.knowledge = knowledge
        self.llm_recognizer = LLMRecognizer(llm)
        self.semantic = SemanticRecognizer()
        self.keyword = KeywordRecognizer()
        self.cache = IntentCache(cache_size)

    def recognize(self, message: Message, *, use_llm: bool = True) -> IntentResult:
        """Intent, confidence, urgency and entities of ``message``.

        ``use_llm=False`` skips the LLM (zero calls; ``llm_status`` "skipped") and the vote
        falls back to the semantic and keyword recognizers, as when the LLM fails.
        """
        with_llm = use_llm and self.llm is not None
        key = self.cache.key(message.text, message.history, with_llm)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        result = self._recognize(message, use_llm=use_llm)
        if result.llm_status in _CACHEABLE_STATUS:
            self.cache.put(key, result)
        return result

    def _recognize(self, message: Message, *, use_llm: bool) -> IntentResult:
        text = _clean(message.text, MAX_RECOGNIZE_CHARS)
        entities = extract_entities(_clean(message.text, MAX_ENTITY_CHARS), self.knowledge)
        if not text:
            status = "disabled" if self.llm is None else "skipped"
            return IntentResult(OTHER, 0.0, "The message is empty.", "low", {}, {}, status, "other")

        llm_vote = self._llm_vote(text, message.history, use_llm=use_llm)
        keyword_vote = self.keyword.recognize(text)
        semantic_vote = self.semantic.recognize(text)
        voted = vote(llm_vote, semantic_vote, keyword_vote)
        voted = self._apply_cues(text, voted, keyword_vote, semantic_vote)
        return IntentResult(
            intent=voted.intent,
            confidence=round(voted.confidence, 4),
            description=self._describe(voted, llm_vote),
            urgency=urgency(text, voted.intent),
            entities=entities,
            source_scores=voted.source_scores,
            llm_status=llm_vote.status,
            group=intent_group(voted.intent),
        )

    def _llm_vote(self, text: str, history: Sequence[str], *, use_llm: bool) -> Vote:
        if self.llm is None:
            return Vote(OTHER, 0.0, failed=True, status="disabled")
        if not use_llm:
            return Vote(OTHER, 0.0, failed=True, status="skipped")
        recent = [_clean(item, 1000) for item in history[-MAX_HISTORY:]]
        return self.llm_recognizer.recognize(text, [item for item in recent if item])

    @staticmethod
    def _apply_cues(
        text: str, voted: VoteResult, keyword_vote: Vote, semantic_vote: Vote
    ) -> VoteResult:
        """Explicit cues override the vote: a request for a person or on-call is handoff or
        escalation; a reported security event is an incident, a question about one is not.

        Intents that page on-call (security_incident, escalation, human_handoff) are kept only
        with their cue, or at 0.5 or more with a non-LLM recognizer voting for them: the design's
        fallback returns even a faint semantic match as is, an LLM answering
        "security_incident" 1.0 is one voter, and neither may wake anyone up alone.
        """
        scores = dict(voted.source_scores)
        handoff = handoff_signal(text)
        if handoff:
            scores["handoff_cue"] = 1.0
            voted = _confirm(voted, handoff, "handoff_cue", scores)
        signal = security_signal(text)
        if signal == "event":
            scores["security_cue"] = 1.0
            return _confirm(voted, "security_incident", "security_cue", scores)
        if signal == "question" and voted.intent == "security_incident":
            scores["security_question"] = 1.0
            return VoteResult("how_to", voted.confidence, "security_question", scores)
        cued = handoff is not None or signal is not None
        backed = any(
            v.intent == voted.intent and v.confidence >= 0.5 for v in (keyword_vote, semantic_vote)
        )
        if voted.intent in PAGING_INTENTS and not cued and (voted.confidence < 0.5 or not backed):
            # The LLM is a voter, not a ruler: its vote alone never yields a paging intent.
            scores["weak_paging_intent"] = voted.confidence
            if keyword_vote.intent not in PAGING_INTENTS | {OTHER} and keyword_vote.confidence:
                return VoteResult(keyword_vote.intent, keyword_vote.confidence, "keyword", scores)
            return VoteResult(OTHER, voted.confidence, "vote", scores)
        return voted

    @staticmethod
    def _describe(voted: VoteResult, llm_vote: Vote) -> str:
        """One sentence saying what the user wants and which recognizer decided."""
        if voted.intent == OTHER:
            return f"No intent is clear enough (best score {voted.confidence:.2f})."
        if voted.source == "llm" and llm_vote.reasoning:
            return llm_vote.reasoning
        description = spec(voted.intent).description.rstrip(".")
        by = {
            "semantic": "similar example messages",
            "keyword": "keywords",
            "vote": "the combined vote",
            "security_cue": "a reported security event",
            "security_question": "a question about security policy",
            "handoff_cue": "an explicit request for a person or on-call",
        }.get(voted.source, f"the {voted.source} recognizer")
        return f"{description} (judged from {by})."
