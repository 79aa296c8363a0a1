"""Running controllers: dry-runs while routing, and the chosen controllers after it.

A composed decision runs its controllers as a pipeline (producers first, each one's result the
next one's `context.upstream`) or in parallel on the brain's worker pool. A controller that
raises becomes a failed part or a failed dry-run, never a failed decision.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, TypeVar

from brain.routing.plan import composition_of
from controllers.tickets import MOVED_REASON
from core.llm_calls import LLMCallCount, count_llm_calls
from core.plans import ROLE_WORDS_ZH, Plan
from core.records import (
    Decision,
    DryRunRecord,
    Entities,
    ExecutionPart,
    ExecutionResult,
    IntentResult,
    Message,
    Role,
)
from core.wording import wording_for

if TYPE_CHECKING:
    from brain.parts import BrainParts
    from controllers.base import ControllerContext

log = logging.getLogger(__name__)

_In = TypeVar("_In")
_Out = TypeVar("_Out")


class ControllerRunner:
    """Builds controller contexts and runs dry-runs and handlers for one brain."""

    def __init__(self, parts: BrainParts, pool: Executor) -> None:
        self._parts = parts
        self._pool = pool

    def context(
        self,
        decision_id: str,
        text: str,
        message: Message,
        intent: IntentResult,
        entities: Entities,
        request_type: str = "",
        language: str = "",
    ) -> ControllerContext:
        """The one typed object a controller sees (`request_type`: what the chain read the
        message to do, given to dry-runs; `language`: the decision's, see `Decision.language`)."""
        from controllers.base import ControllerContext

        return ControllerContext(
            text=text,
            user=message.user,
            channel=message.channel,
            thread=message.thread,
            decision_id=decision_id,
            intent=intent.intent,
            urgency=intent.urgency,
            entities={k: list(v) for k, v in entities.items()},
            services=self._parts.services,
            team=message.team,
            request_type=request_type,
            language=language,
        )

    def dry_run_for(
        self, make_context: Callable[[], ControllerContext], llm_calls: LLMCallCount
    ) -> Callable[[str], DryRunRecord]:
        """A dry-run function for the router: controller name -> what its dry-run said."""

        def dry_run(name: str) -> DryRunRecord:
            try:
                # Dry-runs may run on the router's pool threads: count for this decision there.
                with count_llm_calls(into=llm_calls):
                    result = self._parts.registry.get(name).dry_run(make_context())
            except Exception as exc:  # a broken controller is a failed dry-run, not a crash
                log.warning("dry-run of %s raised %s: %s", name, type(exc).__name__, exc)
                return DryRunRecord(name, False, f"dry-run error: {type(exc).__name__}: {exc}")
            return DryRunRecord(name, bool(result.ok), result.reason, list(result.missing))

        return dry_run

    def run_decision(self, decision: Decision) -> ExecutionResult:
        """Run a routed or composed decision's controllers, in the order composition asks."""
        assert decision.controller is not None
        replay = replayed_plan(self._parts.registry.get(decision.controller))
        if replay is not None:  # an evolved controller replays the plan it learned
            pipeline = replay.topology == "pipeline"
            return self.run(decision, replay.controllers, pipeline=pipeline, primary=replay.primary)
        names = [decision.controller, *decision.supporting]
        pipeline = decision.composition == "pipeline"
        order = composition_of(names, self._parts.view.feeds)[1] if pipeline else names
        return self.run(decision, order, pipeline=pipeline)

    def run_parts(self, decision: Decision, parts: Sequence[Decision]) -> ExecutionResult:
        """A multi-intent decision: each part's own decision runs in parallel on its own text;
        each part decision keeps its result, the message's result lists them with roles."""
        results = _mapped(self._pool, self.run_decision, parts)
        roles = {p.decision_id: p.role for p in decision.parts}
        merged: list[ExecutionPart] = []
        for part, result in zip(parts, results, strict=True):
            part.result = result
            merged.append(
                ExecutionPart(
                    controller=result.controller,
                    role=roles.get(part.decision_id, "supporting"),
                    ok=result.ok,
                    summary=result.summary,
                    details=result.details,
                    data={**result.data, "decision_id": part.decision_id, "text": part.text},
                    citations=result.citations,
                    missing=result.missing,
                    escalate=result.escalate,
                )
            )
        primary = next((p for p in merged if p.role == "primary"), merged[0])
        result = ExecutionResult(**primary.to_dict())
        result.parts = merged
        result.summary = self._joined(merged, decision.in_chinese)
        result.escalate = any(p.escalate for p in merged)
        return result

    def _joined(self, parts: Sequence[ExecutionPart], zh: bool) -> str:
        """The parts' summaries, each tagged with its controller and role: by name for an
        English asker ("[alarm - primary]"), by label for a Chinese one (`zh`)."""
        labels = self._parts.view.labels_zh if zh else {}
        roles = ROLE_WORDS_ZH if zh else {}
        words = wording_for(zh)
        return "\n\n".join(
            words.say(
                "common.part_tag",
                label=labels.get(p.controller, p.controller),
                role=roles.get(p.role, p.role),
            )
            + f" {p.summary}"
            for p in parts
        )

    def run(
        self,
        decision: Decision,
        order: Sequence[str],
        *,
        pipeline: bool,
        primary: str | None = None,
    ) -> ExecutionResult:
        """Run `order`'s controllers on the decision's message; one result, with parts when
        there are several (`primary`: the one whose role is primary, default the decision's)."""
        primary = primary or decision.controller
        message = Message(
            decision.text, decision.user, decision.channel, decision.thread, team=decision.team
        )
        parts: list[ExecutionPart] = []
        upstream: ExecutionPart | None = None
        routed_to = primary if primary in order and primary else order[0]

        def run(name: str, up: ExecutionPart | None) -> ExecutionPart:
            context = self.context(
                decision.decision_id,
                decision.text,
                message,
                decision.intent,
                decision.entities,
                language=decision.language,
            )
            context.routed_to = routed_to
            # Controllers read the upstream part as a plain dict (the controller protocol).
            context.upstream = None if up is None else up.to_dict()
            role: Role = "primary" if name == primary else "supporting"
            try:
                result = self._parts.registry.get(name).handle(context)
            except Exception as exc:
                log.exception("controller %s failed", name)
                error = f"{type(exc).__name__}: {exc}"[:300]
                summary = f"{name} failed: {error}"
                return ExecutionPart(
                    controller=name, role=role, ok=False, summary=summary, error=error
                )
            return ExecutionPart(
                controller=name,
                role=role,
                ok=result.ok,
                summary=result.summary,
                details=result.details,
                data=result.data,
                citations=result.citations,
                missing=result.missing,
                escalate=result.escalate,
                error=str(getattr(result, "error", "") or ""),
            )

        if pipeline:
            for name in order:
                part = run(name, upstream)
                parts.append(part)
                upstream = part
        else:
            parts = _mapped(self._pool, lambda n: run(n, None), order)
        first = next((p for p in parts if p.controller == primary), parts[0])
        result = ExecutionResult(**first.to_dict())
        if len(parts) > 1:
            result.parts = parts
            result.summary = self._joined(parts, decision.in_chinese)
        result.escalate = any(p.escalate for p in parts)
        if decision.dcr is not None:
            result.dcr_rounds = decision.dcr.summaries()
        return result

    def rerun(self, decision: Decision, controller: str, *, by: str) -> ExecutionResult:
        """Run `controller` instead of what ran before: a record the earlier run filed for
        this very decision, still open, is closed first as moved, so routing a filed message
        elsewhere leaves one ticket in the right queue instead of two."""
        tickets = self._parts.services.tickets
        earlier = decision.result
        if tickets is not None and earlier is not None:
            for _, filed in earlier.tickets():
                ticket = tickets.get(str(filed["id"]))
                if (
                    ticket is not None
                    and ticket.is_open
                    and ticket.fields.get("decision_id") == decision.decision_id
                ):
                    tickets.close(ticket.id, by=by, reason=f"{MOVED_REASON} routed to {controller}")
        return self.run(decision, [controller], pipeline=False)


def _mapped(pool: Executor, function: Callable[[_In], _Out], items: Sequence[_In]) -> list[_Out]:
    """`pool.map` with each call in a copy of the caller's context: the pool's threads then
    spend the decision's one LLM budget (`core.llm_calls`) and log its ids (`core.logs`)."""
    calls = [(contextvars.copy_context(), item) for item in items]
    return list(pool.map(lambda call: call[0].run(function, call[1]), calls))


def replayed_plan(controller: object) -> Plan | None:
    """The plan of existing controllers an evolved controller replays, if it has one."""
    data = getattr(controller, "replays", None)
    if not data:
        return None
    plan = Plan.from_dict(dict(data))
    return plan if plan.steps and plan.topology != "hook" else None
