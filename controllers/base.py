"""The controller protocol: what every routable handler offers the brain.

Controllers see one typed `ControllerContext`, never a Slack payload. `dry_run` has no side
effects; `handle` does the work and returns a surface-neutral `ControllerResult`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from core.config import WebhookConfig
from core.text.language import replies_in_chinese

if TYPE_CHECKING:
    from controllers.tickets import TicketStore
    from core.llm import LLMClient
    from knowledge.skill import KnowledgeSkill


@dataclass(slots=True)
class ControllerServices:
    """Shared services a controller may use; each may be absent."""

    knowledge: KnowledgeSkill | None = None
    tickets: TicketStore | None = None
    llm: LLMClient | None = None
    #: Where webhook controllers may send messages (admin configuration).
    webhooks: WebhookConfig = field(default_factory=WebhookConfig)


@dataclass(slots=True)
class ControllerContext:
    """Everything a controller may know about one message."""

    text: str
    user: str
    channel: str
    thread: str | None
    decision_id: str
    intent: str
    urgency: str
    entities: dict[str, list[str]]
    services: ControllerServices = field(default_factory=ControllerServices)
    #: Output of an earlier controller in a pipeline composition (e.g. alarm -> ticket).
    upstream: dict[str, Any] | None = None
    #: Parameters already answered by the user (e.g. after a clarification).
    parameters: dict[str, str] = field(default_factory=dict)
    #: The Slack workspace of the message (None with one workspace): records carry it.
    team: str | None = None
    #: The controller the message was routed to (a pipeline's steps share it; "" in a
    #: dry-run): the help-desk team owning it is the team of the tickets it files.
    routed_to: str = ""
    #: What the chain read the message to do ("question", "problem", "work"; "" when not read,
    #: e.g. a reply in a thread): a dry-run may refuse what the message does not ask for.
    request_type: str = ""
    #: The asker's language as the conversation reads it ("zh", "en"), where the text alone
    #: would read another (`Decision.language`): "" reads it from the text.
    language: str = ""

    @property
    def in_chinese(self) -> bool:
        """Reply to this asker in Chinese? As the decision's own reply does
        (`Decision.in_chinese`), so one reply is in one language."""
        return replies_in_chinese(self.language, self.text)


@dataclass(slots=True)
class DryRunResult:
    """Can this controller take the message? No side effects were made to find out."""

    ok: bool
    reason: str = ""
    missing: list[str] = field(default_factory=list)


@dataclass(slots=True)
class ControllerResult:
    """A surface-neutral answer: text plus structured data the surface may render."""

    ok: bool
    summary: str
    details: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    citations: list[str] = field(default_factory=list)
    #: Parameters the controller still needs from the user.
    missing: list[str] = field(default_factory=list)
    escalate: bool = False
    #: Set when the controller could not do its work (its service is down, timed out...),
    #: as opposed to declining; the brain then tries the next plausible controller.
    error: str = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "ok": self.ok,
            "summary": self.summary,
            "details": self.details,
            "data": self.data,
            "citations": self.citations,
            "missing": self.missing,
            "escalate": self.escalate,
            "error": self.error,
        }


@runtime_checkable
class Controller(Protocol):
    """A routable handler. Python controllers register via the `brain.controllers` entry point.

    Optional attribute `feeds` (a sequence of controller names): the controllers this one's
    output can feed. When routing composes it with one of them, it runs first and its result is
    their `context.upstream` (a pipeline, e.g. alarm diagnosis -> ticket). Read it with
    `feeds_of`; a controller without it feeds nothing.

    Optional attribute `example_weight` (a number, default 1): what each of its `examples`
    weighs when the routing model is fitted (`example_weight_of`); an evolved controller's
    examples are requests several people confirmed.
    """

    name: str
    label: str
    description: str
    keywords: Sequence[str]
    examples: Sequence[str]
    required_entities: Sequence[str]
    origin: str

    def dry_run(self, context: ControllerContext) -> DryRunResult:
        """Check, without side effects, whether this controller can take the message."""
        ...

    def handle(self, context: ControllerContext) -> ControllerResult:
        """Do the work and return a surface-neutral result."""
        ...


def label_in(controller: object, language: str) -> str:
    """The controller's label in `language` (its optional `labels` mapping), else its label."""
    labels = getattr(controller, "labels", None) or {}
    own = str(getattr(controller, "label", "") or getattr(controller, "name", ""))
    return str(labels.get(language) or own) if isinstance(labels, Mapping) else own


def files_requests(controller: object) -> bool:
    """Does `controller` file new tickets (its optional `files_requests` attribute)? A message
    that names an existing ticket is a look-up of that ticket, never one of these."""
    return bool(getattr(controller, "files_requests", False))


def feeds_of(controller: object) -> tuple[str, ...]:
    """The controllers `controller`'s output can feed (its optional `feeds` attribute)."""
    return tuple(str(name) for name in getattr(controller, "feeds", None) or ())


def example_weight_of(controller: object) -> float:
    """What each of `controller`'s examples weighs in a fit (its optional `example_weight`;
    1 without one, never below 1)."""
    try:
        return max(1.0, float(getattr(controller, "example_weight", 1.0) or 1.0))
    except (TypeError, ValueError):
        return 1.0


def record_fields(controller: object, context: ControllerContext) -> dict[str, str]:
    """The fields a filing controller would read from `context` (its optional `fields`
    method), non-empty strings only; {} when it has none or fails. A thread's follow-up that
    names another subject than its record ("the VPN is down" beside a printer incident) is
    told apart by these."""
    reader = getattr(controller, "fields", None)
    if not callable(reader):
        return {}
    try:
        fields = reader(context)
    except Exception:  # a controller's own parser fails: no evidence either way
        return {}
    if not isinstance(fields, Mapping):
        return {}
    return {str(k): v for k, v in fields.items() if isinstance(v, str) and v.strip()}


def closed_values(controller: object, name: str) -> tuple[str, ...]:
    """The values field `name` may take when the controller names them (its optional
    `field_values` mapping: the incident categories), () when any value is one. An answer to
    the bot's question fills a closed field only with one of them, never with free text."""
    values = getattr(controller, "field_values", None)
    found = values.get(name) if isinstance(values, Mapping) else None
    return tuple(str(v) for v in found) if isinstance(found, list | tuple) else ()
