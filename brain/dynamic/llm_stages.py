"""Optional LLM help for Draft and Critique: a voter, never a ruler.

The LLM may propose a plan and may veto one the deterministic critique passed; it can never
pass a plan the deterministic checks failed, so a plan it proposes is still dry-run and
checked for clues like any other. Its answers are validated JSON (pydantic, unknown fields
refused, controllers must be registered); the message is quoted as untrusted data; the fixed
system prompt is marked for prompt caching; all calls of one decision share one deadline
(the client's timeout, with its retries inside); tokens and cost are counted per decision.
Any failure (no answer, garbage, a stall, a hostile plan) leaves the deterministic stages
deciding alone.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from math import inf
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from brain.dynamic.draft import Constraints, Draft, plan_of
from brain.dynamic.situation import Situation
from core.llm_calls import llm_time_left
from core.plans import CritiqueCheck, LLMUsage
from core.prompts import INJECTION_GUARD, JSON_ONLY, quote_data

if TYPE_CHECKING:
    from brain.parts import RegistryView
    from core.llm import LLMClient, LLMReply

#: USD per million tokens: input, output, cache read, cache write (by model name prefix).
PRICES: dict[str, tuple[float, float, float, float]] = {
    "claude-haiku": (1.0, 5.0, 0.10, 1.25),
    "claude-sonnet": (3.0, 15.0, 0.30, 3.75),
    "claude-opus": (15.0, 75.0, 1.50, 18.75),
}


class _Step(BaseModel):
    model_config = ConfigDict(extra="forbid")
    controller: str
    role: Literal["primary", "supporting"] = "primary"


class _PlanAnswer(BaseModel):
    """The only shape a drafted plan may take (no escalation, no free-form actions)."""

    model_config = ConfigDict(extra="forbid")
    steps: list[_Step] = Field(min_length=1, max_length=3)
    topology: Literal["single", "pipeline", "parallel"]
    reason: str = Field("", max_length=500)


class _Verdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    covers: bool
    reason: str = Field("", max_length=500)


class LLMStages:
    """The LLM stages of one decision (one deadline for all of its calls)."""

    def __init__(self, llm: LLMClient, view: RegistryView) -> None:
        self.llm = llm
        self.names = list(view.names)
        left = llm_time_left()  # what earlier stages (the intent call) left of the budget
        self.deadline = time.monotonic() + min(llm.timeout_s, left if left is not None else inf)
        catalogue = "\n".join(
            f"- {c.name}: {' '.join(str(c.description).split())[:200]}" for c in view.controllers
        )
        self._draft_system = (
            "You plan how an IT-operations assistant handles a request that no single "
            "controller clearly takes. Controllers:\n"
            f"{catalogue}\n"
            "Answer with a plan of 1 to 3 of these controllers: "
            '{"steps": [{"controller": NAME, "role": "primary"|"supporting"}], '
            '"topology": "single"|"pipeline"|"parallel", "reason": SHORT}. '
            "Use only the names above. A pipeline runs in order, each step's result feeding the "
            "next. Never add other fields.\n"
            f"{INJECTION_GUARD}\n{JSON_ONLY}"
        )
        self._critique_system = (
            "You check whether a plan of controllers really covers an IT-operations request. "
            f"Controllers:\n{catalogue}\n"
            'Answer {"covers": true|false, "reason": SHORT}.\n'
            f"{INJECTION_GUARD}\n{JSON_ONLY}"
        )

    @classmethod
    def of(cls, llm: LLMClient | None, view: RegistryView) -> LLMStages | None:
        return None if llm is None else cls(llm, view)

    def draft(
        self,
        situation: Situation,
        constraints: Constraints,
        drafts: Sequence[Draft],
        usage: LLMUsage,
    ) -> Draft | None:
        """A validated plan proposal, or None (the deterministic drafts stand)."""
        excluded = sorted(constraints.excluded_controllers) + sorted(
            constraints.excluded_signatures
        )
        user = "\n".join(
            [
                quote_data(situation.text),
                f"Recognised intent: {situation.intent.intent}; entities: {situation.entities}",
                f"Ruled out: {', '.join(excluded) or 'nothing'}",
                "Deterministic drafts: "
                + ("; ".join(d.plan.describe() for d in drafts[:3]) or "none"),
            ]
        )
        reply = self._ask("draft", self._draft_system, user, self._valid_plan, usage)
        if reply is None:
            return None
        answer: _PlanAnswer = reply.data
        names = [step.controller for step in answer.steps]
        plan = plan_of(names, situation, "llm")
        if not constraints.allows(plan):
            usage.statuses[-1] = "draft: refused (a ruled-out plan)"
            return None
        plan.note = f"LLM: {answer.reason[:200]}"
        return Draft(plan, 0.0, [f"proposed by the LLM: {answer.reason[:120]}"])

    def critique(self, situation: Situation, item: Draft, usage: LLMUsage) -> CritiqueCheck | None:
        """A veto when the LLM finds that the plan does not cover the request, else None."""
        user = "\n".join([quote_data(situation.text), f"Plan: {item.plan.describe()}"])
        reply = self._ask("critique", self._critique_system, user, self._valid_verdict, usage)
        if reply is None or reply.data.covers:
            return None
        return CritiqueCheck("boundary", False, f"LLM critique: {reply.data.reason[:200]}")

    # -- calls ------------------------------------------------------------------------------
    def _ask(
        self, stage: str, system: str, user: str, validate: Any, usage: LLMUsage
    ) -> LLMReply | None:
        # The decision's one deadline (passed down, never renewed); its own only when no
        # decision's count is open (a stage run alone).
        shared = llm_time_left()
        left = shared if shared is not None else self.deadline - time.monotonic()
        if left <= 0:
            usage.statuses.append(f"{stage}: skipped (the decision's LLM deadline passed)")
            return None
        reply = self.llm.complete_json(
            system=system,
            user=user,
            validate=validate,
            purpose=f"dcr-{stage}",
            cache_system=True,
            timeout_s=left,  # what earlier calls of this decision left, not a fresh timeout
        )
        usage.calls += 1
        usage.statuses.append(f"{stage}: {reply.status}")
        self._count(reply, usage)
        return reply if reply.ok else None

    def _valid_plan(self, data: Any) -> _PlanAnswer | None:
        try:
            answer = _PlanAnswer.model_validate(data)
        except ValidationError:
            return None
        if any(step.controller not in self.names for step in answer.steps):
            return None  # a controller that does not exist: the whole plan is refused
        return answer

    @staticmethod
    def _valid_verdict(data: Any) -> _Verdict | None:
        try:
            return _Verdict.model_validate(data)
        except ValidationError:
            return None

    def _count(self, reply: LLMReply, usage: LLMUsage) -> None:
        counts = reply.usage or {}
        read = counts.get("cache_read_input_tokens", 0)
        write = counts.get("cache_creation_input_tokens", 0)
        fresh, out = counts.get("input_tokens", 0), counts.get("output_tokens", 0)
        usage.input_tokens += fresh
        usage.output_tokens += out
        usage.cache_read_tokens += read
        usage.cache_write_tokens += write
        price = next(
            (p for prefix, p in PRICES.items() if self.llm.model.startswith(prefix)),
            PRICES["claude-haiku"],
        )
        cost = (fresh * price[0] + out * price[1] + read * price[2] + write * price[3]) / 1e6
        usage.cost_usd = round(usage.cost_usd + cost, 6)
