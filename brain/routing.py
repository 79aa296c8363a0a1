"""Progressive routing (seed 000) with seed 002's primary/supporting rule.

- confidence >= fast threshold (0.8): fast path, no dry-run;
- verify threshold (0.4) .. fast: the top controller's dry-run decides (pass: routed;
  fail: dynamic);
- below: dynamic. Until the DCR loop exists, dynamic asks a clarification question naming the top
  candidates in plain words, or, when no controller is even plausible, answers with an honest
  boundary explanation (outcome "fallback").
- below the fast path, a message the semantic model declares out of scope gets that boundary
  explanation directly (outcome "fallback"), not a question about controllers that do not fit.
- several strong controllers (others >= 0.45 and >= 55% of the primary): parallel dry-runs of the
  top N; all pass -> "composed" (pipeline when one's output feeds another, else parallel), one
  passes -> that one, none -> dynamic.
  This check comes first, whatever the primary's band: a cross-domain message is verified
  even when the primary alone would take the fast path (the tier is then "verify").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from core.config import RoutingConfig
from core.plans import DcrTrace, Plan
from core.records import DryRunRecord, ExecutionResult, Outcome, Tier
from core.text.language import is_chinese as is_chinese  # re-exported: its old home

if TYPE_CHECKING:
    from brain.escalation import UrgentRoute

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
    #: seed 002's "several strong controllers" rule compares (the calibrated confidence is the
    #: probability of being THE right one, so a second strong controller gets little of it).
    #: Defaults to `confidence`.
    strength: float | None = None

    @property
    def standalone(self) -> float:
        """`strength` when known, else `confidence`."""
        return self.confidence if self.strength is None else self.strength


@dataclass(frozen=True, slots=True)
class MemoryLesson:
    """Where memory says the message belongs (`brain.preference`): the asker's own
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


def clarification_question(candidates: Sequence[Candidate], chinese: bool) -> str:
    """A plain-words question naming the candidates by their labels."""
    labels = [c.label for c in candidates]
    if chinese:
        options = "、".join(f"“{label}”" for label in labels)
        return (
            f"我还不能确定您要处理的是哪类问题：是{options}中的哪一个？请选择一个，或回复“都不是”。"
        )
    options = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + f" or {labels[-1]}"
    return (
        f'I\'m not sure what you need. Is this about {options}? Pick one, or say "none of these".'
    )


def follow_up_question(label: str, missing: Sequence[str], chinese: bool, *, check: bool) -> str:
    """What is asked in the thread after routing: the parameters the controller still needs,
    and (`check`) whether this was the right place at all."""
    parts = []
    if chinese:
        if missing:
            parts.append(f"为了继续处理，“{label}”还需要：{'、'.join(missing)}。请在此回复。")
        if check:
            parts.append(f"我已交给“{label}”处理；如果不对，请告诉我应该由谁处理。")
        return "".join(parts)
    if missing:
        parts.append(f"To go on, {label} still needs: {', '.join(missing)}. Please reply here.")
    if check:
        parts.append(f"I've passed this to {label}; if that's not right, tell me where it goes.")
    return " ".join(parts)


def escalated_explanation(chinese: bool) -> str:
    """An escalated message that no controller takes: a person does, never "outside what I
    can handle"."""
    if chinese:
        return "我已经通知值班同事，他们会在这个对话里跟进。"
    return "I've alerted the on-call team; a person will follow up in this thread."


def boundary_explanation(count: int, chinese: bool) -> str:
    """The honest answer when no controller can take the message."""
    if chinese:
        return (
            f"这超出了我目前能处理的范围：{count} 个处理模块中没有一个覆盖这个请求。"
            "您可以补充更多细节后重试，或直接联系 IT 服务台的同事。"
        )
    return (
        f"This is outside what I can handle: none of my {count} controllers covers it. "
        "You can rephrase it with more detail, or ask a person at the IT service desk."
    )


DryRun = Callable[[str], DryRunRecord]


