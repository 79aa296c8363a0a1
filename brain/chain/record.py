"""Step 5, record: the typed `Decision`, with its rationale, written to the decision log.

The record holds everything behind the decision (signals of every strong controller with the
calibrated confidence of the candidates, the tier path, dry-runs, memory notes), so it can be
printed, explained (`brain why`) and replayed without the models.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from brain.chain.evaluate import Evaluation, signal_scores
from brain.decisions.rationale import build_rationale
from core.records import Decision, DecisionPart, IntentResult
from core.text.language import is_chinese

if TYPE_CHECKING:
    from brain.chain.route import Routing
    from brain.chain.understand import Understanding
    from brain.decisions.log import DecisionLog
    from core.llm import LLMClient


def record(
    understood: Understanding,
    evaluated: Evaluation,
    routed: Routing,
    *,
    labels: Mapping[str, str],
    llm: LLMClient | None,
    llm_calls: int,
    log: DecisionLog,
    parts: Sequence[DecisionPart] = (),
) -> Decision:
    """Build the decision and append it to the log (the caller holds the stores' lock)."""
    message, plan, intent = understood.message, routed.plan, evaluated.intent
    signals = signal_scores(evaluated)
    decision = Decision(
        decision_id=understood.decision_id,
        text=understood.text,
        user=message.user,
        channel=message.channel,
        thread=message.thread,
        team=message.team,
        controller=plan.controller,
        supporting=plan.supporting,
        confidence=round(plan.confidence, 4),
        tier=plan.tier,
        outcome=plan.outcome,
        escalate=routed.escalation is not None,
        # The escalation decision's urgency: from explicit signals, never raised by the LLM.
        urgency=routed.escalated.urgency,
        intent=intent,
        entities=evaluated.entities,
        signals=signals,
        rationale=build_rationale(
            plan,
            evaluated.table,
            labels=labels,
            escalation=_escalation_words(routed),
            notes=routed.notes[:1] if understood.context else (),
        ),
        candidates=plan.candidates,
        composition=plan.composition,
        dry_runs=plan.dry_runs,
        tier_path=plan.tier_path,
        clarification=plan.clarification,
        follow_up=plan.follow_up,
        escalation=routed.escalated,
        memory_influences=routed.notes,
        scenario=evaluated.scenario,
        preference=plan.preference,
        llm_calls=llm_calls,
        llm_status=_llm_status(llm, intent),
        latency_ms=round((time.perf_counter() - understood.started) * 1000, 2),
        created_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
        parts=list(parts),
        plan=plan.execution,
        dcr=plan.dcr,
        result=plan.answer,
        request_type=routed.request_type,
        plan_rules=list(routed.plan_rules),
        language=_asker_language(understood),
    )
    if plan.dcr is not None and decision.result is not None:
        decision.result.dcr_rounds = plan.dcr.summaries()
    log.append(decision)
    return decision


def _asker_language(understood: Understanding) -> str:
    """The language replies about the decision are in (`Understanding.in_chinese`), where the
    text alone reads another, so the controller's reply is in the language of the chain's and
    the conversation's lines; "" where the text alone reads the same (`Decision.in_chinese`
    reads it then, and stored decisions stay as they were)."""
    chinese = understood.in_chinese
    if chinese == is_chinese(understood.text):
        return ""
    return "zh" if chinese else "en"


def _escalation_words(routed: Routing) -> str | None:
    """The escalation reason and its explicit evidence, for the rationale."""
    if routed.escalation is None:
        return None
    evidence = routed.escalated.evidence
    return routed.escalation + (f" ({'; '.join(evidence)})" if evidence else "")


def _llm_status(llm: LLMClient | None, intent: IntentResult) -> str:
    if llm is None:
        return "disabled (no API key)"
    return intent.llm_status
