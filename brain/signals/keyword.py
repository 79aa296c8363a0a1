"""Keyword signal (30%): hits of each controller's keywords in the message.

Compiled once per registry version into two dictionaries, so matching costs the same whether
there are 7 or 1,000 controllers:

- ASCII keywords ("vpn", "error rate") are matched on word boundaries: the message is tokenised
  once and its word n-grams are looked up;
- keywords with non-ASCII characters ("连不上", "报错") are matched as substrings (Chinese needs
  no segmenter that way): only positions starting with a first character of such a keyword are
  tried.

Score = 1 - 0.4 ** hits (saturating: 1 hit 0.60, 2 hits 0.84, 3 hits 0.94), where hits counts
distinct keywords plus entity evidence: an identifier that the knowledge base maps to a domain
(`KnowledgeSkill.classify_id`) counts as a strong hit (1.5) for the controller of that domain,
and the step-1 intent adds its confidence as hits for the controller its group names.
"""

from __future__ import annotations

from typing import ClassVar

from brain.signals.base import (
    PartialTotal,
    Signal,
    SignalQuery,
    SignalReading,
    SignalSources,
    quoted,
)
from brain.signals.keyword_index import NO_CONTEXT_GROUPS, NO_INTENT, KeywordHits


class KeywordSignal(Signal):
    """Keywords, identifiers the knowledge base places, the ongoing work and the intent."""

    name: ClassVar[str] = "keyword"
    word: ClassVar[str] = "keywords"
    calibrated: ClassVar[bool] = True
    calibration_order: ClassVar[int] = 20
    telling_order: ClassVar[int] = 10

    def score(
        self, query: SignalQuery, sources: SignalSources, partial: PartialTotal | None
    ) -> SignalReading:
        index = sources.keyword_index()
        intent = query.intent
        hint = None
        if intent.intent not in NO_INTENT and intent.group not in NO_CONTEXT_GROUPS:
            hint = (intent.intent, intent.group, float(intent.confidence))
        hits = index.match(query.text, query.ids, query.context, hint)
        return SignalReading(hits.scores, "ok", hits)

    def reasons(self, reading: SignalReading, index: int, controller: str) -> list[str]:
        hits: KeywordHits = reading.evidence
        reasons: list[str] = []
        words = hits.words.get(index, [])
        if words:
            noun = "keyword" if len(words) == 1 else "keywords"
            reasons.append(f"{noun} {quoted(words)} matched")
        ids = hits.ids.get(index, [])
        if ids:
            reasons.append(f"the knowledge base maps {quoted(ids, 2)} to {controller}")
        if index in hits.intents:
            reasons.append(f"the recognised intent {hits.intents[index]} points here")
        for description in hits.context.get(index, []):
            reasons.append(f"the conversation is about {description}")
        return reasons
