"""A message that only greets, thanks or says goodbye is answered in kind, not routed.

When no controller was chosen for a message (a fallback, or a question which one) and the
social-act model (`brain.chain.social`) reads it as only social, the outcome is a fallback
whose answer is a short reply in the asker's language: a greeting is greeted with what the
brain can help with (its controllers' labels, so a new controller is named too), thanks are
acknowledged, a goodbye is returned. Nothing is filed, nobody is asked to pick a controller,
the dynamic tier plans nothing and no evolution signal is recorded for "hello".

A route stands whatever the model reads ("hi, my VPN is down" is routed as before), and so
does anything with an identifier, an entity, ongoing work or an escalation.
"""

from __future__ import annotations

from collections.abc import Mapping

from brain.chain import social
from brain.routing.plan import RoutePlan
from core.records import ExecutionResult
from core.wording import wording_for

__all__ = ["MODE", "answer_small_talk", "reply_of"]

#: Who answers, in the result (no controller ran).
ANSWERED_BY = "brain"
#: The result's `data["mode"]`: how surfaces tell small talk from a fallback to show buttons on.
MODE = "small_talk"


def reply_of(act: str, labels: Mapping[str, str], chinese: bool) -> str:
    """The reply to a social message of `act` ("greeting", "thanks", "closing"; the
    `small_talk.*` messages of `core.wording`), in the asker's language."""
    words = wording_for(chinese)
    names = words.say("common.list_separator").join(labels.values())
    return words.say(f"small_talk.{act}", labels=names)


def answer_small_talk(
    plan: RoutePlan,
    text: str,
    *,
    labels: Mapping[str, str],
    chinese: bool,
    anchored: bool,
) -> RoutePlan:
    """The plan, answered as small talk when it placed the message nowhere and the message
    is only social (`anchored`: it names an identifier, entity or ongoing work, or pages)."""
    if plan.outcome not in ("fallback", "clarify") or anchored or plan.answer is not None:
        return plan
    reading = social.read(text)
    if reading is None or not reading.is_social:
        return plan
    plan.outcome, plan.clarification, plan.controller = "fallback", None, None
    plan.supporting, plan.composition = [], None
    plan.answer = ExecutionResult(
        controller=ANSWERED_BY,
        role="primary",
        ok=True,
        summary=reply_of(reading.act, labels, chinese),
        data={"mode": MODE, "act": reading.act},
    )
    plan.tier_path.append(
        f"{reading.describe()}: answered in kind, nothing routed, planned or learned"
    )
    return plan
