"""Escalation to on-call: its own decision, apart from routing, from explicit signals only.

Routing asks "which controller?"; escalation asks "must a person be woken up?", and a wrong
answer costs differently (a missed leaked key against a pointless page), so it is decided on its
own evidence and measured on its own (`brain eval`: escalation precision and recall):

- a reported security event (the bilingual taxonomy, `brain.intent.security`): always critical
  (seed 002), and the message goes to the controller the taxonomy's `security_incident` intent
  names (`incident` in the built-in set);
- urgency words, company-wide scope with an impact verb (`brain.intent.urgency`);
- an explicit request for a person or on-call.

The signals are read from the text and from the intent recognized WITHOUT the LLM: the LLM is a
voter, never a ruler, so it can neither page anyone nor raise urgency alone. A question about
security or urgency ("what is our policy on phishing emails?") is a consultation: it never
pages, and a controller's own request for a person does not override that.
"""

from __future__ import annotations

from dataclasses import dataclass

from brain.intent.security import find_security
from brain.intent.taxonomy import intent_group
from brain.intent.urgency import handoff_signal, read_urgency
from core.records import EscalationRecord, IntentResult

__all__ = [
    "SECURITY_CATEGORY",
    "SECURITY_INTENT",
    "UrgentRoute",
    "decide_escalation",
    "urgent_route",
]

#: The intent whose taxonomy group names the controller security incidents go to.
SECURITY_INTENT = "security_incident"
#: The entity a reported security event adds (the incident controller's category).
SECURITY_CATEGORY = ("category", "security")


@dataclass(frozen=True, slots=True)
class UrgentRoute:
    """What routing must honour for an escalated message: never blocked, never turned away,
    and (for a security event) the controller that takes security incidents first."""

    reason: str
    #: Critical urgency: the top plausible controller is routed whatever its dry-run says
    #: (a request for a person alone is escalated but routed as usual).
    critical: bool = False
    preferred: str | None = None


def decide_escalation(text: str, intent: IntentResult) -> EscalationRecord:
    """The escalation decision for `text`; `intent` must be the recognizer's no-LLM intent."""
    finding = find_security(text)
    handoff = handoff_signal(text)
    # The no-LLM intent counts only where the text itself says so: a security incident needs a
    # reported event, a handoff intent its explicit request.
    basis = intent.intent
    if basis == SECURITY_INTENT and (finding is None or finding.kind != "event"):
        basis = "other"
    if basis in ("escalation", "human_handoff") and handoff is None:
        basis = "other"
    if finding is not None and finding.kind == "event":
        basis = SECURITY_INTENT
    reading = read_urgency(text, basis)
    evidence = list(reading.cues)
    security = list(finding.classes) if finding is not None else []
    consultation = finding is not None and finding.kind == "question"
    if finding is not None:
        evidence.insert(0, finding.describe())
    reason: str | None = None
    if handoff is not None:
        reason = "the user asked for a person"
        evidence.append(f"an explicit request ({handoff.replace('_', ' ')})")
    elif reading.level == "critical":
        if basis == SECURITY_INTENT:
            reason = f"critical urgency (security incident: {', '.join(security)})"
        else:
            reason = "critical urgency"
    return EscalationRecord(
        escalate=reason is not None,
        urgency=reading.level,
        reason=reason,
        evidence=evidence,
        security=security if (finding is not None and finding.kind == "event") else [],
        consultation=consultation and reason is None,
    )


def urgent_route(record: EscalationRecord, registered: frozenset[str]) -> UrgentRoute | None:
    """The routing constraint of an escalated message (None when it is not escalated)."""
    if not record.escalate or record.reason is None:
        return None
    preferred = None
    if record.security:
        group = intent_group(SECURITY_INTENT)
        preferred = group if group in registered else None
    return UrgentRoute(record.reason, record.urgency == "critical", preferred)
