"""Escalation to on-call: its own decision, apart from routing.

Routing asks "which controller?"; escalation asks "must a person be woken up?", and a wrong
answer costs differently (a missed leaked key against a pointless page), so it is decided on its
own evidence and measured on its own (`brain eval`, `benchmarks/escalation.py`):

- the service-desk priority (`brain.escalation.priority`): impact x urgency -> P1..P4, with the
  spans that decided it; only P1 pages, P2 notifies the owning team where one is configured;
- the escalation model (`brain.escalation.model`): a calibrated classifier over the embedding,
  character n-grams and the rule features, which makes the P1 call;
- rules that force a page and say so: a reported security event (the bilingual taxonomy,
  `brain.intent.security`: always P1) and an explicit request for a person (handed
  to one at once, never asked back); rules that veto one: a question about security (a
  consultation) and an alert that says it is resolved or inactive.

The signals are read from the text only (and the intent recognized WITHOUT the LLM): the LLM
is a voter, never a ruler, so it can neither page anyone nor raise urgency alone. The message
is data: no wording in it can switch a rule on except by describing the event itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from brain.escalation import model, priority
from brain.escalation.features import signals_of, wide
from brain.escalation.model import EscalationModel
from brain.escalation.page_kind import security_event
from brain.intent import security
from brain.intent.taxonomy import intent_group
from core.records import EscalationRecord, IntentResult, Urgency
from core.text.kept import Cleared

__all__ = [
    "OUTAGE_CONTROLLER",
    "SECURITY_CATEGORY",
    "SECURITY_INTENT",
    "AgreedMove",
    "UrgentRoute",
    "decide_escalation",
    "urgent_route",
]

#: The readings of one message that functools keeps in a process, emptied when a person is
#: forgotten (`core.text.kept`). Registered here: their modules' code is hashed into the shipped
#: escalation model's key, so a change there would make every home fit that model again.
_KEPT = tuple(
    Cleared(reading)
    for reading in (security.find_security, priority.assess, model._multilingual_vector)
)

#: The intent whose taxonomy group names the controller security incidents go to.
SECURITY_INTENT = "security_incident"
#: The entity a reported security event adds (the incident controller's category).
SECURITY_CATEGORY = ("category", "security")
#: The controller a P1 outage goes to when no controller fits it.
OUTAGE_CONTROLLER = "incident"
#: Below P2 the model pages alone only at this calibrated probability (more likely than not).
SURE = 0.9
#: A question pages only when the model is this sure (calibrated) and the live contrast reads
#: it as happening at least at LIVE_BAR: fixed, so that a refit moves probabilities, not bars.
QUESTION_BAR = 0.9
LIVE_BAR = 0.5
#: A question also pages where the model would page a statement (its `alone` bar) when the
#: "asked_now" contrast, fitted on questions asked mid-event beside the same asked in general,
#: reads it as asked while it happens at its bar (`EscalationModel.now`).
#: Under this the live contrast reads an event as handled or past, and a page the security
#: rules force does not stand unless the escalation model is sure: lower than LIVE_BAR, since
#: the contrast still reads many a live event told in the past tense ("I clicked the link and
#: typed my password") at 0.35-0.45, and a missed page costs more than a pointless one.
HANDLED_BAR = 0.3
#: Under this the escalation model is far from paging: the live-event model's veto of a
#: forced page then stands alone.
FAR = 0.2
_ASKING_NOW = "asked while it happens: p(page) and the live contrast over their fixed bars"
#: The seed-002 urgency level each priority reads as.
URGENCY_OF: dict[str, Urgency] = {"P1": "critical", "P2": "high", "P3": "medium", "P4": "low"}


@dataclass(frozen=True, slots=True)
class AgreedMove:
    """An organisation lesson: several people moved messages like this one to `controller`
    (`brain.memory`: an agreed preference). Where only the escalation model wants a page, it
    is evidence that people read such a message as a request, not a live event."""

    controller: str
    people: int


@dataclass(frozen=True, slots=True)
class UrgentRoute:
    """What routing must honour for an escalated message: never blocked, never turned away,
    never asked back (a hand-off), and which controller takes it first."""

    reason: str
    #: P1: the top plausible controller is routed whatever its dry-run says.
    critical: bool = False
    preferred: str | None = None
    #: Where a P1 that no controller fits goes (`OUTAGE_CONTROLLER` or the config's).
    outage: str | None = None
    #: A person was asked for: no clarification question, a hand-off note instead.
    handoff: bool = False


def decide_escalation(
    text: str,
    intent: IntentResult,
    *,
    model: EscalationModel | None = None,
    vector: np.ndarray | None = None,
    agreed: AgreedMove | None = None,
) -> EscalationRecord:
    """The escalation decision for `text`; `intent` must be the recognizer's no-LLM intent;
    `agreed`: the organisation lesson that moves messages like it, if any (`_agreed_against`)."""
    signals = signals_of(text)
    assessment = signals.assessment
    priority = assessment.priority
    evidence = [f"priority {assessment.describe()}"]
    if signals.security_cue:
        evidence.insert(0, signals.security_cue)
    # What set the priority when it is not the matrix's (the evidence then says so).
    by = "the matrix"
    probability = model.probability(text, vector) if model is not None else None
    if probability is not None and model is not None:
        evidence.append(
            f"escalation model: p(page) = {probability:.2f} (threshold {model.threshold:.2f})"
        )
    reason: str | None = None
    kind: str | None = None
    asking_now = _asking_now(text, model, vector, probability)
    security = list(signals.security_classes) if signals.security == "event" else []
    if signals.handoff == "human_handoff":
        reason, kind = "the user asked for a person: handed to one", "handoff"
        evidence.append("rule (force): an explicit request for a person")
    # The rules name the topic; the live-event model judges whether it is happening (a
    # finished incident, a drill, a handled past event worded like a live one is not).
    live_p = model.live(text, vector) if model is not None else None
    unconfirmed = live_p is not None and model is not None and live_p < model.veto
    if unconfirmed and model is not None:
        evidence.append(f"live-event model: p(live) = {live_p:.2f} (veto under {model.veto:.2f})")
    # The veto needs both models against the page: the escalation model, which reads the
    # rules too, may still be sure (a credential typed in "this morning" is past tense and live).
    sure = probability is not None and model is not None and probability >= model.alone
    # The live contrast reads a handled or past event ("last week ..., IT already checked"):
    # unless the escalation model is SURE, neither the security rules' page nor its own stands.
    happening = model.happening(text, vector) if model is not None else None
    handled = (
        happening is not None
        and happening < HANDLED_BAR
        and (probability is None or probability < SURE)
    )
    if handled and security:
        evidence.append(f"live contrast: p(happening) = {happening:.2f} (under {HANDLED_BAR})")
    # The live-event model, fitted on the topics, reads many a live event told in the past
    # tense as over ("this morning I followed the link and signed in", p(live) 0.01): where
    # the contrast reads the tense, the live-event model alone vetoes only a page the
    # escalation model is far from (a phishing test's question), not one it half believes.
    far = probability is None or probability < FAR
    against = handled or (unconfirmed and (happening is None or far) and not sure)
    if security and not signals.security_held and against:
        priority, by = "P2", "the live contrast" if handled else "the live-event model"
        evidence.append(f"{by} does not confirm the security event: P2, no page")
    elif security and not signals.security_held:
        priority, kind, by = "P1", "security", "the security rules"
        reason = f"P1 security incident ({', '.join(security)})"
        evidence.append("rule (force): a reported security event is P1 whatever its wording")
    elif security and reason is None:
        # A security report the rules do not force: the owning team's (P2), or P3 when over;
        # the escalation model may still page it. A live report is no less evidence than a
        # statement the rules say nothing about, so its bar is no higher; one that says it is
        # over or handled needs the model to be sure.
        over = "over" in signals.security_held
        floor = "P3" if over else "P2"
        priority = max(min(priority, floor), "P2")  # never P1 without the page
        by = "the security rules"
        evidence.append(f"rule: a security report not forced to P1 ({signals.security_held})")
        bar = SURE if over else model.alone if model is not None else SURE
        if handled:
            evidence.append(f"the live contrast reads it as over: p(happening) = {happening:.2f}")
        elif model is not None and probability is not None and probability >= bar:
            priority, kind, by = "P1", "security", "the escalation model"
            reason = f"P1 security incident ({', '.join(security)}; the escalation model)"
    elif signals.security == "question" and asking_now:
        priority, kind, by = "P1", "security", "the escalation model"
        reason = "P1 security incident (asked while it happens; the escalation model)"
        evidence.append(_ASKING_NOW)
    elif signals.security == "question":
        evidence.append("rule (veto): a question about security is a consultation")
    elif assessment.resolved or assessment.not_live or assessment.count_question:
        priority = "P4" if priority == "P1" else priority
        by = "the resolved or no-live-event veto"
        evidence.append(
            "rule (veto): the alert says it is resolved or inactive"
            if assessment.resolved
            else "rule (veto): no live event (a drill, planned work, a past or hypothetical "
            "one, a question for a count or a fact)"
        )
    elif reason is None:
        # The model makes the P1 call among messages the matrix puts at P1, or at P2 with many
        # affected by a live failure (never one floor or team): words alone never reach it.
        pages = priority == "P1"
        live = assessment.state in ("degraded", "down")
        if model is not None and probability is not None:
            # Elsewhere the model pages alone only when it is sure (calibrated). Events the
            # matrix cannot read (a caller asking for a code now, customer data mailed out, a
            # mailbox sending forged payment changes, a whole company's mail in Chinese) are
            # the model's to recognise from its training families; a question never pages
            # (a consultation, as a question about security is).
            bar = model.threshold if wide(assessment) else model.failing if live else model.alone
            pages = probability >= bar and (
                live or wide(assessment) or not _asked(text) or asking_now
            )
        if pages and unconfirmed and wide(assessment):
            pages = False
            evidence.append("the live-event model reads no live event: no page")
        elif pages and handled and not wide(assessment):
            pages = False
            evidence.append(f"the live contrast reads it as over: p(happening) = {happening:.2f}")
        alone = not (live or wide(assessment) or assessment.impact in ("many", "all"))
        if pages and alone and agreed is not None:
            pages = not _agreed_against(agreed, probability, asking_now, evidence)
        if pages:
            # Paged by the model alone, with no failure the matrix reads and no one beyond the
            # writer affected: what it recognised is a security event unless the page kind
            # model reads a failure the matrix missed ("公司邮箱整个都收不到外部邮件了").
            failure = alone and security_event(text) is False
            event = model is not None and alone and not failure
            priority, kind, by = "P1", "security" if event else "outage", "the escalation model"
            if event:
                reason = "P1 (the escalation model recognises a live security event)"
            elif failure:
                reason = "P1 (the escalation model recognises a live failure)"
                evidence.append("page kind model: a failure, not a security event")
            else:
                state = assessment.state.replace("_", " ")
                reason = f"P1 ({assessment.impact} affected, {state})"
        elif priority == "P1":
            priority, by = "P2", "the escalation model"
            evidence.append("the escalation model does not confirm P1: P2, no page")
    if priority != assessment.priority:
        # One verdict, not two side by side: the priority, what set it, and the matrix's it
        # overrode ("P1 (the escalation model), not the matrix's P4 (impact individual ...)").
        matrix = evidence.index(f"priority {assessment.describe()}")
        evidence[matrix] = f"priority {priority} ({by}), not the matrix's {assessment.describe()}"
    level = URGENCY_OF[priority]
    # A request to escalate ("page on-call") is urgency, like "urgent": it never pages alone.
    if level in ("low", "medium") and (signals.handoff or assessment.state == "soon"):
        level = "high"
    elif level == "low" and intent.intent == "complaint":
        level = "medium"
    return EscalationRecord(
        escalate=reason is not None,
        urgency=level,
        reason=reason,
        evidence=evidence,
        security=security,
        consultation=signals.security == "question" and reason is None,
        priority=priority,
        impact=assessment.impact,
        urgency_level=assessment.state,
        spans=list(assessment.spans),
        kind=kind,
        probability=None if probability is None else round(probability, 4),
    )


def _asking_now(
    text: str, model: EscalationModel | None, vector: np.ndarray | None, probability: float | None
) -> bool:
    """Whether a question is asked while its event happens ("he's still on the line, is this
    legit?"): the model is sure it must page and the live contrast reads it as happening, or it
    would page a statement and the "asked_now" contrast reads it as asked mid-event. A
    question is otherwise a consultation and pages no one."""
    if model is None or probability is None:
        return False
    if probability >= model.alone:
        now = model.asked_now(text, vector)
        if now is not None and now >= model.now:
            return True
    if probability < QUESTION_BAR:
        return False
    happening = model.happening(text, vector)
    return happening is not None and happening >= LIVE_BAR


def _agreed_against(
    agreed: AgreedMove, probability: float | None, now: bool, evidence: list[str]
) -> bool:
    """Whether people's agreed lesson stands against a page only the escalation model wants
    (no rule forces it, the matrix reads no failure and no one beyond the writer): the lesson
    moves the message to a controller incidents do not go to, the model is not sure (under
    `SURE`) and the "asked_now" contrast does not read it as happening now (`now`). A lesson
    never holds back a page the rules or a failure the matrix reads call for, nor one the
    model is sure of or reads as happening, so that a few people's corrections cannot silence
    a live event."""
    incident = agreed.controller in (OUTAGE_CONTROLLER, intent_group(SECURITY_INTENT))
    who = f"{agreed.people} people moved messages like this to {agreed.controller}"
    if incident:
        return False
    if probability is None or probability >= SURE:
        evidence.append(f"{who}, but the escalation model is sure (p >= {SURE}): it pages")
        return False
    if now:
        evidence.append(f"{who}, but it reads as happening now: it pages")
        return False
    evidence.append(f"{who}: the escalation model alone (p under {SURE}) does not page")
    return True


def _asked(text: str) -> bool:
    """The message ends as a question mark: it asks, it reports nothing."""
    return text.rstrip().endswith(security.QUESTION_ENDS)


def urgent_route(
    record: EscalationRecord, registered: frozenset[str], outage: str = OUTAGE_CONTROLLER
) -> UrgentRoute | None:
    """The routing constraint of an escalated message (None when it is not escalated)."""
    if not record.escalate or record.reason is None:
        return None
    preferred = None
    # A security event, whether the taxonomy named its class or the model recognised it.
    if record.security or record.kind == "security":
        group = intent_group(SECURITY_INTENT)
        preferred = group if group in registered else None
    critical = record.priority == "P1"
    return UrgentRoute(
        record.reason,
        critical=critical,
        preferred=preferred,
        outage=outage if critical and outage in registered else None,
        handoff=record.kind == "handoff",
    )