class Router:
    """Applies the tiers to ranked, calibrated candidates."""

    def __init__(
        self,
        routing: RoutingConfig,
        *,
        feeds: Mapping[str, Sequence[str]] | None = None,
        executor: Executor | None = None,
    ) -> None:
        self.routing = routing
        #: Producer -> consumers, as the controllers declare them (`controllers.base.feeds_of`).
        self.feeds = dict(feeds or {})
        self._executor = executor

    def _dry_runs(self, names: Sequence[str], dry_run: DryRun) -> list[DryRunRecord]:
        if len(names) == 1:
            return [dry_run(names[0])]
        if self._executor is not None:
            return list(self._executor.map(dry_run, names))
        with ThreadPoolExecutor(max_workers=len(names), thread_name_prefix="dry-run") as pool:
            return list(pool.map(dry_run, names))

    def route(
        self,
        candidates: Sequence[Candidate],
        *,
        dry_run: DryRun,
        chinese: bool,
        registered: int,
        vague: bool = False,
        feeds: Mapping[str, Sequence[str]] | None = None,
        lesson: MemoryLesson | None = None,
        out_of_scope: float | None = None,
        help_request: bool = False,
        urgent: UrgentRoute | None = None,
        unclear: bool = False,
    ) -> RoutePlan:
        """Decide among candidates (sorted best first, calibrated confidences).

        `urgent` (an escalated message, `brain.escalation`): with critical urgency the top
        plausible controller (a security event's own controller first) is routed even when its
        dry-run lacks parameters, which are asked in the thread afterwards (`follow_up`); an
        escalated message is never answered with the boundary explanation. A clarification
        never offers a single candidate: one plausible controller is a route with a question
        (for a message with nothing to go on, or a bare request for a person, `unclear`: more
        candidates instead).

        `out_of_scope`: set when the semantic model declares the message out of scope (its
        P(out of scope)); below the fast path that is an honest "outside what I can handle"
        rather than a question naming controllers that do not fit.
        `help_request`: a vague message that asks for help ("it's stuck", "卡住了"): it is in
        scope but says too little, so it is asked about (the likeliest controllers), never
        turned away.

        `lesson` (memory-assisted understanding): memory says where a message like this
        belongs (the asker's correction, or the organisation's); that controller takes it,
        checked by a dry-run, unless a compliance rule sends it elsewhere.
        """
        plan = self._route(
            candidates,
            dry_run=dry_run,
            chinese=chinese,
            registered=registered,
            vague=vague,
            feeds=feeds,
            lesson=lesson,
            out_of_scope=out_of_scope,
            help_request=help_request,
        )
        if urgent is not None:
            plan = self._urgent(plan, candidates, urgent, dry_run, chinese)
        if plan.outcome == "clarify" and len(plan.candidates) == 1:
            unclear = unclear or vague or help_request
            plan = self._single_candidate(plan, candidates, dry_run, chinese, unclear)
        return plan

    def _route(
        self,
        candidates: Sequence[Candidate],
        *,
        dry_run: DryRun,
        chinese: bool,
        registered: int,
        vague: bool,
        feeds: Mapping[str, Sequence[str]] | None,
        lesson: MemoryLesson | None,
        out_of_scope: float | None,
        help_request: bool,
    ) -> RoutePlan:
        """The tiers proper (see the module docstring)."""
        routing = self.routing
        if not candidates:
            return _fallback(["dynamic: no controller registered"], 0.0, 0, chinese)
        top = candidates[0]
        shortlist = [c.name for c in candidates[:CLARIFY_CANDIDATES]]
        tier = tier_of(top.confidence, routing)
        path = [f"{tier}: top {top.name} at {top.confidence:.2f}"]
        settled = lesson is not None and not lesson.by_person and tier == "fast"
        if lesson is not None and not (settled and top.name == lesson.right):
            plan = self._follow_lesson(lesson, candidates, path, shortlist, dry_run)
            if plan is not None:
                return plan
        if out_of_scope is not None and tier != "fast" and not help_request:
            path.append(
                f"fallback: the semantic model declares it out of scope "
                f"(P(out of scope) {out_of_scope:.2f})"
            )
            return _fallback(path, top.confidence, registered, chinese)
        if vague and tier != "dynamic":
            path.append("dynamic: vague message with no keyword, entity or context to go on")
            return self._dynamic(candidates, path, chinese, registered, help_request)
        if tier == "dynamic":
            return self._dynamic(candidates, path, chinese, registered, help_request)

        others = strong_others(candidates, routing)
        if others:
            return self._parallel(
                [top, *others], path, dry_run, chinese, registered, {**self.feeds, **(feeds or {})}
            )
        if tier == "fast":
            path.append(f"routed to {top.name} without dry-run")
            return _routed("fast", top, path, shortlist)
        record = self._dry_runs([top.name], dry_run)[0]
        path.append(_describe(record))
        if record.ok:
            return _routed("verify", top, path, shortlist, [record])
        path.append("dynamic: the dry-run failed")
        plan = self._dynamic(candidates, path, chinese, registered)
        plan.dry_runs = [record]
        return plan

    def _urgent(
        self,
        plan: RoutePlan,
        candidates: Sequence[Candidate],
        urgent: UrgentRoute,
        dry_run: DryRun,
        chinese: bool,
    ) -> RoutePlan:
        """Never block or turn away an escalated message (see `route`)."""
        if urgent.critical:
            preferred = next((c for c in candidates if c.name == urgent.preferred), None)
            routed = plan.outcome in ("routed", "composed")
            if routed and (preferred is None or plan.controller == preferred.name):
                return plan
            target = preferred or next((c for c in candidates if c.confidence >= VIABLE_MIN), None)
            if target is not None:
                return self._route_anyway(
                    plan, target, candidates, dry_run, chinese, f"urgent ({urgent.reason})"
                )
        if plan.outcome == "fallback":
            plan.tier_path.append(f"escalated ({urgent.reason}): a person takes it")
            plan.clarification = escalated_explanation(chinese)
        return plan

    def _single_candidate(
        self,
        plan: RoutePlan,
        candidates: Sequence[Candidate],
        dry_run: DryRun,
        chinese: bool,
        vague: bool,
    ) -> RoutePlan:
        """A clarification naming one candidate is no question: a lone candidate that reached
        the verify threshold (its dry-run failed) is routed and the rest asked after; a weaker
        one, or one of a message with nothing to go on, is asked about among more candidates."""
        target = next((c for c in candidates if c.name == plan.candidates[0]), candidates[0])
        weak = target.confidence < self.routing.verify_threshold
        if (vague or weak) and len(candidates) > 1:
            offered = list(candidates[: max(CLARIFY_CANDIDATES, 2)])
            plan.candidates = [c.name for c in offered]
            plan.clarification = clarification_question(offered, chinese)
            plan.tier_path.append(
                f"clarify between {', '.join(plan.candidates)} (never a single candidate)"
            )
            return plan
        return self._route_anyway(
            plan, target, candidates, dry_run, chinese, "the only plausible controller", check=True
        )

    def _route_anyway(
        self,
        plan: RoutePlan,
        target: Candidate,
        candidates: Sequence[Candidate],
        dry_run: DryRun,
        chinese: bool,
        why: str,
        *,
        check: bool = False,
    ) -> RoutePlan:
        """Route `target` whatever its dry-run lacks; the missing parameters become the
        follow-up question."""
        path = list(plan.tier_path)
        records = list(plan.dry_runs)
        record = next((r for r in records if r.controller == target.name), None)
        if record is None:
            record = self._dry_runs([target.name], dry_run)[0]
            records.append(record)
            path.append(_describe(record))
        path.append(f"{why}: routed to {target.name}, missing parameters asked after")
        shortlist = [c.name for c in candidates[:CLARIFY_CANDIDATES]]
        routed = _routed(tier_of(target.confidence, self.routing), target, path, shortlist, records)
        missing = [] if record.ok else list(record.missing)
        if missing or check:
            routed.follow_up = follow_up_question(target.label, missing, chinese, check=check)
        return routed

    def _follow_lesson(
        self,
        lesson: MemoryLesson,
        candidates: Sequence[Candidate],
        path: list[str],
        shortlist: list[str],
        dry_run: DryRun,
    ) -> RoutePlan | None:
        """Route to the controller memory prefers (or the compliance rule's, which outranks
        it), checked by its dry-run. A dry-run that only lacks parameters does not block the
        route: the controller asks for them. None when the controller cannot take it at all."""
        name = lesson.compliance or lesson.right
        if lesson.compliance and lesson.compliance != lesson.right:
            path.append(
                f"compliance: {lesson.compliance_note}; the lesson ({lesson.note}) is not applied"
            )
        else:
            source = "memory" if lesson.by_person else "context"
            path.append(f"{source}: {lesson.note}; trying {name}")
        chosen = next((c for c in candidates if c.name == name), None)
        if chosen is None:
            chosen = Candidate(name, name, 0.0)
        floor = self.routing.verify_threshold
        chosen = replace(chosen, confidence=max(chosen.confidence, floor))
        record = self._dry_runs([name], dry_run)[0]
        path.append(_describe(record))
        if not record.ok and (unavailable(record) or not (lesson.by_person or record.missing)):
            path.append(f"{name} cannot take anything now; routing on the signals instead")
            return None
        why = (
            "compliance rule"
            if lesson.compliance
            else ("memory" if lesson.by_person else "the conversation's ongoing work")
        )
        if record.ok:
            path.append(f"routed to {name} ({why})")
        elif record.missing:
            path.append(f"routed to {name} anyway ({why}); it asks for {', '.join(record.missing)}")
        else:
            path.append(f"routed to {name} anyway ({why}): a person already overruled this check")
        plan = _routed("verify", chosen, path, shortlist, [record])
        if lesson.compliance and lesson.compliance != lesson.right:
            plan.preference = f"{lesson.compliance_note}, above the lesson that {lesson.note}"
        elif lesson.by_person:
            plan.preference = lesson.note
        return plan

    def _parallel(
        self,
        strong: Sequence[Candidate],
        path: list[str],
        dry_run: DryRun,
        chinese: bool,
        registered: int,
        feeds: Mapping[str, Sequence[str]],
    ) -> RoutePlan:
        names = [c.name for c in strong]
        path.append(f"parallel dry-runs of {', '.join(names)} (several strong controllers)")
        records = self._dry_runs(names, dry_run)
        path.extend(_describe(r) for r in records)
        passed = [c for c, r in zip(strong, records, strict=True) if r.ok]
        primary = strong[0]
        if len(passed) == len(strong):
            composition, order = composition_of(names, feeds)
            joiner = " -> " if composition == "pipeline" else " + "
            path.append(f"composed ({composition}: {joiner.join(order)})")
            return RoutePlan(
                tier="verify",
                outcome="composed",
                controller=primary.name,
                confidence=primary.confidence,
                supporting=[n for n in order if n != primary.name],
                composition=composition,
                dry_runs=records,
                tier_path=path,
                candidates=names,
            )
        if passed:
            chosen = passed[0]
            path.append(f"routed to {chosen.name}, the one whose dry-run passed")
            return _routed("verify", chosen, path, names, records)
        path.append("dynamic: every dry-run failed")
        plan = self._dynamic(list(strong), path, chinese, registered)
        plan.dry_runs = records
        return plan

    def _dynamic(
        self,
        candidates: Sequence[Candidate],
        path: list[str],
        chinese: bool,
        registered: int,
        help_request: bool = False,
    ) -> RoutePlan:
        viable = [c for c in candidates if c.confidence >= VIABLE_MIN][:CLARIFY_CANDIDATES]
        top = candidates[0].confidence if candidates else 0.0
        if not viable and help_request and candidates:
            path.append("a request for help with nothing to go on: asking which kind it is")
            viable = list(candidates[:CLARIFY_CANDIDATES])
        if not viable:
            path.append("fallback: no controller is a plausible fit")
            return _fallback(path, top, registered, chinese)
        path.append(f"clarify between {', '.join(c.name for c in viable)}")
        return RoutePlan(
            tier="dynamic",
            outcome="clarify",
            controller=None,
            confidence=top,
            tier_path=path,
            candidates=[c.name for c in viable],
            clarification=clarification_question(viable, chinese),
        )


