"""Typed records that flow through the decision chain.

Every decision is a plain, JSON-serialisable record: it can be printed, stored, explained
(`brain why`) and replayed. Nothing here knows about Slack.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Tier = Literal["fast", "verify", "dynamic"]
Outcome = Literal["routed", "clarify", "composed", "fallback"]
Urgency = Literal["low", "medium", "high", "critical"]
URGENCY_LEVELS: tuple[Urgency, ...] = ("low", "medium", "high", "critical")

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

    @property
    def session_key(self) -> str:
        """Identifies one conversation: a thread, or a user's DM/CLI stream."""
        return f"{self.channel}:{self.thread or self.user}"


@dataclass(slots=True)
class IntentResult:
    """Step 1 output: the voted intent, urgency and entities (seed 002)."""

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
    intent: dict[str, Any]
    entities: Entities
    #: Controller -> its signal scores (the strongest controllers when the registry is large).
    signals: dict[str, SignalScores]
    rationale: str
    candidates: list[str] = field(default_factory=list)
    composition: str | None = None
    dry_runs: list[DryRunRecord] = field(default_factory=list)
    tier_path: list[str] = field(default_factory=list)
    clarification: str | None = None
    result: dict[str, Any] | None = None
    memory_influences: list[str] = field(default_factory=list)
    llm_calls: int = 0
    llm_status: str = "disabled"
    latency_ms: float = 0.0
    created_at: str = ""
    feedback: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the whole record."""
        data = asdict(self)
        data["signals"] = {name: scores.to_dict() for name, scores in self.signals.items()}
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Decision:
        """Rebuild a decision stored with `to_dict`."""
        values = dict(data)
        values["dry_runs"] = [DryRunRecord(**d) for d in values.get("dry_runs", [])]
        values["signals"] = {
            name: SignalScores.from_dict(row) for name, row in values.get("signals", {}).items()
        }
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in values.items() if k in known})
