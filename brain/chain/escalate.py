"""Step 3, escalate: does the message go to on-call, and why (`brain.escalation.decide`).

Decided from the text and the no-LLM intent, before and apart from routing: routing must
honour it (an urgent route is never blocked or turned away, `brain.routing.router`), so it is
an input of the route step, not a conclusion of it. A security event (the taxonomy's class or
the escalation model's page) is also a parameter the incident controller needs: its category
joins the message's entities here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from brain.escalation.decide import SECURITY_CATEGORY, AgreedMove, decide_escalation
from core.records import EscalationRecord

if TYPE_CHECKING:
    from brain.chain.evaluate import Evaluation
    from brain.chain.understand import Understanding
    from brain.escalation.model import EscalationModel


def escalate(
    understood: Understanding, evaluated: Evaluation, model: EscalationModel | None = None
) -> EscalationRecord:
    """The escalation decision of the message (`model`: the learned escalation model, when
    the home has one); a security event's category is added to `evaluated.entities`. An
    organisation lesson (several people's corrections) that moves the message is evidence the
    decision weighs against a page only the model wants (`decide._agreed_against`); one
    person's own lesson is not."""
    preference = evaluated.preference
    agreed = (
        AgreedMove(preference.controller, len(preference.users))
        if preference is not None and preference.scope == "org" and len(preference.users) > 1
        else None
    )
    escalated = decide_escalation(
        understood.scoring_text,
        understood.intent,
        model=model,
        vector=understood.vector,
        agreed=agreed,
    )
    if escalated.security or escalated.kind == "security":
        evaluated.entities.setdefault(SECURITY_CATEGORY[0], [SECURITY_CATEGORY[1]])
    return escalated
