"""The intent taxonomy: fine-grained intents, their broad parents and stand-alone intents.

The entries are data, kept in ``taxonomy.yaml`` beside this module (shipped as package data) and
validated when it is loaded, so a bad edit fails at start-up with a message naming the entry,
never later as a wrong vote. A *generic* intent is a broad intent that has fine-grained children
(``incident``), a *specific* intent is one that has a broad parent (``network_vpn``), and the rest
(greeting, complaint, escalation, ...) are stand-alone; the vote lets a confident fine-grained
keyword hit refine a weak broad result.

``group`` names the controller domain that usually takes the intent (``conversation``,
``escalation`` and ``other`` are not controllers). It is a hint for routing, not a routing table:
the controller set is open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from core.errors import BrainError
from core.safe_yaml import load_shipped_yaml

__all__ = [
    "GENERIC_INTENTS",
    "INTENTS",
    "INTENT_NAMES",
    "OTHER",
    "SPECIFIC_INTENTS",
    "IntentSpec",
    "TaxonomyError",
    "intent_group",
    "load_taxonomy",
    "spec",
]

OTHER = "other"
#: The shipped taxonomy, a file of this package.
TAXONOMY_FILE = "taxonomy.yaml"

_Name = Annotated[str, StringConstraints(strip_whitespace=True, pattern=r"^[a-z][a-z0-9_]*$")]
_Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class TaxonomyError(BrainError, ValueError):
    """The taxonomy file is unusable; the message names the file and the entry."""


@dataclass(frozen=True, slots=True)
class IntentSpec:
    """One intent: its broad parent (None for broad and stand-alone ones) and its cues."""

    name: str
    parent: str | None
    group: str
    description: str
    keywords: tuple[str, ...]
    examples: tuple[str, ...]


class _Entry(BaseModel):
    """One entry of the file, as written (unknown keys are refused)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: _Name
    parent: _Name | None = None
    group: _Name
    description: _Text
    keywords: list[_Text] = Field(default_factory=list)
    examples: list[_Text] = Field(default_factory=list)


def load_taxonomy(path: Path | None = None) -> tuple[IntentSpec, ...]:
    """The intents of a taxonomy file (the shipped one by default), validated.

    Refused, with a `TaxonomyError` naming the entry: unknown keys, malformed names, an empty
    description, duplicate names, a parent that is not in the file or is itself a child, and
    an intent without keywords (only ``other``, the "nothing fits" intent, has none). The file
    must contain ``other``.
    """
    if path is None:
        source = f"package file brain/intent/{TAXONOMY_FILE}"
        text = (
            resources.files(__package__ or "brain.intent")
            .joinpath(TAXONOMY_FILE)
            .read_text(encoding="utf-8")
        )
    else:
        source = str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise TaxonomyError(f"{source}: cannot read it ({exc})") from exc
    try:
        document = load_shipped_yaml(text)
    except yaml.YAMLError as exc:
        raise TaxonomyError(f"{source}: invalid YAML: {' '.join(str(exc).split())}") from exc
    if not isinstance(document, list) or not document:
        raise TaxonomyError(f"{source}: expected a non-empty list of intents")
    entries = [_entry(raw, index, source) for index, raw in enumerate(document, start=1)]
    _check_links(entries, source)
    return tuple(
        IntentSpec(e.name, e.parent, e.group, e.description, tuple(e.keywords), tuple(e.examples))
        for e in entries
    )


def _entry(raw: Any, index: int, source: str) -> _Entry:
    name = raw.get("name") if isinstance(raw, dict) else None
    where = f"{source}: entry {index}" + (f" ({name!r})" if isinstance(name, str) else "")
    if not isinstance(raw, dict):
        raise TaxonomyError(f"{where}: expected a mapping with name, group, description, ...")
    try:
        return _Entry.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in item['loc']) or '(entry)'}: {item['msg']}"
            for item in exc.errors()
        )
        raise TaxonomyError(f"{where}: {problems}") from exc


def _check_links(entries: Sequence[_Entry], source: str) -> None:
    """Rules across entries: unique names, known parents one level deep, keywords, `other`."""
    seen: set[str] = set()
    for entry in entries:
        if entry.name in seen:
            raise TaxonomyError(f"{source}: intent {entry.name!r} is listed twice")
        seen.add(entry.name)
    parents = {e.name: e.parent for e in entries}
    for entry in entries:
        where = f"{source}: intent {entry.name!r}"
        if entry.parent is not None:
            if entry.parent not in parents:
                raise TaxonomyError(f"{where}: parent {entry.parent!r} is not an intent")
            if parents[entry.parent] is not None:
                raise TaxonomyError(
                    f"{where}: parent {entry.parent!r} has a parent itself (one level only)"
                )
        if not entry.keywords and entry.name != OTHER:
            raise TaxonomyError(f"{where}: has no keywords")
    if OTHER not in parents:
        raise TaxonomyError(f"{source}: the intent {OTHER!r} (nothing fits) is missing")


INTENTS: tuple[IntentSpec, ...] = load_taxonomy()

_BY_NAME: dict[str, IntentSpec] = {item.name: item for item in INTENTS}
INTENT_NAMES: frozenset[str] = frozenset(_BY_NAME)
#: Broad intents that have fine-grained children.
GENERIC_INTENTS: frozenset[str] = frozenset(i.parent for i in INTENTS if i.parent)
#: Fine-grained intents.
SPECIFIC_INTENTS: frozenset[str] = frozenset(i.name for i in INTENTS if i.parent)


def spec(name: str) -> IntentSpec:
    """The spec of an intent name (KeyError for unknown names)."""
    return _BY_NAME[name]


def intent_group(name: str) -> str:
    """The group of an intent, "other" for unknown names."""
    item = _BY_NAME.get(name)
    return item.group if item else "other"
