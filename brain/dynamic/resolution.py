"""A person's resolution of a message the brain could not place, learned (Type A consolidation).

In a help desk an unknown request is solved by a person: someone takes the boundary or
clarification reply ("Send to a person" in Slack, `brain resolve` from a terminal, `/resolve`
in `brain chat`) and answers it with a route (an existing controller) or a short plan
(controllers and parameters, or a note such as "ask facilities in #facilities"). The resolution
is kept with the message's case in the case book (a case is made for a decision that had none,
e.g. a clarification), as a confirmed plan; `brain.dynamic.evolution.Evolution.consider` then
counts it like any confirmed plan, so three resolutions of similar messages by the same route
or plan become an evolved controller. A correction of an unknown (no controller took it) to an
existing controller is the same resolution.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.cues import cues
from core.errors import InvalidFeedback, UnknownController
from core.plans import Plan, PlanStep
from core.safe_yaml import load_yaml
from core.vector_text import encode_vector

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np

    from brain.dynamic.cases import CaseBook
    from brain.dynamic.evolution import Evolution
    from core.records import Decision

log = logging.getLogger(__name__)

#: Where a resolution's plan came from (a person, not a draft).
SOURCE = "person"


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a person's resolution did: the case it was kept with, the plan, and the evolved
    controller it completed (None while fewer than `[evolution] repeats` agree)."""

    decision_id: str
    case_id: str
    by: str
    plan: Plan
    evolved: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "decision_id": self.decision_id,
            "case_id": self.case_id,
            "by": self.by,
            "plan": self.plan.to_dict(),
            "signature": signature_of(self.plan),
            "evolved": self.evolved,
        }


def signature_of(plan: Plan) -> str:
    """What "the same resolution" means: the plan's controllers, or its note's words."""
    if plan.signature:
        return plan.signature
    words = " ".join(plan.note.lower().split())
    return "note:" + hashlib.sha1(words.encode("utf-8")).hexdigest()[:12]


def route_plan(controller: str) -> Plan:
    """The plan of "this is for CONTROLLER"."""
    return Plan(steps=[PlanStep(controller)], source=SOURCE, note=f"routed to {controller}")


#: "this is for `ticket`", "it's for ticket", "route it to ticket", "send to ticket".
_ROUTE = re.compile(cues(__name__).regex("route_to"), re.IGNORECASE)
_NAMED = re.compile(r"`([\w.-]+)`")
#: A parameter of a typed plan: `key=value`.
_PARAMETER = re.compile(r"\b([a-z_][\w-]*)=(\S+)", re.IGNORECASE)


def parse_resolution(text: str, names: Sequence[str]) -> tuple[str | None, Plan | None]:
    """A person's typed resolution as (route, None) or (None, plan), the way a help desk
    writes it in a thread or a terminal: "this is for `ticket`" (or a bare controller name)
    is a route; controllers named in backticks with `key=value` parameters are a plan
    ("`ticket` + `consultation` queue=facilities"); anything else is a note of what the
    person did ("ask facilities in #facilities"). Raises InvalidFeedback for empty text and
    UnknownController for a named controller that is not registered."""
    said = " ".join(text.split()).strip()
    if not said:
        raise InvalidFeedback("a resolution needs a controller or a note of what was done")
    route = _ROUTE.match(said) or re.fullmatch(r"`?([\w.-]+)`?", said)
    if route is not None and (route.group(1) in names or "`" in said or route.re is _ROUTE):
        if route.group(1) not in names:
            raise UnknownController(route.group(1), list(names))
        return route.group(1), None
    named = _NAMED.findall(said)
    for name in named:
        if name not in names:
            raise UnknownController(name, list(names))
    if not named:
        return None, Plan(source=SOURCE, note=said)
    steps = [PlanStep(n, "primary" if i == 0 else "supporting") for i, n in enumerate(named)]
    parameters = [f"{k}={v}" for k, v in _PARAMETER.findall(said)]
    return None, Plan(
        steps=steps,
        topology="single" if len(steps) == 1 else "parallel",
        parameters={named[0]: parameters} if parameters else {},
        source=SOURCE,
        note=said,
    )


