"""Evolved controllers: declarative controllers the brain wrote itself (Type A consolidation).

Each lives in `BRAIN_HOME/evolved/NAME.yaml`: the YAML controller format
(`controllers.yaml_loader.ControllerSpec`) plus `status` (`active`, or `pending` until an admin
approves it when `[evolution] require_approval` is set), the plan it replays and the cases it
came from. The registry loads the active ones with origin `evolved`. A plan of existing
controllers is replayed by the brain's runner (`replays`); a plan answered by the capability
hook is a webhook controller calling that hook.
"""

from __future__ import annotations

import logging
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import ConfigDict, Field, ValidationError

from controllers import ticket_replies
from controllers.base import ControllerContext, ControllerResult
from controllers.declarative import DeclarativeController
from controllers.yaml_loader import ControllerSpec, spec_fields
from core.safe_yaml import YamlLimitError, load_yaml
from core.wording import wording_for

log = logging.getLogger(__name__)

EVOLVED_DIR = "evolved"
EVOLVED_ORIGIN = "evolved"
Status = Literal["active", "pending"]


class EvolvedSpec(ControllerSpec):
    """An evolved controller's file: a YAML controller plus where it came from."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    status: Status = "active"
    #: The plan it replays (`core.plans.Plan.to_dict()`).
    plan: dict[str, Any] = Field(default_factory=dict)
    cases: list[str] = Field(default_factory=list)
    created_at: str = ""
    approved_by: str | None = None


#: An evolved controller's example weighs as many examples as the confirmed requests it was
#: learned from, up to this (as an organisation's corrected row weighs as many as the users who
#: agreed on it, `brain.learning.org_training.MAX_ROW_WEIGHT`). Weighing one, three confirmed
#: requests were a few texts among some 1,800 in the fit, and a fourth wording of the same
#: request read as out of scope: its semantic score was gated to a sixth of its probability.
MAX_EXAMPLE_WEIGHT = 10.0


@dataclass(kw_only=True, eq=False)
class EvolvedController(DeclarativeController):
    """A declarative controller that also carries the plan it replays."""

    replays: dict[str, Any] = field(default_factory=dict)
    status: str = "active"
    origin: str = EVOLVED_ORIGIN
    #: What each example weighs in the routing model's fit (`controllers.base.example_weight_of`).
    example_weight: float = 1.0

    def handle(self, context: ControllerContext) -> ControllerResult:
        """A plan of controllers is replayed by the brain's runner; a plan that is a person's
        note ("ask facilities in #facilities") is that note, passed on to the asker, where
        the controller only said it had noted the message; the note travels in the result's
        data too, so that a surface can take the request where it says (the Slack app posts
        it in the channel the note names, `bot.passed_notes`)."""
        note = str(self.replays.get("note") or "").strip()
        if self.handler != "none" or not note or self.replays.get("steps"):
            return super().handle(context)
        words = wording_for(ticket_replies.chinese(context))
        # `passed_note`: a surface delivers the request where the note says (a channel).
        return ControllerResult(
            ok=True, summary=words.say("evolved.note", note=note), data={"passed_note": note}
        )


def evolved_dir(home: Path) -> Path:
    return home / EVOLVED_DIR


def path_of(home: Path, name: str) -> Path:
    return evolved_dir(home) / f"{name}.yaml"


def read_spec(path: Path) -> EvolvedSpec:
    """One evolved controller's file; raises ValueError with a readable reason."""
    try:
        document = load_yaml(path.read_text(encoding="utf-8"))
        return EvolvedSpec.model_validate(document)
    except (OSError, UnicodeDecodeError, YamlLimitError, yaml.YAMLError) as exc:
        raise ValueError(f"cannot read {path}: {exc}") from exc
    except ValidationError as exc:
        raise ValueError(f"{path}: {exc.errors()[0]['msg']}") from exc


def write_spec(home: Path, spec: EvolvedSpec) -> Path:
    path = path_of(home, spec.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump(spec.model_dump(), allow_unicode=True, sort_keys=False)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{spec.name}.", suffix=".tmp")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(tmp, path)  # readers see the old file or the new one, never half of one
    return path


def controller_of(spec: EvolvedSpec) -> EvolvedController:
    """The routable controller of a spec: the YAML loader's fields (labels included) plus
    the plan it replays and its status."""
    return EvolvedController(
        **spec_fields(spec),
        replays=dict(spec.plan),
        status=spec.status,
        origin=EVOLVED_ORIGIN,
        example_weight=min(float(max(1, len(set(spec.cases)))), MAX_EXAMPLE_WEIGHT),
    )


@dataclass(slots=True)
class EvolvedLoad:
    active: list[EvolvedController] = field(default_factory=list)
    pending: list[EvolvedSpec] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def load_evolved(home: Path) -> EvolvedLoad:
    """Every evolved controller of a home; a bad file is skipped with a warning."""
    loaded = EvolvedLoad()
    folder = evolved_dir(home)
    if not folder.is_dir():
        return loaded
    for path in sorted(folder.glob("*.yaml")):
        try:
            spec = read_spec(path)
            if spec.status == "pending":
                loaded.pending.append(spec)
            else:
                loaded.active.append(controller_of(spec))
        except ValueError as exc:
            message = f"skipped evolved controller {path}: {exc}"
            log.warning("%s", message)
            loaded.warnings.append(message)
    return loaded
