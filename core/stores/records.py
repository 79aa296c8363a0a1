"""Records kept by the stores that more than one layer reads (typed, JSON-ready)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
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

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "source": self.source,
            "digest": self.digest,
            "chunk_ids": list(self.chunk_ids),
            "dense": self.dense,
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
        )
