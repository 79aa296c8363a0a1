"""Typed records that flow through the decision chain.

Every decision is a plain, JSON-serialisable record: it can be printed, stored, explained
(`brain why`) and replayed. Nothing here knows about Slack.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from core.plans import DcrTrace, Plan
from core.text.language import replies_in_chinese

Tier = Literal["fast", "verify", "dynamic"]
Role = Literal["primary", "supporting"]
FeedbackKind = Literal["confirm", "reject", "correct"]
FEEDBACK_KINDS: tuple[FeedbackKind, ...] = ("confirm", "reject", "correct")
#: "failed": the chosen controller failed (webhook down, exception, timeout); see the result.
Outcome = Literal["routed", "clarify", "composed", "fallback", "failed"]
Urgency = Literal["low", "medium", "high", "critical"]
URGENCY_LEVELS: tuple[Urgency, ...] = ("low", "medium", "high", "critical")
#: The levels at which someone is in a hurry: shown in every rationale, never turned away.
PRESSING: frozenset[Urgency] = frozenset({"high", "critical"})

#: Entity kinds the extractor produces; each maps to a list of distinct strings.
Entities = dict[str, list[str]]


@dataclass(frozen=True, slots=True)
class Message:
    """A plain message from any surface (Slack, terminal, CLI)."""

    text: str
    user: str = "cli"
    channel: str = "cli"
    thread: str | None = None
    #: Earlier texts of the same conversation, oldest first (used for intent and session).
    history: tuple[str, ...] = ()
    #: The Slack workspace (team id) it came from when the bot serves many workspaces; None
    #: with one workspace and in the CLI. Every record made from it carries it and is read
    #: only from the same workspace (`core.access.same_workspace`).
    team: str | None = None
    #: The thread's continuation model read it as a new request, not a follow-up of the
    #: thread's record: it inherits nothing from the ongoing work (`brain.chain.understand`).
    new_topic: bool = False

    @property
    def session_key(self) -> str:
        """Identifies one conversation: a thread, or a user's DM/CLI stream."""
        return f"{self.channel}:{self.thread or self.user}"


@dataclass(slots=True)
class IntentResult:
    """Step 1 output: the voted intent, urgency and entities (docs/design.md, "How a
    decision is made")."""

    intent: str
    confidence: float
    description: str
    urgency: Urgency
    entities: Entities
    #: Raw confidence of each recognizer ("llm", "semantic", "keyword") plus markers
    #: such as "refined_by_pattern".
    source_scores: dict[str, float] = field(default_factory=dict)
    #: "ok", "disabled", "skipped", "failed: <why>", "timeout", "invalid".
    llm_status: str = "disabled"
    group: str = "other"

    def to_dict(self) -> dict[str, Any]:
        """What a decision records of its intent (urgency and entities are kept beside it)."""
        return {
            "intent": self.intent,
            "confidence": self.confidence,
            "description": self.description,
            "group": self.group,
            "source_scores": dict(self.source_scores),
        }

    @classmethod
    def from_dict(
        cls,
        data: dict[str, Any],
        *,
        urgency: Urgency,
        entities: Entities,
        llm_status: str = "disabled",
    ) -> IntentResult:
        """Rebuild the intent a decision recorded; `{}` (a decision without one) is "other"."""
        return cls(
            intent=str(data.get("intent", "other")),
            confidence=float(data.get("confidence", 0.0)),
            description=str(data.get("description", "")),
            urgency=urgency,
            entities=entities,
            source_scores={k: float(v) for k, v in data.get("source_scores", {}).items()},
            llm_status=llm_status,
            group=str(data.get("group", "other")),
        )


@dataclass(slots=True)
class SignalScores(Mapping[str, float]):
    """One controller's routing signals (each 0..1), their weighted total and its calibrated
    confidence (for the candidates routing considered).

    `signals` holds every registered signal by name, in the registry's order, so a signal added
    to the registry shows here with no change to this record. It reads as the flat mapping the
    decision JSON carries: `{"keyword": .., "semantic": .., ..., "total": .., "confidence": ..}`.
    """

    signals: dict[str, float] = field(default_factory=dict)
    total: float = 0.0
    confidence: float | None = None

    def _flat(self) -> dict[str, float]:
        flat = {**self.signals, "total": self.total}
        if self.confidence is not None:
            flat["confidence"] = self.confidence
        return flat

    def __getitem__(self, key: str) -> float:
        return self._flat()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._flat())

    def __len__(self) -> int:
        return len(self.signals) + 1 + (self.confidence is not None)

    def to_dict(self) -> dict[str, float]:
        """The JSON shape: signal values, then `total` (and `confidence` when set)."""
        return self._flat()

    @classmethod
    def from_dict(cls, row: Mapping[str, Any]) -> SignalScores:
        """Rebuild from `to_dict` (every key but `total` and `confidence` is a signal)."""
        signals = {k: float(v) for k, v in row.items() if k not in ("total", "confidence")}
        confidence = row.get("confidence")
        return cls(
            signals=signals,
            total=float(row.get("total", 0.0)),
            confidence=None if confidence is None else float(confidence),
        )