def read_plan(path: Path) -> Plan:
    """A plan file (YAML or JSON): `controllers` (a list) or `steps`, optional `topology`
    (single, parallel, pipeline), `parameters` and `note`. A plan with no controller needs a
    note (what the person did, e.g. "ask facilities in #facilities")."""
    try:
        document = load_yaml(path.read_text(encoding="utf-8"))
    except Exception as exc:
        raise InvalidFeedback(f"cannot read the plan {path}: {exc}") from exc
    if not isinstance(document, dict):
        raise InvalidFeedback(f"the plan {path} must be a mapping")
    data = dict(document)
    if "controllers" in data and "steps" not in data:
        names = [str(n) for n in data.pop("controllers") or []]
        roles = ["primary"] + ["supporting"] * (len(names) - 1)
        data["steps"] = [{"controller": n, "role": r} for n, r in zip(names, roles, strict=True)]
    try:
        plan = Plan.from_dict(data)
    except (TypeError, ValueError) as exc:
        raise InvalidFeedback(f"the plan {path} is not a plan: {exc}") from exc
    if plan.topology not in ("single", "parallel", "pipeline"):
        raise InvalidFeedback(f"plan topology must be single, parallel or pipeline in {path}")
    if not plan.steps and not plan.note.strip():
        raise InvalidFeedback(f"the plan {path} names no controller and has no note")
    plan.source = SOURCE
    return plan


def check_plan(plan: Plan, names: Sequence[str]) -> None:
    """Every controller the plan names is registered (raises UnknownController)."""
    for controller in plan.controllers:
        if controller not in names:
            raise UnknownController(controller, list(names))


def keep(
    cases: CaseBook,
    decision: Decision,
    plan: Plan,
    *,
    by: str,
    vector: np.ndarray | None,
) -> dict[str, Any]:
    """Keep the resolution with the decision's case (made now when it had none) as its
    confirmed plan; returns the case as stored."""
    case_id = decision.dcr.case_id if decision.dcr is not None else None
    if case_id is None or cases.store.get(case_id) is None:
        case_id = decision.decision_id
        if cases.store.get(case_id) is None:
            cases.record(
                decision_id=case_id,
                text=decision.text,
                user=decision.user,
                result=decision.outcome,
                plan=None,
                vector=vector,
            )
    signature = signature_of(plan)
    entry = {"by": by, "signature": signature, "at": datetime.now(UTC).isoformat()}

    def resolve(case: dict[str, Any]) -> None:
        if case.get("vector") is None and vector is not None:
            case["vector"] = encode_vector(vector)
        case["plan"] = plan.to_dict()
        case["signature"] = signature
        case["result"] = "resolved"
        resolutions = [r for r in case.get("resolutions") or [] if r.get("by") != by]
        case["resolutions"] = [*resolutions, entry]
        if by not in case["confirmed_by"]:
            case["confirmed_by"].append(by)
        case["rejected_by"] = [u for u in case["rejected_by"] if u != by]

    stored = cases.store.modify(case_id, resolve)
    assert stored is not None
    return stored


def settle(
    cases: CaseBook,
    evolution: Evolution | None,
    decision: Decision,
    plan: Plan,
    *,
    by: str,
    vector: np.ndarray | None,
) -> Resolution:
    """Keep the resolution with its case, then let evolution consider the case (None: evolution
    is off): three alike resolutions become an evolved controller."""
    case = keep(cases, decision, plan, by=by, vector=vector)
    evolved = evolution.consider(case) if evolution is not None else None
    if evolved is not None:
        log.info("evolved controller %s from a resolution of %s", evolved, decision.decision_id)
    return Resolution(decision.decision_id, str(case["case_id"]), by, plan, evolved)


def describe(resolution: Resolution) -> str:
    """One line for a terminal or a thread."""
    plan = resolution.plan
    what = plan.describe() if plan.steps else repr(plan.note)
    line = f"resolved {resolution.decision_id} by {what} (by {resolution.by})"
    if resolution.evolved:
        line += f"; it completed the evolved controller {resolution.evolved}"
    return line


def as_json(resolution: Resolution) -> str:
    return json.dumps(resolution.to_dict(), ensure_ascii=False, indent=2)
