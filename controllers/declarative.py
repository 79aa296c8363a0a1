"""A controller described by data: metadata plus one handler kind.

Used for YAML controllers in BRAIN_HOME/controllers, for `brain eval --train` (one controller per
label built from its examples), and as the metadata carrier of the built-ins.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from controllers import answering
from controllers.base import ControllerContext, ControllerResult, DryRunResult
from controllers.ids import PREFIXES
from controllers.requests import check_required, file_request, known_parameters
from controllers.tickets import GENERIC_KIND
from controllers.webhook import DEFAULT_TIMEOUT_S, post_json, unreachable, webhook_payload
from core.limits import WEBHOOK_MAX_TIMEOUT_S

HandlerKind = Literal["knowledge_answer", "local_ticket", "webhook", "none"]
HANDLER_KINDS: tuple[str, ...] = get_args(HandlerKind)
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


def validate_name(name: str) -> str:
    """A controller name is lower_snake (it is also the KB domain and a JSON key)."""
    if not NAME_PATTERN.match(name):
        raise ValueError(
            f"controller name {name!r} must be lower_snake: a-z first, then a-z, 0-9 or _ "
            "(at most 64 characters)"
        )
    return name


@dataclass(kw_only=True, eq=False)
class DeclarativeController:
    """A controller whose behaviour is one of the handler kinds of `HANDLER_KINDS`.

    Options by handler: `knowledge_answer` takes `domain` (default: the controller's name);
    `local_ticket` takes `ticket_type` (incident/access/change/ticket, default ticket) and
    `category` (the desk's queue the ticket is filed in: an imported category's name);
    `webhook` takes `url` (required), `timeout_s` and `headers`.
    """

    name: str
    description: str
    label: str = ""
    #: The label in other languages, by language code ("zh").
    labels: Mapping[str, str] = field(default_factory=dict)
    keywords: Sequence[str] = ()
    examples: Sequence[str] = ()
    required_entities: Sequence[str] = ()
    feeds: Sequence[str] = ()
    roles: Sequence[str] = ()
    handler: str = "none"
    options: Mapping[str, Any] = field(default_factory=dict)
    origin: str = "declarative"

    def __post_init__(self) -> None:
        validate_name(self.name)
        if self.handler not in HANDLER_KINDS:
            raise ValueError(f"handler must be one of {HANDLER_KINDS}, not {self.handler!r}")
        if self.handler == "webhook" and not str(self.options.get("url") or "").startswith(
            ("http://", "https://")
        ):
            raise ValueError("a webhook controller needs options.url starting with http(s)://")
        if self.handler == "webhook":
            _check_webhook_options(self.options)
        ticket_type = self.options.get("ticket_type", GENERIC_KIND)
        if self.handler == "local_ticket" and ticket_type not in PREFIXES:
            raise ValueError(f"ticket_type must be one of {tuple(PREFIXES)}, not {ticket_type!r}")
        category = self.options.get("category")
        if category is not None and (not isinstance(category, str) or not category.strip()):
            raise ValueError(f"options.category must be a non-empty string, not {category!r}")
        self.label = self.label or self.name.replace("_", " ").capitalize()
        self.labels = {str(k): str(v) for k, v in dict(self.labels).items() if v}
        self.keywords = tuple(self.keywords)
        self.examples = tuple(self.examples)
        self.required_entities = tuple(self.required_entities)
        self.feeds = tuple(validate_name(name) for name in self.feeds)
        self.options = dict(self.options)

    @property
    def files_requests(self) -> bool:
        """A `local_ticket` controller files new tickets."""
        return self.handler == "local_ticket"

    def __repr__(self) -> str:
        return f"DeclarativeController(name={self.name!r}, handler={self.handler!r})"

    def dry_run(self, context: ControllerContext) -> DryRunResult:
        """Required entities/parameters present? No side effects."""
        result = check_required(context, self.required_entities)
        if not result.ok:
            return result
        if self.handler == "local_ticket" and context.services.tickets is None:
            return DryRunResult(ok=False, reason="no ticket store is configured")
        if self.handler == "knowledge_answer" and context.services.knowledge is None:
            return DryRunResult(ok=False, reason="no knowledge base is open")
        if self.handler == "webhook":
            down = unreachable(str(self.options["url"]), context.services.webhooks)
            if down is not None:
                return DryRunResult(ok=False, reason=f"webhook {down}")
        return result

    def handle(self, context: ControllerContext) -> ControllerResult:
        """Run the handler kind; failures come back as `ok=False` results, never exceptions."""
        check = check_required(context, self.required_entities)
        if not check.ok:
            return ControllerResult(
                ok=False,
                summary=f"{self.label} needs {', '.join(check.missing)} first.",
                missing=check.missing,
            )
        if self.handler == "knowledge_answer":
            domain = str(self.options.get("domain") or self.name)
            evidence = answering.gather(context.services.knowledge, context.text, domain=domain)
            return answering.answer(context.text, evidence, context.services.llm)
        if self.handler == "local_ticket":
            fields = known_parameters(context)
            if self.options.get("category"):
                fields = {**fields, "category": str(self.options["category"])}
            return file_request(
                context,
                kind=str(self.options.get("ticket_type", GENERIC_KIND)),
                label=self.label,
                fields=fields,
                required=self.required_entities,
            )
        if self.handler == "webhook":
            return post_json(
                str(self.options["url"]),
                webhook_payload(self.name, context),
                timeout_s=float(self.options.get("timeout_s", DEFAULT_TIMEOUT_S)),
                headers=self.options.get("headers"),
                policy=context.services.webhooks,
            )
        return ControllerResult(
            ok=True,
            summary=f"{self.label} has noted your message; it takes no automatic action.",
        )


def _check_webhook_options(options: Mapping[str, Any]) -> None:
    timeout = options.get("timeout_s", DEFAULT_TIMEOUT_S)
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, int | float)
        or not 0 < timeout <= WEBHOOK_MAX_TIMEOUT_S
    ):
        raise ValueError(
            f"options.timeout_s must be a number of seconds in (0, {WEBHOOK_MAX_TIMEOUT_S:g}], "
            f"not {timeout!r}"
        )
    headers = options.get("headers", {})
    if not isinstance(headers, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
    ):
        raise ValueError("options.headers must map header names to strings")
