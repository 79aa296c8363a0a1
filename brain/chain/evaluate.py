"""Step 2, evaluate: every registered signal for every controller, and calibrated confidence.

The signals' weighted total is not a probability; the calibrator turns it (with the features
the signals give it) into the probability that routing to that controller is right, for the
TOP_K strongest. When that leaves the decision below the fast path and an LLM is configured,
the LLM now votes on the intent and, when it answered, everything is scored again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from brain.memory.lessons import decision_ids_mentioned
from brain.memory.online_layer import blended
from brain.memory.preference import Preference, find_preference
from brain.routing.calibration import HomeCalibration, rival_margin, top_two
from brain.routing.plan import VIABLE_MIN, Candidate, tier_of
from brain.signals.base import SignalQuery
from brain.signals.keyword import KeywordSignal
from brain.signals.keyword_index import KeywordHits
from brain.signals.knowledge import KnowledgeSignal
from brain.signals.semantic import SemanticSignal, verdict_of
from brain.signals.table import SignalTable
from core.records import IntentResult, Message, SignalScores

if TYPE_CHECKING:
    from brain.chain.understand import Understanding
    from brain.parts import BrainParts

#: Controllers calibrated and considered by routing (the rest are far behind).
TOP_K = 8
#: A semantic probability this high on the message's own text backs a controller (the same
#: floor as a candidate worth offering in a clarification, `brain.routing.router.VIABLE_MIN`).
SUPPORT_MIN = VIABLE_MIN
#: A knowledge-base confirmation at least this strong names the message's scenario.
SCENARIO_MIN = 0.3


@dataclass(slots=True)
class Evaluation:
    """Step 2's output: the final intent, the signals and the ranked candidates."""

    #: The intent the decision goes with (the LLM's vote when it was asked).
    intent: IntentResult
    #: Step 1's entities plus any the LLM found.
    entities: dict[str, list[str]]
    table: SignalTable
    #: The TOP_K strongest controllers, best first by calibrated confidence.
    candidates: list[Candidate]
    #: Controller -> calibrated confidence, for the candidates.
    confidences: dict[str, float]
    #: Controllers whose confidence the LLM alone would have raised (kept at their no-LLM one).
    capped: list[str] = field(default_factory=list)
    #: The knowledge-base entry that best matched the message ("" when none did).
    scenario: str = ""
    #: Where memory says a message like this belongs (the asker's or the organisation's).
    preference: Preference | None = None

    @property
    def top_confidence(self) -> float:
        return self.candidates[0].confidence if self.candidates else 0.0


def evaluate(understood: Understanding, parts: BrainParts) -> Evaluation:
    """Score the message, then recall where memory says it belongs."""
    evaluation = _evaluate(understood, parts)
    evaluation.scenario = scenario_of(evaluation.table)
    memory = parts.settings.memory
    top = confident_choice(evaluation, parts.settings.routing.verify_threshold)
    preference = None
    if memory.online_layer and parts.memory.has_corrections():
        # Calibrated on what came after it, the layer speaks first when it is likelier right.
        preference = online_preference(evaluation, understood, parts)
    if preference is None:
        preference = _lesson(evaluation, understood, parts, top)
    if preference is not None and top is not None and preference.controller in _replays(parts, top):
        preference = None  # an evolved controller learned the same: it replays that controller
    evaluation.preference = preference
    return evaluation


def _lesson(
    evaluation: Evaluation, understood: Understanding, parts: BrainParts, top: str | None
) -> Preference | None:
    """The lessons' preference: the memory's near-copies, else the agreed examples."""
    memory = parts.settings.memory
    preference = find_preference(
        parts.memory,
        understood.scoring_text,
        vector=understood.vector,
        ids=decision_ids_mentioned(evaluation.entities),
        scenario=evaluation.scenario,
        user=understood.message.user,
        names=parts.view.names,
        min_similarity=memory.preference_similarity,
        agreement=memory.agreement_users,
        top=top,
        agreed=agreed_lessons(parts),
        team=understood.message.team,
    )
    if preference is not None and not parts.agreed_examples.trusted(
        preference, understood.scoring_text, vector=understood.vector
    ):
        preference = None  # lessons this alike kept being contradicted by later corrections
    if preference is None and parts.memory.has_examples():
        preference = parts.agreed_examples.preference(
            understood.scoring_text,
            vector=understood.vector,
            user=understood.message.user,
            names=parts.view.names,
            agreement=memory.agreement_users,
            nearest=verdict_of(evaluation.table.reading_of(SemanticSignal)).nearest,
            team=understood.message.team,
        )
    return preference


