"""Degradation that tells the truth (seed 002): a controller that fails is not a success.

When the chosen controller fails (it raised, timed out, its webhook is down: the result's
`error`), the decision's outcome becomes "failed" (never "routed" at 0.95), the next plausible
controller of the shortlist whose dry-run passes takes the message, and when none can, the reply
says so and points to a person. Every step is written into the tier path and the rationale.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from brain.routing.plan import VIABLE_MIN
from core.records import Decision, ExecutionPart, ExecutionResult, Message

if TYPE_CHECKING:
    from brain.chain.execute import ControllerRunner
    from brain.parts import BrainParts

log = logging.getLogger(__name__)

HUMAN_HELP = (
    "I could not complete this automatically; please ask a person at the IT service desk "
    "(or reply here and someone will pick it up)."
)
HUMAN_HELP_ZH = "我没能自动完成这个请求，请联系 IT 服务台的同事（或在此回复，会有人跟进）。"


def degrade(decision: Decision, runner: ControllerRunner, parts: BrainParts) -> None:
    """When the primary controller failed: mark the decision failed and fall back."""
    result = decision.result
    if result is None or not result.error or decision.controller is None:
        return
    failed = decision.controller
    decision.outcome = "failed"
    note = f"failed: {failed} could not do its work ({result.error})"
    decision.tier_path.append(note)
    tried = {failed, *decision.supporting}
    for name in decision.candidates:
        if name in tried or name not in parts.view.names:
            continue
        scores = decision.signals.get(name)
        if scores is None or (scores.confidence or 0.0) < VIABLE_MIN:
            continue  # not a plausible home for the message: a person is better
        tried.add(name)
        if not _dry_run_passes(decision, name, runner, parts):
            decision.tier_path.append(f"fallback: {name}'s dry-run did not pass")
            continue
        backup = runner.run(decision, [name], pipeline=False)
        if backup.ok and not backup.error:
            decision.tier_path.append(f"fallback: {name} took the message instead")
            decision.rationale += f" {failed} failed ({result.error}); {name} took it instead."
            decision.result = _combined(result, backup, failed, name, parts)
            return
        decision.tier_path.append(f"fallback: {name} failed too")
    decision.tier_path.append("fallback: a person (no other controller could take it)")
    decision.rationale += f" {failed} failed ({result.error}); no other controller could take it."
    chinese = any("\u4e00" <= ch <= "\u9fff" for ch in decision.text[:200])
    result.summary = f"{result.summary} {HUMAN_HELP_ZH if chinese else HUMAN_HELP}".strip()


def _dry_run_passes(
    decision: Decision, name: str, runner: ControllerRunner, parts: BrainParts
) -> bool:
    message = Message(decision.text, decision.user, decision.channel, decision.thread)
    context = runner.context(
        decision.decision_id, decision.text, message, decision.intent, decision.entities
    )
    try:
        return bool(parts.registry.get(name).dry_run(context).ok)
    except Exception as exc:  # a broken fallback is one more failed option, not a crash
        log.warning("fallback dry-run of %s raised %s", name, type(exc).__name__)
        return False


def _combined(
    failed: ExecutionResult, backup: ExecutionResult, name: str, backup_name: str, parts: BrainParts
) -> ExecutionResult:
    """The backup's result, with the failure shown first and both parts kept."""
    labels = parts.view.labels
    first = ExecutionPart.from_dict(failed.to_dict())
    second = ExecutionPart.from_dict(backup.to_dict())
    second.role = "supporting"
    combined = ExecutionResult(**second.to_dict())
    combined.parts = [first, second]
    combined.summary = (
        f"{labels.get(name, name)} is not available right now ({failed.error}); "
        f"{labels.get(backup_name, backup_name)} took it instead: {backup.summary}"
    )
    return combined
