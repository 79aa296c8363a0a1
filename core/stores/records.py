"""Records kept by the stores that more than one layer reads (typed, JSON-ready)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(slots=True)
class MessageLink:
    """A Slack message tied to a decision."""

    channel: str
    ts: str
    decision_id: str
    #: The user who asked (the author of the message the decision is about).
    asker: str
    #: Root of the thread the conversation happens in.
    thread_ts: str
    #: "question" (the user's message), "reply" (the bot's answer), "clarify", "reroute".
    role: str

    def to_dict(self) -> dict[str, str]:
        """A JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, row: dict[str, Any]) -> MessageLink:
        """Rebuild a stored link (unknown keys are ignored)."""
        return cls(**{name: str(row[name]) for name in cls.__dataclass_fields__})


@dataclass(frozen=True, slots=True)
class ManifestEntry:
    """One ingested source file: its content hash and the ids of its chunks."""

    source: str
    digest: str
    chunk_ids: tuple[str, ...]
    dense: bool
    #: When this content was ingested (ISO 8601, UTC), for the console's re-ingest status;
    #: empty in entries written before it was recorded.
    ingested_at: str = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "source": self.source,
            "digest": self.digest,
            "chunk_ids": list(self.chunk_ids),
            "dense": self.dense,
            "ingested_at": self.ingested_at,
        }

    @classmethod
    def from_dict(cls, row: dict[str, Any]) -> ManifestEntry:
        """Rebuild a stored entry."""
        chunk_ids = row.get("chunk_ids") or []
        return cls(
            source=str(row["source"]),
            digest=str(row["digest"]),
            chunk_ids=tuple(str(item) for item in chunk_ids),
            dense=bool(row.get("dense", False)),
            ingested_at=str(row.get("ingested_at") or ""),
        )


#: Records a thread remembers (newest kept).
MAX_RECORDS = 20


@dataclass(slots=True)
class OpenQuestion:
    """What the bot asked in the thread and is waiting for."""

    #: The parameters still needed, in the order the controller declared them.
    parameters: list[str]
    #: The controller that needs them.
    controller: str
    #: The record waiting for them (None: the request was not filed yet).
    record: str | None
    #: The decision that asked.
    decision_id: str
    #: The text the question was about (when no record holds it).
    text: str = ""


@dataclass(slots=True)
class ConversationState:
    """One thread's (or DM session's) state."""

    key: str
    history: list[str] = field(default_factory=list)
    last_decision: str | None = None
    #: A clarification awaiting a pick, and the choices offered ([value, label] pairs).
    pending: str | None = None
    pending_choices: list[list[str]] = field(default_factory=list)
    open_question: OpenQuestion | None = None
    #: Record ids the thread is about, oldest first, each with the controller that holds it.
    records: list[str] = field(default_factory=list)
    record_controllers: dict[str, str] = field(default_factory=dict)
    users: list[str] = field(default_factory=list)
    #: The Slack workspace of the thread (None with one workspace).
    team: str | None = None

    def remember(self, record: str, controller: str) -> None:
        """The thread is (also) about `record`, the newest one."""
        if record in self.records:
            self.records.remove(record)
        self.records.append(record)
        self.record_controllers[record] = controller
        for old in self.records[:-MAX_RECORDS]:
            self.record_controllers.pop(old, None)
        del self.records[:-MAX_RECORDS]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready document (`team` only when set)."""
        data = asdict(self)
        if data["team"] is None:
            del data["team"]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ConversationState:
        """Rebuild a stored state; documents written before the open question read too."""
        question = data.get("open_question")
        return cls(
            key=str(data["key"]),
            history=[str(t) for t in data.get("history") or []],
            last_decision=data.get("last_decision"),
            pending=data.get("pending"),
            pending_choices=[[str(v), str(lb)] for v, lb in data.get("pending_choices") or []],
            open_question=OpenQuestion(**question) if question else None,
            records=[str(r) for r in data.get("records") or []],
            record_controllers=dict(data.get("record_controllers") or {}),
            users=[str(u) for u in data.get("users") or []],
            team=data.get("team"),
        )


@dataclass(slots=True)
class Ticket:
    """One ticket or typed request (`controllers.tickets.TicketStore` holds them)."""

    id: str
    kind: str
    title: str
    requester: str
    status: str = "open"
    fields: dict[str, Any] = field(default_factory=dict)
    assignee: str | None = None
    created_at: str = ""
    updated_at: str = ""
    comments: list[dict[str, str]] = field(default_factory=list)
    urge_count: int = 0
    urged_at: list[str] = field(default_factory=list)
    history: list[dict[str, str]] = field(default_factory=list)
    #: The Slack workspace it was asked in (None with one workspace); `team` is the help desk
    #: team it is queued for.
    slack_team: str | None = None

    @property
    def channel(self) -> str | None:
        """The channel the ticket was asked for in (None for imported tickets)."""
        value = self.fields.get("channel")
        return str(value) if value else None

    @property
    def is_open(self) -> bool:
        """Neither resolved nor closed: someone still owes work on it."""
        return self.status not in ("resolved", "closed")

    @property
    def team(self) -> str | None:
        """The help-desk team the ticket is queued for (`core.teams`), if any."""
        value = self.fields.get("team")
        return str(value) if value else None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (`slack_team` only when set: one workspace's tickets read as
        before)."""
        data = asdict(self)
        if data["slack_team"] is None:
            del data["slack_team"]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ticket:
        """Rebuild a stored ticket, ignoring unknown keys."""
        known = cls.__dataclass_fields__
        return cls(**{key: value for key, value in data.items() if key in known})


@dataclass(slots=True)
class Alert:
    """One escalation sent to on-call (`bot.escalation`)."""

    alert_id: str
    decision_id: str
    asker: str
    text: str
    urgency: str
    summary: str
    permalink: str | None
    oncall_channel: str
    source_channel: str
    source_thread: str
    created_at: float
    last_sent_at: float
    #: ts of every alert message posted (the first one, then each re-send).
    messages: list[str] = field(default_factory=list)
    acknowledged_by: str | None = None
    acknowledged_at: float | None = None
    #: The Slack workspace of the message (None with one workspace).
    team: str | None = None
    #: Who the alert mentions when its channel's paging names someone else (None: the
    #: configured `oncall_mention`).
    mention: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (`team` and `mention` only when set)."""
        data = asdict(self)
        for optional in ("team", "mention"):
            if data[optional] is None:
                del data[optional]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Alert:
        """Rebuild a stored alert, ignoring unknown keys."""
        known = cls.__dataclass_fields__
        return cls(**{key: value for key, value in data.items() if key in known})