def online_preference(
    evaluation: Evaluation, understood: Understanding, parts: BrainParts
) -> Preference | None:
    """The online layer's controller (`brain.memory.online_layer`): the first of the model's
    calibrated confidences blended with the vote of the examples the asker sees, when it is
    not the model's own first choice and a correction the asker sees backs it."""
    choice = parts.agreed_examples.online(
        understood.scoring_text,
        vector=understood.vector,
        user=understood.message.user,
        names=parts.view.names,
        team=understood.message.team,
    )
    if choice is None or not evaluation.candidates:
        return None
    scores = blended(evaluation.confidences, choice.reading.shares)
    best = max(sorted(scores), key=lambda name: scores[name])
    first = evaluation.candidates[0].name
    backing = choice.backing(best)
    if best == first or backing is None:
        return None
    lesson, similarity, users = backing
    odds = (scores[best], scores[first])
    return Preference(best, choice.scope(best), lesson, similarity, users, odds)


def signal_scores(evaluation: Evaluation) -> dict[str, SignalScores]:
    """What a decision records of its evaluation: every controller's signals, their total
    and, for the candidates, the calibrated confidence."""
    signals = evaluation.table.as_dict()
    for name, scores in signals.items():
        if name in evaluation.confidences:
            scores.confidence = round(evaluation.confidences[name], 4)
    return signals


def signals_of(message: Message, parts: BrainParts) -> dict[str, SignalScores]:
    """The signals of a turn decided beside the routing (a follow-up the thread's record
    takes), scored as step 2 scores any message but without the LLM or memory: its record
    then shows, like every decision's, what the message itself pointed to."""
    from brain.chain.understand import understand

    understood = understand(message, parts)
    return signal_scores(_score(understood, understood.intent, understood.entities, parts))


def _replays(parts: BrainParts, name: str) -> list[str]:
    """The controllers an evolved controller replays (none for any other)."""
    data = getattr(parts.registry.get(name), "replays", None) or {}
    return [str(step.get("controller")) for step in data.get("steps", [])]


def confident_choice(evaluation: Evaluation, threshold: float) -> str | None:
    """The controller the signals alone would route to with confidence, if any."""
    best = evaluation.candidates[0] if evaluation.candidates else None
    return best.name if best is not None and best.confidence >= threshold else None


def agreed_lessons(parts: BrainParts) -> dict[str, tuple[str, ...]]:
    """The corrections the organisation agreed on -> who agreed (`org_lessons.org_rows`);
    empty when there are no corrections (no look-up on a fresh home)."""
    if not parts.memory.has_corrections():
        return {}
    return {row.memory_id: row.users for row in parts.org_training.rows()}


def scenario_of(table: SignalTable) -> str:
    """The knowledge-base entry that backs the message best (what it is about)."""
    reading = table.reading_of(KnowledgeSignal)
    confirmations = reading.evidence if reading is not None else None
    if not isinstance(confirmations, dict):
        return ""
    best: tuple[float, str] = (0.0, "")
    for confirmation in confirmations.values():
        for hit in getattr(confirmation, "evidence", ()):
            if confirmation.score >= SCENARIO_MIN and hit.score > best[0]:
                best = (float(hit.score), hit.chunk_id or hit.title)
    return best[1]


