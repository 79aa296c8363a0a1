"""Refine: a failed critique comes back as constraints for the next round.

Each round adds context (failure reason -> constraint -> boundary confirmation):
a counter-example rules the plan out, a boundary failure rules out the controller whose
dry-run or capabilities fell short, and a failed comparison rules out both tied plans and
remembers them, so that if nothing better survives the user is asked which one it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from brain.dynamic.draft import Constraints, Draft
from core.plans import CritiqueCheck


@dataclass(slots=True)
class Refinement:
    """The constraints added by one round, and any tie to ask the user about."""

    added: list[str] = field(default_factory=list)
    tied: list[str] = field(default_factory=list)


def refine(
    item: Draft, checks: Sequence[CritiqueCheck], others: Sequence[Draft], constraints: Constraints
) -> Refinement:
    """Fold the failed checks of `item` into `constraints` (in place)."""
    out = Refinement()
    for check in checks:
        if check.ok:
            continue
        if check.name == "counter_example":
            constraints.excluded_signatures.add(item.plan.signature)
            out.added.append(f"exclude {item.plan.signature}: {check.reason}")
        elif check.name == "boundary":
            failing = _failing_controller(check.reason, item.plan.controllers)
            if failing is None:
                constraints.excluded_signatures.add(item.plan.signature)
                out.added.append(f"exclude {item.plan.signature}: {check.reason}")
            else:
                constraints.excluded_controllers.add(failing)
                out.added.append(f"exclude {failing}: {check.reason}")
        elif check.name == "comparison":
            rival = next((o for o in others if o.plan.signature != item.plan.signature), None)
            constraints.excluded_signatures.add(item.plan.signature)
            if rival is not None:
                constraints.excluded_signatures.add(rival.plan.signature)
                out.tied = [p for p in (item.plan.primary, rival.plan.primary) if p]
            out.added.append(f"exclude the tie {item.plan.signature} / {check.reason}")
    constraints.notes.extend(out.added)
    return out


def _failing_controller(reason: str, names: Sequence[str]) -> str | None:
    return next((name for name in names if reason.startswith(f"{name}'s")), None)
