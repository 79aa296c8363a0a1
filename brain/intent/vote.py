"""Seed 002's weighted vote of the three recognizers, with its fallback and refinement rules.

- Each recognizer adds weight x confidence to the intent it votes for (LLM 0.7, semantic 0.2,
  keyword 0.1); the intent with the highest sum wins. 0.9 / 0.6 / 0.8 on one intent -> 0.83.
- LLM failed: no weighting; the semantic result if it is not OTHER and above 0, else the keyword
  result likewise, else OTHER with 0.0.
- Fine-grained refinement: a broad winner below 0.8 is replaced by the keyword recognizer's
  fine-grained intent when that has confidence >= 0.5 (marked ``refined_by_pattern``).
- A winner below 0.5 becomes OTHER (keeping its score).

The score is a routing score, not a calibrated probability (the design says so too).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from brain.intent.recognizers import Vote
from brain.intent.taxonomy import GENERIC_INTENTS, OTHER, SPECIFIC_INTENTS

__all__ = ["CONFIDENCE_THRESHOLD", "WEIGHTS", "VoteResult", "vote"]

WEIGHTS = {"llm": 0.70, "semantic": 0.20, "keyword": 0.10}
CONFIDENCE_THRESHOLD = 0.5
REFINE_MIN_PATTERN = 0.5
REFINE_MAX_BEST = 0.8


@dataclass(frozen=True, slots=True)
class VoteResult:
    """The voted intent, its score, the source that decided and every raw source score."""

    intent: str
    confidence: float
    source: str
    source_scores: dict[str, float] = field(default_factory=dict)


def vote(llm: Vote, semantic: Vote, keyword: Vote) -> VoteResult:
    """Merge the three recognizers exactly as the design's ``IntentRecognizer.vote`` does."""
    scores_by_source = {
        "llm": llm.confidence,
        "semantic": semantic.confidence,
        "keyword": keyword.confidence,
    }
    if llm.failed:
        for name, result in (("semantic", semantic), ("keyword", keyword)):
            if result.intent != OTHER and result.confidence > 0:
                return VoteResult(result.intent, result.confidence, name, scores_by_source)
        return VoteResult(OTHER, 0.0, "none", scores_by_source)

    totals: dict[str, float] = {}
    contributions: dict[str, dict[str, float]] = {}
    for name, result in (("llm", llm), ("semantic", semantic), ("keyword", keyword)):
        share = WEIGHTS[name] * result.confidence
        totals[result.intent] = totals.get(result.intent, 0.0) + share
        contributions.setdefault(result.intent, {})[name] = share
    # Ties go to the intent the strongest-weighted source voted for (insertion order: llm first).
    best_intent = max(totals, key=lambda intent: totals[intent])
    best_score = round(totals[best_intent], 6)
    best_source = max(contributions[best_intent], key=lambda s: contributions[best_intent][s])

    if (
        best_intent in GENERIC_INTENTS
        and keyword.intent in SPECIFIC_INTENTS
        and keyword.confidence >= REFINE_MIN_PATTERN
        and best_score < REFINE_MAX_BEST
    ):
        scores_by_source["refined_by_pattern"] = keyword.confidence
        return VoteResult(
            keyword.intent, max(best_score, keyword.confidence), "keyword", scores_by_source
        )
    if best_score < CONFIDENCE_THRESHOLD:
        return VoteResult(OTHER, best_score, "vote", scores_by_source)
    return VoteResult(best_intent, best_score, best_source, scores_by_source)