def _fallback(path: list[str], confidence: float, registered: int, chinese: bool) -> RoutePlan:
    """A plan that routes nowhere and answers with the honest boundary explanation."""
    return RoutePlan(
        tier="dynamic",
        outcome="fallback",
        controller=None,
        confidence=confidence,
        tier_path=path,
        clarification=boundary_explanation(registered, chinese),
    )


def _routed(
    tier: Tier,
    chosen: Candidate,
    path: list[str],
    candidates: list[str],
    dry_runs: Sequence[DryRunRecord] = (),
) -> RoutePlan:
    """A plan routed to `chosen` alone; `candidates` stay on it for a later correction."""
    return RoutePlan(
        tier=tier,
        outcome="routed",
        controller=chosen.name,
        confidence=chosen.confidence,
        dry_runs=list(dry_runs),
        tier_path=path,
        candidates=candidates,
    )


#: Words of a dry-run that failed because the controller is down, not because of the message.
_UNAVAILABLE = ("error", "unreachable", "timed out", "timeout", "no knowledge base is open")


def unavailable(record: DryRunRecord) -> bool:
    """Did the dry-run fail because the controller cannot work at all (raised, down, timed
    out)? Such a failure stops even a route memory prefers; a verdict about the message
    ("not a question") does not, since a person already overruled it for a message like it."""
    reason = record.reason.lower()
    return any(word in reason for word in _UNAVAILABLE)


def _describe(record: DryRunRecord) -> str:
    verdict = "passed" if record.ok else "failed"
    reason = f" ({record.reason})" if record.reason else ""
    return f"dry-run {record.controller} {verdict}{reason}"