def _evaluate(understood: Understanding, parts: BrainParts) -> Evaluation:
    """Score the message; ask the LLM only when the first scoring is not a fast path."""
    evaluation = _score(understood, understood.intent, understood.entities, parts)
    llm = parts.llm
    if llm is None:
        return evaluation
    if tier_of(evaluation.top_confidence, parts.settings.routing) == "fast":
        evaluation.intent = replace(evaluation.intent, llm_status="skipped (fast path)")
        return evaluation
    # Not a fast path: now (and only now) ask the LLM, then score again.
    with_llm = parts.recognizer.recognize(understood.scoring_message, use_llm=True)
    entities = understood.entities
    for kind, values in with_llm.entities.items():
        entities.setdefault(kind, [])
        entities[kind].extend(v for v in values if v not in entities[kind])
    if with_llm.llm_status == "ok":
        return llm_as_voter(_score(understood, with_llm, entities, parts), evaluation)
    evaluation.intent = with_llm
    return evaluation


def non_llm_support(table: SignalTable, index: int) -> list[str]:
    """The signals other than the LLM that back controller `index` of a no-LLM scoring: its
    own keywords, identifiers, ongoing work or no-LLM intent, the knowledge base, or a semantic
    probability of at least SUPPORT_MIN on the message's own text."""
    found = []
    keyword = table.reading_of(KeywordSignal)
    hits: KeywordHits | None = keyword.evidence if keyword is not None else None
    if hits is not None and any(
        index in evidence for evidence in (hits.words, hits.ids, hits.context, hits.intents)
    ):
        found.append(KeywordSignal.name)
    if table.has(SemanticSignal) and table.values_of(SemanticSignal)[index] >= SUPPORT_MIN:
        found.append(SemanticSignal.name)
    if table.has(KnowledgeSignal) and table.values_of(KnowledgeSignal)[index] > 0:
        found.append(KnowledgeSignal.name)
    return found


def llm_as_voter(with_llm: Evaluation, without: Evaluation) -> Evaluation:
    """The LLM is a voter, not a ruler: a controller that no other signal backs
    keeps the confidence it had without the LLM, so the LLM's vote alone routes nothing."""
    table = without.table
    position = {name: i for i, name in enumerate(table.names)}
    for candidate in with_llm.candidates:
        index = position.get(candidate.name)
        if index is None or non_llm_support(table, index):
            continue
        before = without.confidences.get(candidate.name, 0.0)
        if candidate.confidence > before:
            candidate.confidence = before
            with_llm.confidences[candidate.name] = before
            with_llm.capped.append(candidate.name)
    with_llm.candidates.sort(key=lambda c: -c.confidence)
    return with_llm


def _score(
    understood: Understanding,
    intent: IntentResult,
    entities: dict[str, list[str]],
    parts: BrainParts,
) -> Evaluation:
    view = parts.view
    query = SignalQuery(
        text=understood.scoring_text,
        message=understood.message,
        intent=intent,
        entities=entities,
        vector=understood.vector,
        controllers=view.controllers,
        names=view.names,
        context=understood.context,
        ids=understood.ids,
    )
    table = parts.signals.score(query, parts)
    candidates, confidences = calibrated_candidates(table, view.labels, parts.calibration)
    return Evaluation(intent, entities, table, candidates, confidences)


def calibrated_candidates(
    table: SignalTable, labels: Mapping[str, str], calibration: HomeCalibration
) -> tuple[list[Candidate], dict[str, float]]:
    """The TOP_K strongest controllers with calibrated confidences, best first (equal
    confidences ranked by the calibrator's underlying score)."""
    totals = top_two(table.total)
    confidences: dict[str, float] = {}
    scores: dict[str, float] = {}
    candidates = []
    for i in table.ranked(TOP_K):
        name = table.names[i]
        total = float(table.total[i])
        features = {**table.calibration_features(i), "margin": rival_margin(total, totals)}
        confidence, scores[name] = calibration.assess(total, features)
        confidences[name] = confidence
        candidates.append(Candidate(name, labels.get(name, name), confidence, total))
    candidates.sort(key=lambda c: (-c.confidence, -scores[c.name]))
    return candidates, confidences
