"""A question no controller could be chosen for is still answered, or honestly not.

"What is the dress code on Fridays?" or "Is there a shuttle bus from the train station?" end
in a clarification or a fallback: no controller fits them well. They are questions all the
same, and a question is answered from the knowledge base or plainly not answered. After the
decision, the controller that answers questions (the `answers` role, `controllers.roles`) is
asked; its answer verification decides:

- a verified answer: the decision is routed to it (nobody is asked to pick a team for a
  question the knowledge base answers);
- no passage addresses the question: the outcome is a fallback whose result is the answering
  controller's "I have no answer for that in the knowledge base", with the nearest articles,
  their owning team and a hand-off to a person (instead of "outside what I can handle").

A message that asks about an asset tag or host it names ("please check LT-20977") and that
no controller took is looked up by the controller of existing records (the `records` role):
the tickets that name it and the passages that mention it; nothing is created.

This runs when a decision is executed, never in `Brain.decide`, so routing measurements
(`brain eval`, replay) read the router's own outcome. Nothing is filed: the answering
controller files no record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from brain.chain.lookup import asks_about_ticket
from controllers.roles import ANSWERS, RECORDS
from core.records import Decision

if TYPE_CHECKING:
    from brain.chain.execute import ControllerRunner
    from brain.parts import BrainParts


def answer_unplaced(decision: Decision, runner: ControllerRunner, parts: BrainParts) -> bool:
    """Answer an unplaced question (see the module docstring); True when the decision changed
    (its result is then set)."""
    if decision.outcome not in ("fallback", "clarify") or decision.result is not None:
        return False  # placed, or answered while deciding (small talk, the ladder's hook)
    if _looks_up_a_thing(decision):
        return _look_up(decision, runner, parts)
    if decision.request_type != "question":
        return False
    holder = parts.view.holder(ANSWERS)
    if holder is None:
        return False
    result = runner.run(decision, [holder], pipeline=False, primary=holder)
    if result.error:  # the answering controller failed: the router's outcome stands
        return False
    if result.ok:
        decision.controller, decision.supporting = holder, []
        decision.outcome, decision.clarification = "routed", None
        decision.candidates = list(dict.fromkeys([holder, *decision.candidates]))
        decision.tier_path.append(
            f"a question no controller was chosen for: {holder} answers it from a verified "
            "knowledge-base passage"
        )
    elif result.data.get("mode") == "none":
        decision.outcome, decision.clarification = "fallback", None
        decision.tier_path.append(
            f"a question no controller was chosen for: {holder} found no passage that "
            "answers it, so the reply says so, with the nearest articles and who can help"
        )
    else:  # the knowledge base is down: the router's own outcome stands
        return False
    decision.result = result
    return True


def _looks_up_a_thing(decision: Decision) -> bool:
    """Does the message ask about an asset tag or host it names ("please check LT-20977")?"""
    named = any(decision.entities.get(kind) for kind in ("asset_tag", "host"))
    return named and decision.request_type != "problem" and asks_about_ticket(decision.text)


def _look_up(decision: Decision, runner: ControllerRunner, parts: BrainParts) -> bool:
    """The records controller looks the thing up (the records and the knowledge base)."""
    holder = parts.view.holder(RECORDS)
    if holder is None:
        return False
    result = runner.run(decision, [holder], pipeline=False, primary=holder)
    if result.error or result.data.get("action") != "look_up":
        return False
    decision.controller, decision.supporting = holder, []
    decision.outcome, decision.clarification = "routed", None
    decision.request_type = "reference"
    decision.candidates = list(dict.fromkeys([holder, *decision.candidates]))
    decision.tier_path.append(
        f"a named asset or host is looked up by {holder} in the records and the knowledge "
        "base; nothing is created"
    )
    decision.result = result
    return True
