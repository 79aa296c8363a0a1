"""Step 3, escalate: does the message go to on-call, and why (`brain.escalation.decide`).

Decided from the text and the no-LLM intent, before and apart from routing: routing must
honour it (an urgent route is never blocked or turned away, `brain.routing.router`), so it is
an input of the route step, not a conclusion of it. A security event (the taxonomy's class or
the escalation model's page) is also a parameter the incident controller needs: its category
joins the message's entities here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from brain.chain.plea import report_before_plea
from brain.escalation.decide import (
    LIVE_BAR,
    SECURITY_CATEGORY,
    AgreedMove,
    decide_escalation,
)
from controllers.record_actions import named_comment
from core.records import EscalationRecord, IntentResult

if TYPE_CHECKING:
    from brain.chain.evaluate import Evaluation
    from brain.chain.understand import Understanding
    from brain.escalation.model import EscalationModel

__all__ = ["decide_with_report", "escalate"]


def escalate(
    understood: Understanding,
    evaluated: Evaluation,
    model: EscalationModel | None = None,
    embed: Callable[[str], np.ndarray] | None = None,
) -> EscalationRecord:
    """The escalation decision of the message (`model`: the learned escalation model, when
    the home has one); a security event's category is added to `evaluated.entities`. An
    organisation lesson (several people's corrections) that moves the message is evidence the
    decision weighs against a page only the model wants (`decide._agreed_against`); one
    person's own lesson is not. `embed`: the query embedder (a report before a plea is read
    on its own vector, `decide_with_report`)."""
    preference = evaluated.preference
    agreed = (
        AgreedMove(preference.controller, len(preference.users))
        if preference is not None and preference.scope == "org" and len(preference.users) > 1
        else None
    )
    escalated = decide_with_report(
        understood.scoring_text,
        understood.intent,
        model=model,
        vector=understood.vector,
        embed=embed,
        agreed=agreed,
    )
    if escalated.security or escalated.kind == "security":
        evaluated.entities.setdefault(SECURITY_CATEGORY[0], [SECURITY_CATEGORY[1]])
    return escalated


def decide_with_report(
    text: str,
    intent: IntentResult,
    *,
    model: EscalationModel | None = None,
    vector: np.ndarray | None = None,
    embed: Callable[[str], np.ndarray] | None = None,
    agreed: AgreedMove | None = None,
) -> EscalationRecord:
    """The escalation decision of `text`; when it does not page and its last clause is a plea
    for help (`brain.chain.plea`), the report before the plea is read on its own too: a plea
    names nothing of its own, so the security event the rules read in the report pages as it
    would without the plea, which must not make it a question about security (a consultation).
    Only when the message reads as still happening (the live contrast) and as asked while it
    happens (the "asked_now" contrast). `embed`: the query embedder, for the report's vector.

    A comment added to a named ticket is read on what it says: the command around it ("add a
    comment to INC-000001:") is no evidence of an event, and the model read one in it
    ("...: it also happens with the HDMI cable" paged at p 0.88, the comment alone 0.11)."""
    comment = named_comment(text)
    if comment and embed is not None and vector is not None:
        said = decide_with_report(
            comment, intent, model=model, vector=embed(comment), embed=embed, agreed=agreed
        )
        return replace(said, evidence=["read on the comment it adds to a ticket", *said.evidence])
    whole = decide_escalation(text, intent, model=model, vector=vector, agreed=agreed)
    if whole.escalate:
        return whole
    plea = report_before_plea(text)
    if plea is None or model is None:
        return whole
    # The plea changes how the message ends, not when its event happens: the message as a
    # whole must read as still happening, so that a handled or past event followed by a
    # question ("...; it's been sorted. Where do I log it for the audit?") stays a question.
    happening = model.happening(text, vector)
    if happening is None or happening < LIVE_BAR:
        return whole
    own = embed(plea.report) if embed is not None and vector is not None else None
    report = decide_escalation(plea.report, intent, model=model, vector=own, agreed=agreed)
    if not report.escalate:
        return whole
    # Only the security rules' reading is taken from the report: its event, which the plea's
    # closing "?" made a question about security. The escalation model's own page on the
    # report was measured and dropped (it paged look-alikes on the unread splits).
    if not report.security:
        return whole
    # And only a question asked while the event happens (the "asked_now" contrast, fitted on
    # questions asked mid-event beside the same asked in general), as `decide` pages one.
    now = model.asked_now(text, vector)
    if now is None or now < model.now:
        return whole
    why = f"read on the report without its closing plea {plea.plea!r} ({plea.reading})"
    return replace(report, evidence=[why, *report.evidence])
