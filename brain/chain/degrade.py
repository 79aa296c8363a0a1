"""Degradation that tells the truth: a controller that fails is not a success.

When the chosen controller fails (it raised, timed out, its webhook is down: the result's
`error`), the decision's outcome becomes "failed" (never "routed" at 0.95) and the message is
handed to a person with the reason; no other controller stands in for it. Every step is written
into the tier path and the rationale.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.records import Decision
from core.wording import wording_for

if TYPE_CHECKING:
    from brain.chain.execute import ControllerRunner
    from brain.parts import BrainParts


def degrade(decision: Decision, runner: ControllerRunner, parts: BrainParts) -> None:
    """When the primary controller failed: mark the decision failed and hand it to a person.

    Another controller never stands in: one that scored lower on this message is, by its
    scores, about something else ("my salary was not paid" is no password reset), so the
    message goes to a person with the reason, and the reply says so in the asker's language."""
    result = decision.result
    if result is None or not result.error or decision.controller is None:
        return
    failed = decision.controller
    decision.outcome = "failed"
    decision.tier_path.append(f"failed: {failed} could not do its work ({result.error})")
    decision.tier_path.append("fallback: a person (no other controller stands in)")
    decision.rationale += f" {failed} failed ({result.error}); handed to a person."
    chinese = decision.in_chinese
    label = (parts.view.labels_zh if chinese else parts.view.labels).get(failed, failed)
    result.data = {**result.data, "hand_off": True, "reason": result.error}
    words = wording_for(chinese)
    help_ = words.say("chain.human_help")
    result.summary = words.say("chain.unavailable", label=label, error=result.error, help=help_)