@dataclass(slots=True)
class DryRunRecord:
    """What a controller's dry-run said, kept in the decision for `brain why`."""

    controller: str
    ok: bool
    reason: str = ""
    missing: list[str] = field(default_factory=list)


@dataclass(slots=True)
class RetrievalHit:
    """One knowledge-base passage a decision read (the admin console's "retrieval hits"):
    which passage, from where, how well it matched, and whether the answer used it."""

    passage_id: str
    source: str
    title: str
    #: The passage's text as stored (redacted at ingest), cut to `RETRIEVAL_TEXT_CAP`.
    text: str
    score: float
    #: The answer was built from this passage (it passed answer verification).
    used: bool = False


#: Characters of a retrieval hit's passage kept in the decision.
RETRIEVAL_TEXT_CAP = 300


@dataclass(slots=True)
class ExecutionPart:
    """What one controller's `handle` returned for a decision, and the role it played."""

    controller: str
    role: Role
    ok: bool
    summary: str
    details: str = ""
    #: The controller's own structured output (alerts found, ticket touched, hits...).
    data: dict[str, Any] = field(default_factory=dict)
    citations: list[str] = field(default_factory=list)
    #: Parameters the controller still needs from the user.
    missing: list[str] = field(default_factory=list)
    escalate: bool = False
    #: Set when the controller itself failed (raised, timed out, its webhook is down), as
    #: opposed to declining ("ticket not found"): the decision's outcome is then "failed".
    error: str = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (`error` only when set: records written before it read the same)."""
        data = asdict(self)
        if not data["error"]:
            del data["error"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExecutionPart:
        """Rebuild a part stored with `to_dict`."""
        return cls(**_known(cls, data))


@dataclass(slots=True)
class ExecutionResult(ExecutionPart):
    """The result of running a decision: the primary part's output, flat, as surfaces show it.

    When several controllers ran (a composition), `parts` holds each of them in run order,
    `summary` joins their summaries and `escalate` is set when any part asked for a person.
    """

    parts: list[ExecutionPart] = field(default_factory=list)
    #: Draft-Critique-Refine rounds behind the answer, when the loop ran.
    dcr_rounds: list[str] = field(default_factory=list)

    def tickets(self) -> list[tuple[ExecutionPart, dict[str, Any]]]:
        """Each ticket record (a dict with an "id") this result or one of its parts filed,
        updated or looked up, with the part that did: the thread remembers them, and a
        reroute closes the ones filed for the message it moves."""
        found = []
        for part in [self, *self.parts]:
            ticket = part.data.get("ticket")
            if isinstance(ticket, dict) and ticket.get("id"):
                found.append((part, ticket))
        return found

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; `parts` and `dcr_rounds` only when there are some."""
        data = asdict(self)
        for optional in ("parts", "dcr_rounds", "error"):
            if not data[optional]:
                del data[optional]
        for part in data.get("parts", []):
            if not part.get("error"):
                part.pop("error", None)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExecutionResult:
        """Rebuild a result stored with `to_dict`."""
        values = _known(cls, data)
        values["parts"] = [ExecutionPart.from_dict(p) for p in data.get("parts", [])]
        return cls(**values)


