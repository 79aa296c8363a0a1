"""What the router weighs and what it decides: ranked candidates, the plan, the tier rules.

The design's tiers (`tier_of`) and its supporting rule (`strong_others`), apart from the
`Router` that applies them (`brain.routing.router`) so that the chain's steps can read plans
without the router.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from core.config import RoutingConfig
from core.plans import DcrTrace, Plan
from core.records import DryRunRecord, ExecutionResult, Outcome, Tier

#: A candidate below this confidence is not worth offering in a clarification question.
VIABLE_MIN = 0.2
#: Candidates named in a clarification question.
CLARIFY_CANDIDATES = 3


@dataclass(slots=True)
class Candidate:
    """One controller considered by routing."""

    name: str
    label: str
    confidence: float
    #: This controller's own evidence, independent of its rivals: the raw weighted total, which
    #: the design's "several strong controllers" rule compares (the calibrated confidence is the
    #: probability of being THE right one, so a second strong controller gets little of it).
    #: Defaults to `confidence`.
    strength: float | None = None

    @property
    def standalone(self) -> float:
        """`strength` when known, else `confidence`."""
        return self.confidence if self.strength is None else self.strength


@dataclass(frozen=True, slots=True)
class LessonRoute:
    """Where memory says the message belongs (`brain.memory.preference`): the asker's own
    correction of a message like it, or the organisation's agreed one; `note` says which."""

    right: str
    note: str
    #: A compliance rule outranks the preference: the controller the rule sends it to.
    compliance: str | None = None
    #: Why the compliance rule applies (e.g. "security incidents go to incident").
    compliance_note: str = ""
    #: A person made this lesson (a correction), so it overrules a dry-run's verdict about
    #: the message; the ongoing work of the conversation does not.
    by_person: bool = True


@dataclass(slots=True)
class RoutePlan:
    """What routing decided, before the engine wraps it into a Decision."""

    tier: Tier
    outcome: Outcome
    controller: str | None
    confidence: float
    supporting: list[str] = field(default_factory=list)
    composition: str | None = None
    dry_runs: list[DryRunRecord] = field(default_factory=list)
    tier_path: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    clarification: str | None = None
    #: A question asked in the thread after routing (missing parameters, "is this right?").
    follow_up: str | None = None
    #: The plan that runs (topology, I/O contract) and the DCR trace (`brain.dynamic`).
    execution: Plan | None = None
    dcr: DcrTrace | None = None
    #: An answer found while deciding (the fallback ladder's capability hook).
    answer: ExecutionResult | None = None
    #: The memory lesson the route followed, in words ("" when none).
    preference: str = ""


def tier_of(confidence: float, routing: RoutingConfig) -> Tier:
    """The tier a top confidence falls into."""
    if confidence >= routing.fast_threshold:
        return "fast"
    if confidence >= routing.verify_threshold:
        return "verify"
    return "dynamic"


def strong_others(candidates: Sequence[Candidate], routing: RoutingConfig) -> list[Candidate]:
    """Seed 002's supporting rule: others >= supporting_min and >= ratio x primary."""
    if not candidates:
        return []
    primary = candidates[0].standalone
    return [
        c
        for c in candidates[1:]
        if c.standalone >= routing.supporting_min
        and c.standalone >= routing.supporting_ratio * primary
    ][: max(routing.max_parallel - 1, 0)]


def composition_of(
    names: Sequence[str], feeds: Mapping[str, Sequence[str]]
) -> tuple[str, list[str]]:
    """("pipeline", producers first) when one's output feeds another, else ("parallel", names)."""
    producers = [n for n in names if any(other in feeds.get(n, ()) for other in names)]
    if not producers:
        return "parallel", list(names)
    ordered = producers + [n for n in names if n not in producers]
    return "pipeline", ordered


#: Words of a dry-run that failed because the controller is down, not because of the message.
_UNAVAILABLE = ("error", "unreachable", "timed out", "timeout", "no knowledge base is open")


def unavailable(record: DryRunRecord) -> bool:
    """Did the dry-run fail because the controller cannot work at all (raised, down, timed
    out)? Such a failure stops even a route memory prefers; a verdict about the message
    ("not a question") does not, since a person already overruled it for a message like it."""
    reason = record.reason.lower()
    return any(word in reason for word in _UNAVAILABLE)
