"""The connector's stored records: a change waiting for the ticket system (`OutboxChange`) and
what is known of a local ticket's issue there (`TicketLink`). Plain dicts only in the stores."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

#: What a change asks of the ticket system.
ACTIONS: tuple[str, ...] = (
    "create", "comment", "progress", "resolve", "close", "reopen", "remove", "unassign",
    "update",
)  # fmt: skip
#: A change's states: waiting (or retrying), done, refused for good (kept for a person), or
#: forgotten before it was sent (`controllers.ticket_systems.forgetting`).
STATES: tuple[str, ...] = ("pending", "sent", "failed", "dropped")


@dataclass(slots=True)
class OutboxChange:
    """One local change meant for the ticket system, written before it is sent.

    Its id is the ticket's id and the index of the change in the ticket's history
    (`INC-000001#3`): one local change is one outbox entry however often it is queued, and
    the changes of one ticket are sent in the order they were made."""

    change_id: str
    ticket_id: str
    seq: int
    action: str
    #: The comment's text (comments only) and who wrote it.
    text: str = ""
    by: str = ""
    state: str = "pending"
    attempts: int = 0
    #: Epoch seconds: when it was queued, when it may next be tried, when it was sent.
    queued_at: float = 0.0
    next_at: float = 0.0
    sent_at: float | None = None
    #: An earlier attempt may have been carried out (its answer was lost): check first.
    maybe_done: bool = False
    last_error: str = ""
    #: What it became there: the issue key, the comment id or the transition taken.
    remote: str = ""
    #: A filing: the highest key known in the desk's project before it was first sent ("IT-41",
    #: "IT-0": none); its issue has a higher one (`controllers.ticket_systems.keys`).
    floor: str = ""
    #: A removal: the comment to delete there (its id, or `sha256:` of a body maybe posted).
    target: str = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> OutboxChange:
        """Rebuild a stored change, ignoring unknown keys."""
        known = cls.__dataclass_fields__
        return cls(**{key: value for key, value in data.items() if key in known})


def comment_body(change: OutboxChange) -> str:
    """A comment as Jira shows it: who wrote it in Slack, then the words."""
    return f"{change.by} (Slack): {change.text}" if change.by else change.text


@dataclass(slots=True)
class TicketLink:
    """A local ticket's issue in the ticket system: its key, the status last seen there (a
    different one read back is a change made there), and the comments already accounted for
    (read back, or written by the connector), so none is announced twice or echoed."""

    ticket_id: str
    #: The issue's key there ("IT-42").
    issue: str
    status: str = ""
    seen_comments: list[str] = field(default_factory=list)
    #: The comments the connector wrote: (comment id, the change that wrote it).
    ours: dict[str, str] = field(default_factory=dict)
    #: The issue's last change read in full: an issue found unchanged is not read again.
    updated: str = ""
    #: The history index of the ticket's newest status change made here that was sent (or
    #: refused for good): one after it is newer than anything Jira shows.
    synced_seq: int = 0
    #: The issue's assignee last seen there or set by the connector (an account id; "" none).
    assignee: str = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (stored under "key" = "link:<ticket id>")."""
        return {"key": f"link:{self.ticket_id}", **asdict(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TicketLink:
        """Rebuild a stored link."""
        return cls(
            ticket_id=str(data["ticket_id"]),
            issue=str(data["issue"]),
            status=str(data.get("status") or ""),
            seen_comments=[str(c) for c in data.get("seen_comments") or []],
            ours={str(k): str(v) for k, v in (data.get("ours") or {}).items()},
            updated=str(data.get("updated") or ""),
            synced_seq=int(data.get("synced_seq") or 0),
            assignee=str(data.get("assignee") or ""),
        )
