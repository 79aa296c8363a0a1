"""Typed records of a dynamic decision: execution plans and the Draft-Critique-Refine trace.

A `Plan` is what the brain will run for a message it did not know: which controllers, in what
topology, and which output field feeds which input (the I/O contract). A composed decision
carries one too. `DcrTrace` keeps every round of the loop (draft, the three critique checks,
the constraints the next round adds), the fallback ladder's rungs and the LLM's cost, so that
`brain why` can show why the brain answered as it did. Everything is plain JSON.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from core.wording import wording

Topology = Literal["single", "pipeline", "parallel", "hook"]
CheckName = Literal["counter_example", "boundary", "comparison"]
PlanRole = Literal["primary", "supporting"]
#: The roles in Chinese, as a composed reply tags its parts and the dynamic path names its plan
#: (the catalog's `plan_roles` terms).
ROLE_WORDS_ZH: dict[str, str] = dict(wording("zh").terms["plan_roles"])


@dataclass(slots=True)
class PlanStep:
    """One controller of a plan and the role it plays."""

    controller: str
    role: PlanRole = "primary"


@dataclass(slots=True)
class Binding:
    """One line of a plan's I/O contract: `source`'s output field feeds `target`'s input."""

    source: str
    output: str
    target: str
    input: str

    def describe(self) -> str:
        return f"{self.source}.{self.output} -> {self.target}.{self.input}"


@dataclass(slots=True)
class Plan:
    """What runs for one message: controllers, topology and the I/O contract.

    `source` says where the draft came from ("memory", "fragments", "kb-standard", "llm",
    "composition", "hook"); `hook` is set when the generic capability hook answers instead
    of a controller (topology "hook", no steps).
    """

    steps: list[PlanStep] = field(default_factory=list)
    topology: Topology = "single"
    contract: list[Binding] = field(default_factory=list)
    parameters: dict[str, list[str]] = field(default_factory=dict)
    source: str = "fragments"
    hook: str | None = None
    note: str = ""

    @property
    def controllers(self) -> list[str]:
        return [step.controller for step in self.steps]

    @property
    def primary(self) -> str | None:
        return next((s.controller for s in self.steps if s.role == "primary"), None)

    @property
    def signature(self) -> str:
        """Identifies "the same plan" across decisions (what evolution counts)."""
        if self.topology == "hook":
            return "hook"
        joiner = ">" if self.topology == "pipeline" else "+"
        return joiner.join(self.controllers)

    def describe(self) -> str:
        if self.topology == "hook":
            return "the generic capability hook"
        joiner = " -> " if self.topology == "pipeline" else " + "
        text = f"{self.topology}: {joiner.join(self.controllers)}"
        if self.contract:
            text += " (" + "; ".join(b.describe() for b in self.contract) + ")"
        return text

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Plan:
        return cls(
            steps=[PlanStep(**s) for s in data.get("steps", [])],
            topology=data.get("topology", "single"),
            contract=[Binding(**b) for b in data.get("contract", [])],
            parameters={k: list(v) for k, v in (data.get("parameters") or {}).items()},
            source=str(data.get("source", "fragments")),
            hook=data.get("hook"),
            note=str(data.get("note", "")),
        )


@dataclass(slots=True)
class CritiqueCheck:
    """One destructive check of a draft, and why it passed or failed."""

    name: CheckName
    ok: bool
    reason: str = ""


@dataclass(slots=True)
class DcrRound:
    """One Draft-Critique-Refine round."""

    number: int
    plan: Plan | None
    checks: list[CritiqueCheck] = field(default_factory=list)
    survived: bool = False
    #: What the critique turned into for the next round ("exclude alarm: ...").
    constraints: list[str] = field(default_factory=list)
    #: Which path drafted and criticised: "deterministic", or "llm" (validated).
    drafted_by: str = "deterministic"
    note: str = ""

    def describe(self) -> str:
        plan = self.plan.describe() if self.plan else "no draft"
        checks = ", ".join(f"{c.name} {'ok' if c.ok else 'FAILED'}" for c in self.checks)
        verdict = "survived" if self.survived else "rejected"
        tail = f"; next: {'; '.join(self.constraints)}" if self.constraints else ""
        return f"[{self.drafted_by}] {plan} -> {checks or 'no checks'} -> {verdict}{tail}"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DcrRound:
        plan = data.get("plan")
        return cls(
            number=int(data.get("number", 0)),
            plan=None if plan is None else Plan.from_dict(plan),
            checks=[CritiqueCheck(**c) for c in data.get("checks", [])],
            survived=bool(data.get("survived", False)),
            constraints=list(data.get("constraints", [])),
            drafted_by=str(data.get("drafted_by", "deterministic")),
            note=str(data.get("note", "")),
        )


@dataclass(slots=True)
class LLMUsage:
    """What the LLM cost one decision's dynamic stages."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cost_usd: float = 0.0
    #: Per call: "draft: ok", "draft: invalid", "critique: timeout", "draft: refused (...)".
    statuses: list[str] = field(default_factory=list)


@dataclass(slots=True)
class DcrTrace:
    """The dynamic decision behind one message: rounds, ladder rungs and what came of it."""

    rounds: list[DcrRound] = field(default_factory=list)
    #: "plan" (a plan survived), "downgraded" (a standard KB solution: a static route),
    #: "hook" (the capability hook answered), "boundary", "clarify".
    result: str = "boundary"
    #: The fallback ladder, one line per rung tried.
    ladder: list[str] = field(default_factory=list)
    #: Next steps offered with an honest boundary (who can help, escalate to a person).
    next_steps: list[str] = field(default_factory=list)
    llm: LLMUsage = field(default_factory=LLMUsage)
    #: The unknown-problem cluster this message joined (evolution counts per cluster).
    case_id: str | None = None
    cluster: str | None = None
    evolution_signal: bool = False
    #: Time the dynamic tier itself took (the rounds, the ladder, the case record).
    latency_ms: float = 0.0

    def summaries(self) -> list[str]:
        return [r.describe() for r in self.rounds]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DcrTrace:
        usage = data.get("llm") or {}
        return cls(
            rounds=[DcrRound.from_dict(r) for r in data.get("rounds", [])],
            result=str(data.get("result", "boundary")),
            ladder=list(data.get("ladder", [])),
            next_steps=list(data.get("next_steps", [])),
            llm=LLMUsage(**{k: v for k, v in usage.items() if k in LLMUsage.__dataclass_fields__}),
            case_id=data.get("case_id"),
            cluster=data.get("cluster"),
            evolution_signal=bool(data.get("evolution_signal", False)),
            latency_ms=float(data.get("latency_ms", 0.0)),
        )
