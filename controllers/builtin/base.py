"""Shared base of the built-ins: metadata from catalog.yaml, validated once."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources

from controllers.base import ControllerContext, DryRunResult
from controllers.requests import check_required
from controllers.yaml_loader import ControllerSpec
from core.safe_yaml import load_shipped_yaml

CATALOG = "catalog.yaml"
#: Parameters, ids and actions are read from this much of a message: enough for any real
#: request, and it keeps the parsers linear on a 100 KB paste.
ANALYSED_CHARS = 4000


@cache
def catalog() -> dict[str, ControllerSpec]:
    """The built-ins' metadata by name."""
    text = resources.files("controllers.builtin").joinpath(CATALOG).read_text(encoding="utf-8")
    specs = [ControllerSpec.model_validate(entry) for entry in load_shipped_yaml(text)]
    return {spec.name: spec for spec in specs}


class BuiltinController:
    """Metadata attributes from the catalog entry named by the subclass's `name`."""

    name: str
    label: str
    #: The label in other languages, by language code ("zh").
    labels: dict[str, str]
    description: str
    keywords: Sequence[str]
    examples: Sequence[str]
    required_entities: Sequence[str]
    feeds: Sequence[str]
    #: The jobs the chain hands it (`controllers.roles`).
    roles: Sequence[str]
    origin: str
    #: Files new tickets in the ticket store (see `controllers.base.files_requests`).
    files_requests: bool = False

    def __init__(self) -> None:
        spec = catalog()[self.name]
        self.label = spec.label
        self.labels = dict(spec.labels)
        self.description = spec.description
        self.keywords = tuple(spec.keywords)
        self.examples = tuple(spec.examples)
        self.required_entities = tuple(spec.required_entities)
        self.feeds = tuple(spec.feeds)
        self.roles = tuple(spec.roles)
        self.origin = "builtin"

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    @staticmethod
    def text_of(context: ControllerContext, limit: int = ANALYSED_CHARS) -> str:
        """The part of the message the controller analyses."""
        return context.text[:limit]

    def check_required(self, context: ControllerContext) -> DryRunResult:
        """Required entities or answered parameters present?"""
        return check_required(context, self.required_entities)
