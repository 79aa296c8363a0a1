"""Declarative controllers from YAML files in BRAIN_HOME/controllers (*.yml, *.yaml).

One file holds one controller (a mapping) or several (a list of mappings). Each is validated;
a bad file is skipped with a warning naming the file and the field, the others still load.

    name: payroll
    label: Payroll desk
    description: Salary, payslips, tax forms and expense reimbursements.
    keywords: [payroll, payslip, salary, reimbursement]   # words in any language
    examples: ["Where is my payslip for May?", "When is my expense claim paid?"]
    required_entities: []
    feeds: []                   # controllers this one's output can feed (a pipeline)
    roles: []                   # jobs the chain hands it: records, answers, outages
    handler: webhook            # knowledge_answer | local_ticket | webhook | none
    options: {url: "https://hooks.example.com/payroll", timeout_s: 3}
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from controllers.declarative import HANDLER_KINDS, DeclarativeController, validate_name
from core.limits import MAX_CONTROLLER_FILE_BYTES
from core.safe_yaml import YamlLimitError, load_yaml

log = logging.getLogger(__name__)

MAX_FILE_BYTES = MAX_CONTROLLER_FILE_BYTES


class ControllerSpec(BaseModel):
    """The schema of one YAML controller."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: str
    description: str = Field(min_length=1)
    label: str = ""
    #: The label in other languages, by language code (`{zh: <the Chinese label>}`): shown to askers
    #: writing in that language.
    labels: dict[str, str] = Field(default_factory=dict)
    keywords: list[str] = Field(default_factory=list)
    examples: list[str] = Field(default_factory=list)
    required_entities: list[str] = Field(default_factory=list)
    #: Controllers this one's output can feed: composed with one of them, it runs first and
    #: its result is their upstream input (a pipeline).
    feeds: list[str] = Field(default_factory=list)
    #: The jobs the decision chain hands this controller (`controllers.roles`: records, answers,
    #: outages).
    roles: list[str] = Field(default_factory=list)
    handler: str = "none"
    options: dict[str, Any] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return validate_name(value)

    @field_validator("roles")
    @classmethod
    def _roles(cls, values: list[str]) -> list[str]:
        return [validate_name(v.strip()) for v in values if v and v.strip()]

    @field_validator("feeds")
    @classmethod
    def _feeds(cls, values: list[str]) -> list[str]:
        return [validate_name(v.strip()) for v in values if v and v.strip()]

    @field_validator("handler")
    @classmethod
    def _handler(cls, value: str) -> str:
        if value not in HANDLER_KINDS:
            raise ValueError(f"must be one of {', '.join(HANDLER_KINDS)}")
        return value

    @field_validator("keywords", "examples", "required_entities")
    @classmethod
    def _no_blanks(cls, values: list[str]) -> list[str]:
        return [v.strip() for v in values if v and v.strip()]


def spec_fields(spec: ControllerSpec) -> dict[str, Any]:
    """The `DeclarativeController` fields a spec sets: the one place a YAML controller (from
    a controller file or an evolved one) becomes a controller; callers add `origin`."""
    return {
        "name": spec.name,
        "label": spec.label,
        "labels": dict(spec.labels),
        "description": spec.description,
        "keywords": tuple(spec.keywords),
        "examples": tuple(spec.examples),
        "required_entities": tuple(spec.required_entities),
        "feeds": tuple(spec.feeds),
        "roles": tuple(spec.roles),
        "handler": spec.handler,
        "options": dict(spec.options),
    }


@dataclass(slots=True)
class YamlLoad:
    """Controllers loaded from a folder, and one warning per skipped file or entry."""

    controllers: list[DeclarativeController] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def controller_files(directory: Path) -> list[Path]:
    """The YAML files of a folder, sorted by name (the load order decides name collisions)."""
    if not directory.is_dir():
        return []
    files = [p for p in directory.iterdir() if p.suffix in (".yml", ".yaml") and p.is_file()]
    return sorted(files, key=lambda p: p.name)


def load_yaml_controllers(directory: Path) -> YamlLoad:
    """Load every valid controller in the folder; never raises for a bad file."""
    loaded = YamlLoad()
    for path in controller_files(directory):
        try:
            loaded.controllers.extend(load_file(path))
        except ValueError as exc:
            message = f"skipped controller file {path}: {exc}"
            log.warning("%s", message)
            loaded.warnings.append(message)
    return loaded


def load_file(path: Path) -> list[DeclarativeController]:
    """The controllers of one file; raises ValueError with a readable reason."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ValueError(f"file is larger than {MAX_FILE_BYTES} bytes")
        document = load_yaml(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read it ({exc})") from exc
    except YamlLimitError as exc:
        raise ValueError(f"refused YAML: {exc}") from exc
    except yaml.YAMLError as exc:
        raise ValueError(f"invalid YAML: {' '.join(str(exc).split())}") from exc
    entries = document if isinstance(document, list) else [document]
    if document is None or not all(isinstance(entry, dict) for entry in entries):
        raise ValueError("expected a mapping (one controller) or a list of mappings")
    controllers = []
    for index, entry in enumerate(entries):
        where = f"entry {index + 1}: " if len(entries) > 1 else ""
        try:
            spec = ControllerSpec.model_validate(entry)
            controllers.append(DeclarativeController(**spec_fields(spec), origin=f"yaml:{path}"))
        except ValidationError as exc:
            raise ValueError(where + _format(exc)) from exc
        except ValueError as exc:
            raise ValueError(f"{where}{exc}") from exc
    return controllers


def _format(error: ValidationError) -> str:
    problems = []
    for item in error.errors():
        location = ".".join(str(part) for part in item["loc"]) or "(top level)"
        message = str(item["msg"]).removeprefix("Value error, ")
        problems.append(f"{location}: {message}")
    return "; ".join(problems)