@dataclass(slots=True)
class FeedbackRecord:
    """One feedback on a decision: who said what, from where, and what memory kept of it."""

    kind: FeedbackKind
    controller: str | None
    user: str
    source: str = "cli"
    at: str = ""
    #: What the memory ring persisted because of this feedback, in words.
    persisted: list[str] = field(default_factory=list)
    #: Why, in the person's words (redacted): "it's a hardware order, not a fault".
    reason: str = ""

    def repeats(self, other: FeedbackRecord) -> bool:
        """The same judgement by the same person, from any surface, with or without a reason:
        it teaches the memory nothing new."""
        return (self.kind, self.controller, self.user) == (other.kind, other.controller, other.user)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (no "reason" key when none was given, as stored before)."""
        data = asdict(self)
        if not self.reason:
            del data["reason"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FeedbackRecord:
        """Rebuild a feedback stored with `to_dict` (older entries may lack some fields)."""
        values = {"controller": None, "user": "", **_known(cls, data)}
        return cls(**values)


@dataclass(frozen=True, slots=True)
class EvidenceSpan:
    """A piece of the message that decided the priority: where it is and what it counts as
    (`brain.escalation.priority`: "scope_all", "down", "payments", "resolved", ...)."""

    start: int
    end: int
    text: str
    role: str

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)


@dataclass(slots=True)
class EscalationRecord:
    """The escalation decision, made apart from routing from explicit signals only
    (`brain.escalation.decide`): whether on-call is paged, why, and the evidence behind it."""

    escalate: bool = False
    urgency: Urgency = "low"
    #: Why on-call is paged, in words (None when it is not).
    reason: str | None = None
    #: The explicit signals read from the text, in words.
    evidence: list[str] = field(default_factory=list)
    #: Security taxonomy classes of a reported security event (empty otherwise).
    security: list[str] = field(default_factory=list)
    #: A question about security or urgency: a consultation, never a page.
    consultation: bool = False
    #: The service-desk priority (P1 pages on-call; P2 notifies the owning team).
    priority: str = "P4"
    #: Who is affected: individual, team, many, all.
    impact: str = "individual"
    #: The service state as urgency: no_rush, soon, degraded, down.
    urgency_level: str = "no_rush"
    #: The spans of the message that decided impact and urgency.
    spans: list[EvidenceSpan] = field(default_factory=list)
    #: What must-page kind it is (security, outage, handoff), or None.
    kind: str | None = None
    #: The escalation model's calibrated probability of "page" (None when it did not run).
    probability: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EscalationRecord:
        """Rebuild a record stored with `to_dict`."""
        known = _known(cls, data)
        known["spans"] = [
            EvidenceSpan(**s) if isinstance(s, dict) else s for s in known.get("spans") or []
        ]
        return cls(**known)


@dataclass(slots=True)
class DecisionPart:
    """One independent request of a multi-intent message ("CPU alarm on db-01 and also I need
    Grafana access"): its own text and its own logged decision, so it gets its own feedback."""

    decision_id: str
    text: str
    controller: str | None
    confidence: float
    tier: Tier
    outcome: Outcome
    role: Role

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DecisionPart:
        """Rebuild a part stored with `to_dict`."""
        return cls(**_known(cls, data))


def _known(cls: type, data: dict[str, Any]) -> dict[str, Any]:
    """The items of `data` that are fields of the dataclass `cls`."""
    fields = cls.__dataclass_fields__  # type: ignore[attr-defined]
    return {k: v for k, v in data.items() if k in fields}


@dataclass(slots=True)
class Decision:
    """Step 4: the structured decision (the contract of ../shared/GUIDE.md)."""

    decision_id: str
    text: str
    user: str
    channel: str
    thread: str | None
    controller: str | None
    supporting: list[str]
    confidence: float
    tier: Tier
    outcome: Outcome
    escalate: bool
    urgency: Urgency
    intent: IntentResult
    entities: Entities
    #: Controller -> its signal scores (the strongest controllers when the registry is large).
    signals: dict[str, SignalScores]
    rationale: str
    candidates: list[str] = field(default_factory=list)
    composition: str | None = None
    dry_runs: list[DryRunRecord] = field(default_factory=list)
    tier_path: list[str] = field(default_factory=list)
    clarification: str | None = None
    result: ExecutionResult | None = None
    memory_influences: list[str] = field(default_factory=list)
    llm_calls: int = 0
    llm_status: str = "disabled"
    latency_ms: float = 0.0
    created_at: str = ""
    feedback: list[FeedbackRecord] = field(default_factory=list)
    #: The escalation decision behind `escalate` (None on records written before it existed).
    escalation: EscalationRecord | None = None
    #: A question asked in the thread after routing (an urgent route's missing parameters, or
    #: "is this right?" when only one controller was plausible).
    follow_up: str | None = None
    #: A multi-intent message's parts, in the order written (empty for one request).
    parts: list[DecisionPart] = field(default_factory=list)
    #: What runs: controllers, topology and I/O contract (composed and dynamic decisions).
    plan: Plan | None = None
    #: The Draft-Critique-Refine rounds and fallback ladder (dynamic decisions).
    dcr: DcrTrace | None = None
    #: The knowledge-base entry that best matched the message ("" when none did): what a
    #: lesson learned from this decision is about, besides its words.
    scenario: str = ""
    #: A lesson the decision followed as the asker's (or the organisation's) preference, in
    #: words ("you moved a message like this to consultation on 2026-12-01"); "" when none.
    preference: str = ""
    #: The knowledge-base passages the decision read, best first (empty when none).
    retrieval: list[RetrievalHit] = field(default_factory=list)
    #: What the message asks for, read before the controller (`brain.chain.request_type`):
    #: question, problem, work, update, reference or unknown ("" in older records).
    request_type: str = ""
    #: The Slack workspace the message came from (`Message.team`; None with one workspace).
    team: str | None = None
    #: The language the asker is answered in, "zh" or "en", set by a thread's follow-up turn
    #: (a bare "Jenkins" in a Chinese thread is answered in Chinese); "" reads it from `text`.
    language: str = ""
    #: The plan rules that changed the router's plan, in order (`brain.chain.plan_rules`):
    #: which rule decided where the tiers alone would have gone elsewhere.
    plan_rules: list[str] = field(default_factory=list)

    @property
    def in_chinese(self) -> bool:
        """Whether replies about this decision are in Chinese."""
        return replies_in_chinese(self.language, self.text)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the whole record (the decision JSON contract), a copy."""
        return copy.deepcopy(self.json_fields())

    def json_fields(self) -> dict[str, Any]:
        """The same dict as `to_dict`, sharing this record's own lists and dicts: for one
        immediate `json.dumps` (the decision log) without the cost of a deep copy."""
        values = {name: getattr(self, name) for name in self.__dataclass_fields__}
        values["intent"] = self.intent.to_dict()
        values["dry_runs"] = [asdict(record) for record in self.dry_runs]
        values["result"] = None if self.result is None else self.result.to_dict()
        values["feedback"] = [item.to_dict() for item in self.feedback]
        values["escalation"] = None if self.escalation is None else self.escalation.to_dict()
        values["signals"] = {name: scores.to_dict() for name, scores in self.signals.items()}
        values["retrieval"] = [asdict(hit) for hit in self.retrieval]
        if self.parts:
            values["parts"] = [part.to_dict() for part in self.parts]
        else:  # only a multi-intent decision has parts: other records keep their shape
            del values["parts"]
        if self.team is None:  # one workspace: the record carries no team field
            del values["team"]
        if not self.language:
            del values["language"]
        if not self.plan_rules:  # only when a rule changed the plan: other records keep their shape
            del values["plan_rules"]
        # Only when set: a decision the dynamic tier never saw carries none of its fields.
        for name in ("plan", "dcr"):
            part = values.pop(name)
            if part is not None:
                values[name] = part.to_dict()
        return values

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Decision:
        """Rebuild a decision stored with `to_dict`."""
        values = _known(cls, data)
        values["dry_runs"] = [DryRunRecord(**d) for d in data.get("dry_runs", [])]
        values["retrieval"] = [
            RetrievalHit(**_known(RetrievalHit, hit)) for hit in data.get("retrieval", [])
        ]
        values["intent"] = IntentResult.from_dict(
            data.get("intent") or {},
            urgency=data["urgency"],
            entities=data.get("entities", {}),
            llm_status=data.get("llm_status", "disabled"),
        )
        result = data.get("result")
        values["result"] = None if result is None else ExecutionResult.from_dict(result)
        values["feedback"] = [FeedbackRecord.from_dict(f) for f in data.get("feedback", [])]
        escalation = data.get("escalation")
        values["escalation"] = None if not escalation else EscalationRecord.from_dict(escalation)
        values["parts"] = [DecisionPart.from_dict(p) for p in data.get("parts", [])]
        values["signals"] = {
            name: SignalScores.from_dict(row) for name, row in data.get("signals", {}).items()
        }
        plan, dcr = data.get("plan"), data.get("dcr")
        values["plan"] = None if plan is None else Plan.from_dict(plan)
        values["dcr"] = None if dcr is None else DcrTrace.from_dict(dcr)
        return cls(**values)
