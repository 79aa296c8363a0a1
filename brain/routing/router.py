"""Progressive routing with the design's primary/supporting rule (docs/design.md).

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
from dataclasses import replace
from typing import TYPE_CHECKING

from brain.routing.cost import SemanticOdds, far_ahead
from brain.routing.plan import (
    CLARIFY_CANDIDATES,
    VIABLE_MIN,
    Candidate,
    LessonRoute,
    RoutePlan,
    composition_of,
    strong_others,
    tier_of,
    unavailable,
)
from brain.routing.wording import (
    boundary_explanation,
    clarification_question,
    escalated_explanation,
    follow_up_question,
)
from core.config import RoutingConfig
from core.records import DryRunRecord, Tier

if TYPE_CHECKING:
    from brain.escalation.decide import UrgentRoute

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
        lesson: LessonRoute | None = None,
        out_of_scope: float | None = None,
        help_request: bool = False,
        urgent: UrgentRoute | None = None,
        unclear: bool = False,
        odds: SemanticOdds | None = None,
    ) -> RoutePlan:
        """Decide among candidates (sorted best first, calibrated confidences).

        `urgent` (an escalated message, `brain.escalation.decide`): with critical urgency the top
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

        `odds`: the semantic model's own lead (`brain.routing.cost.far_ahead`).

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
            odds=odds,
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
        lesson: LessonRoute | None,
        out_of_scope: float | None,
        help_request: bool,
        odds: SemanticOdds | None = None,
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
        lead = far_ahead(candidates, routing, odds) if tier == "dynamic" else ""
        if tier == "dynamic" and not lead:
            return self._dynamic(candidates, path, chinese, registered, help_request)
        if tier == "dynamic":
            path.append(f"{top.name} is far ahead of the others ({lead}): checking it, not asking")

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
            why = f"urgent ({urgent.reason})"
            target = preferred or self._first_that_can_take_it(
                plan, [c for c in candidates if c.confidence >= VIABLE_MIN], dry_run, urgent
            )
            if target is None and urgent.outage is not None:
                # No outage left unrouted: a P1 that no controller fits goes to the outage one.
                target = next((c for c in candidates if c.name == urgent.outage), None)
                why = (
                    f"{why}; no controller fits, so the outage controller {urgent.outage} takes it"
                )
            if target is not None:
                return self._route_anyway(plan, target, candidates, dry_run, chinese, why)
        if urgent.handoff and plan.outcome == "clarify":
            # A person was asked for: hand it to one at once, never ask back.
            plan.outcome, plan.controller, plan.candidates = "fallback", None, []
            plan.supporting = []
            plan.tier_path.append(f"handed to a person ({urgent.reason}), not asked back")
            plan.clarification = escalated_explanation(chinese)
            return plan
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

    def _first_that_can_take_it(
        self,
        plan: RoutePlan,
        viable: Sequence[Candidate],
        dry_run: DryRun,
        urgent: UrgentRoute,
    ) -> Candidate | None:
        """Where an urgent message nobody prefers goes: the first viable candidate whose dry-run
        passes or lacks only parameters the thread can ask for. One that cannot take the
        message at all ("no alert, metric reading or exit code recognised" for "jenkins build
        for payments-service failing since noon") would only answer that it cannot: the next
        one that can takes it; when none can, the outage controller if it is among them (the
        desk works its record), else the first of them. The dry-runs run here are recorded on
        `plan` (its dry-runs and path), as the router records every dry-run it makes."""
        if not viable:
            return None
        known = {r.controller: r for r in plan.dry_runs}
        for candidate in viable:
            record = known.get(candidate.name)
            if record is None:
                record = self._dry_runs([candidate.name], dry_run)[0]
                plan.dry_runs.append(record)
                plan.tier_path.append(_describe(record))
            if record.ok or record.missing:
                return candidate
        outage = next((c for c in viable if c.name == urgent.outage), None)
        return outage or viable[0]

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
        lesson: LessonRoute,
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


def _describe(record: DryRunRecord) -> str:
    verdict = "passed" if record.ok else "failed"
    reason = f" ({record.reason})" if record.reason else ""
    return f"dry-run {record.controller} {verdict}{reason}"
