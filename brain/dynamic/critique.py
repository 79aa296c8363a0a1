"""Critique: three destructive checks of a draft (the dynamic tier's DCR).

- counter-example: a similar unknown case this plan failed (rejected or corrected), or a KB
  standard solution that points at another controller;
- boundary: every controller's dry-run passes (required entities present) and the message
  holds a clue of its own for it (its declared keywords, KB support, an identifier of its
  format, its intent), or, for a plan replayed from memory, a confirmed similar case;
- comparison: the second-best draft is clearly weaker (otherwise the choice is a coin toss).

The checks only read evidence the deterministic chain computed; an LLM can veto a plan that
passed (`llm_stages.LLMCritic`), never pass one that failed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from brain.dynamic.draft import STANDARD_SOLUTION, Draft
from brain.dynamic.situation import Situation
from core.plans import CritiqueCheck

#: The best draft must beat the second by this much (scores of the same kind).
COMPARISON_MARGIN = 0.1
#: A plan from fragments alone needs this many clues for a single controller.
SINGLE_CLUES = 2

HookProbe = Callable[[], bool]


def counter_example(item: Draft, situation: Situation) -> CritiqueCheck:
    for similar in situation.similar:
        plan = similar.plan
        if similar.failed and plan is not None and plan.signature == item.plan.signature:
            text = str(similar.case.get("text", ""))[:60]
            return CritiqueCheck(
                "counter_example",
                False,
                f"it failed on a similar case ({text!r}, similarity {similar.similarity:.2f})",
            )
    for hit in situation.kb_hits:
        if (
            hit.score >= STANDARD_SOLUTION
            and hit.domain in situation.names
            and hit.domain not in item.plan.controllers
            and item.plan.topology != "hook"
        ):
            return CritiqueCheck(
                "counter_example", False, f"the KB's {hit.title!r} belongs to {hit.domain}"
            )
    return CritiqueCheck("counter_example", True, "no contradicting case or KB record")


def boundary(item: Draft, situation: Situation, hook: HookProbe | None = None) -> CritiqueCheck:
    plan = item.plan
    if plan.topology == "hook":
        if hook is None or not hook():
            return CritiqueCheck("boundary", False, "the capability hook has no answer now")
        return CritiqueCheck("boundary", True, "the capability hook answers it")
    for name in plan.controllers:
        record = situation.check(name)
        if not record.ok:
            missing = f" (missing {', '.join(record.missing)})" if record.missing else ""
            return CritiqueCheck(
                "boundary", False, f"{name}'s dry-run failed: {record.reason}{missing}"
            )
    if plan.source in ("memory", "kb-standard"):
        return CritiqueCheck("boundary", True, "dry-runs passed; " + "; ".join(item.evidence))
    needed = SINGLE_CLUES if len(plan.controllers) == 1 else 1
    for name in plan.controllers:
        clues = situation.clues(name)
        strong = any(c.startswith("identifier") for c in clues)
        if situation.declared_out_of_scope and not strong:
            return CritiqueCheck(
                "boundary",
                False,
                f"{name}'s clues do not outweigh the semantic model's out-of-scope verdict",
            )
        if len(clues) < needed and not strong:
            have = ": " + "; ".join(clues) if clues else ""
            return CritiqueCheck(
                "boundary",
                False,
                f"{name}'s clues do not cover it ({len(clues)} of the {needed} needed{have})",
            )
    return CritiqueCheck("boundary", True, "dry-runs passed and each controller has its clues")


def comparison(item: Draft, others: Sequence[Draft]) -> CritiqueCheck:
    rival = next((o for o in others if o.plan.signature != item.plan.signature), None)
    if rival is None:
        return CritiqueCheck("comparison", True, "no second plan to compare with")
    if rival.plan.source == item.plan.source and rival.score > item.score - COMPARISON_MARGIN:
        return CritiqueCheck(
            "comparison",
            False,
            f"{rival.plan.describe()} is as likely ({rival.score:.2f} vs {item.score:.2f})",
        )
    return CritiqueCheck(
        "comparison", True, f"better than {rival.plan.describe()} ({rival.score:.2f})"
    )


def critique(
    item: Draft, others: Sequence[Draft], situation: Situation, hook: HookProbe | None = None
) -> list[CritiqueCheck]:
    """The three checks, in order; all are run so the record shows each verdict."""
    return [
        counter_example(item, situation),
        boundary(item, situation, hook),
        comparison(item, others),
    ]
