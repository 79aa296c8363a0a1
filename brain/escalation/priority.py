"""Priority the way service desks compute it: impact x urgency -> P1..P4, with the spans that
decided it.

Words that only say how someone feels ("urgent", "ASAP", "importance high", "critical" in a
pasted alert) are urgency of the *needed soon* kind, never impact: they cannot make a P1 alone.
Impact is who is affected (one person, a team, many, all customers) and what (production or a
test system, customer data, payments); urgency is the service state (down or failing now,
degraded, needed soon, no rush). A resolved or inactive alert, a drill, a planned window, a
question about a hypothetical outage and a question for a count or a fact that names no
failure describe no live service state. The cue lists are data
(`priority.yaml`), validated when they load.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Literal

from brain.intent.security import phrase_pattern
from core.cues import cues
from core.errors import BrainError
from core.records import EvidenceSpan
from core.safe_yaml import load_shipped_yaml

__all__ = [
    "IMPACTS",
    "PRIORITY_FILE",
    "STATES",
    "Assessment",
    "assess",
    "priority_of",
]

PRIORITY_FILE = "priority.yaml"
Impact = Literal["individual", "team", "many", "all"]
State = Literal["no_rush", "soon", "degraded", "down"]
#: Lowest to highest; a level's index + 1 is its weight in the matrix.
IMPACTS: tuple[Impact, ...] = ("individual", "team", "many", "all")
STATES: tuple[State, ...] = ("no_rush", "soon", "degraded", "down")
#: The cue groups priority.yaml must define.
GROUPS = (
    "scope_all",
    "scope_many",
    "scope_team",
    "local",
    "individual",
    "shared_service",
    "production",
    "test_system",
    "customer_data",
    "payments",
    "down",
    "inability",
    "degraded",
    "soon",
    "no_rush",
    "resolved",
    "not_live",
    "since",
    "since_after",
    "ahead",
    "count_question",
    "now",
    "greeting",
    "negation",
)
#: How far a `since` cue may stand before a `not_live` cue, and a `since_after` cue after it,
#: for the cue to name a cause ("after the password policy push", "维护窗口之后").
CAUSE_BEFORE, CAUSE_AFTER = 40, 4
_CUES = cues(__name__)
_CLAUSE_END = re.compile(f"[{_CUES.regex('clause_end_marks')}]")
#: Marks a message may end with, taken off before its clauses are counted.
_END_MARKS = _CUES.regex("end_marks")
#: A character before "cannot" that makes it a request ("能不能", could you), no inability.
_ASKS_BEFORE = frozenset(_CUES.words("asks_before_inability"))


@dataclass(frozen=True, slots=True)
class Assessment:
    """Impact, service state and the priority they make, with every span that counted."""

    impact: Impact
    state: State
    priority: str
    spans: tuple[EvidenceSpan, ...]
    #: Flags the escalation model reads beside the levels.
    production: bool = False
    test_system: bool = False
    customer_data: bool = False
    payments: bool = False
    resolved: bool = False
    not_live: bool = False
    #: A question for a count or a fact with no failure read: no live event, but not one of
    #: the model's rule features (as a feature, its refit moved borderline unseen wordings).
    count_question: bool = False

    def describe(self) -> str:
        """One line for the rationale: "P1 (impact all x urgency down: 'every order', ...)"."""
        shown = ", ".join(f"{s.role} {s.text!r}" for s in self.spans[:6])
        detail = f": {shown}" if shown else ""
        state = self.state.replace("_", " ")
        return f"{self.priority} (impact {self.impact} x urgency {state}{detail})"


def priority_of(impact: Impact, state: State) -> str:
    """The service-desk matrix: P1 only for many or all affected by something down now."""
    i, u = IMPACTS.index(impact) + 1, STATES.index(state) + 1
    if i >= 3 and u == 4:
        return "P1"
    if i + u >= 6:
        return "P2"
    if i + u >= 4:
        return "P3"
    return "P4"


@dataclass(frozen=True, slots=True)
class _Cues:
    patterns: dict[str, re.Pattern[str]]

    def spans(self, group: str, text: str) -> list[EvidenceSpan]:
        pattern = self.patterns.get(group)
        if pattern is None:
            return []
        return [EvidenceSpan(m.start(), m.end(), m.group(0), group) for m in pattern.finditer(text)]


class PriorityCuesError(BrainError, ValueError):
    """priority.yaml is unusable; the message names the group."""


def parse_cues(data: object) -> _Cues:
    """Validate the loaded YAML (every group a non-empty list of strings) and compile it."""
    if not isinstance(data, dict):
        raise PriorityCuesError(f"{PRIORITY_FILE}: expected a mapping of cue groups")
    unknown = sorted(set(data) - set(GROUPS))
    if unknown:
        raise PriorityCuesError(f"{PRIORITY_FILE}: unknown group(s) {', '.join(unknown)}")
    patterns = {}
    for group in GROUPS:
        raw = data.get(group)
        if not isinstance(raw, list) or not raw or not all(isinstance(v, str) for v in raw):
            raise PriorityCuesError(f"{PRIORITY_FILE}: {group} must be a list of strings")
        compiled = phrase_pattern([str(v) for v in raw])
        if compiled is not None:
            patterns[group] = compiled
    return _Cues(patterns)


@lru_cache(maxsize=1)
def _cues() -> _Cues:
    text = resources.files("brain.escalation").joinpath(PRIORITY_FILE).read_text(encoding="utf-8")
    return parse_cues(load_shipped_yaml(text))


def _live(spans: list[EvidenceSpan], negations: list[EvidenceSpan]) -> list[EvidenceSpan]:
    """Drop state spans right after a negation ("not down", "no outage", "没有宕机")."""
    return [s for s in spans if not any(0 <= s.start - n.end <= 2 for n in negations)]


def _not_causes(cues: _Cues, text: str, spans: list[EvidenceSpan]) -> list[EvidenceSpan]:
    """The `not_live` spans that say what the message is (a drill, planned work, a policy
    question), without those that only name what a live failure followed ("since the
    maintenance window", "after the password policy push", "维护窗口之后"): a cause names no
    drill or notice, so it cannot veto the failure it caused. A notice of work to come or a
    hypothetical (`ahead`: "will", "if", "将") keeps every cue."""
    if not spans or cues.spans("ahead", text):
        return spans
    before = [s.end for s in cues.spans("since", text)]
    after = [s.start for s in cues.spans("since_after", text)]

    def cause(span: EvidenceSpan) -> bool:
        return any(
            0 <= span.start - end <= CAUSE_BEFORE and not _CLAUSE_END.search(text[end : span.start])
            for end in before
        ) or any(
            0 <= start - span.end <= CAUSE_AFTER and not _CLAUSE_END.search(text[span.end : start])
            for start in after
        )

    return [s for s in spans if not cause(s)]


@lru_cache(maxsize=512)
def assess(text: str) -> Assessment:
    """Impact, service state and priority of `text`, from the cue lists only."""
    cues, lowered = _cues(), text.lower()
    found = {group: cues.spans(group, lowered) for group in GROUPS}
    negation = found["negation"]
    down = _live(found["down"], negation)
    degraded = _live(found["degraded"], negation)
    found["not_live"] = _not_causes(cues, lowered, found["not_live"])
    resolved, not_live = bool(found["resolved"]), bool(found["not_live"])
    # "hi everyone" greets; "not a single order went through" is no one case.
    scope_all = _live(found["scope_all"], found["greeting"])
    scope_many = found["scope_many"]
    found["individual"] = _live(found["individual"], negation)
    local, test_system = bool(found["local"]), bool(found["test_system"])
    services = found["shared_service"] + found["payments"] + found["production"]
    # "nobody can log in": an inability is an outage when many are named; with a service
    # named and nobody ("cannot reach the gateway") it is a degradation the model weighs.
    if not down and not found["individual"]:
        # "能不能" ("could you") asks; its "不能" is no inability.
        unable = [
            s
            for s in _live(found["inability"], negation)
            if lowered[s.start - 1 : s.start] not in _ASKS_BEFORE
        ]
        if scope_all or scope_many:
            down = unable
        elif services and not degraded:
            degraded = unable
    spans: list[EvidenceSpan] = []
    impact: Impact = "individual"
    if scope_all and not local:
        impact, spans = "all", spans + scope_all[:1]
    elif scope_many or (scope_all and local):
        impact, spans = "many", spans + (scope_many or scope_all)[:1]
    elif found["scope_team"] or local:
        impact, spans = "team", spans + (found["scope_team"] or found["local"])[:1]
    one = bool(found["individual"]) and impact == "individual"
    if (down or degraded) and not one:
        # A shared production service failing affects many; payments or customer data, all
        # (unless the message says it is one person's or one case's: "a single order").
        if (found["payments"] or found["customer_data"]) and impact != "all":
            impact = "all"
            spans += (found["payments"] or found["customer_data"])[:1]
        elif (found["shared_service"] or found["production"]) and impact in ("individual", "team"):
            impact = "many"
            spans += (found["production"] or found["shared_service"])[:1]
    if test_system and not found["production"]:
        impact = min(impact, "team", key=IMPACTS.index)
        spans += found["test_system"][:1]
    # "how many employees does alibaba have": a count or a fact asked, no failure named; or
    # a statistic about failures asked alone ("how many people worldwide have no internet"),
    # not a question beside a report ("how many are affected? checkout returns 500").
    alone = not _CLAUSE_END.search(lowered.strip().rstrip(_END_MARKS)) and not found["now"]
    count_question = bool(found["count_question"]) and (alone or not (down or degraded))
    if count_question:
        spans += found["count_question"][:1]
    state: State = "no_rush"
    if (resolved or not_live) and (down or degraded):
        spans += (found["resolved"] or found["not_live"])[:1]
    elif down:
        state, spans = "down", spans + down[:1]
    elif degraded:
        state, spans = "degraded", spans + degraded[:1]
    if state == "no_rush" and found["soon"] and not found["no_rush"]:
        state, spans = "soon", spans + found["soon"][:1]
    ordered = tuple(sorted(dict.fromkeys(spans), key=lambda s: s.start))
    return Assessment(
        impact=impact,
        state=state,
        priority=priority_of(impact, state),
        spans=ordered,
        production=bool(found["production"]),
        test_system=test_system,
        customer_data=bool(found["customer_data"]),
        payments=bool(found["payments"]),
        resolved=resolved,
        not_live=not_live,
        count_question=count_question,
    )
