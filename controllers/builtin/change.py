"""`change`: file a change request (type, target service, window, version, asset)."""

from __future__ import annotations

import re
from typing import Any

from controllers import equipment, slots
from controllers.base import ControllerContext, ControllerResult, DryRunResult
from controllers.builtin.base import BuiltinController
from controllers.requests import (
    file_request,
    file_with_guidance,
    known_parameters,
    missing_dry_run,
)
from core.cues import cues
from core.lazy import LazyPattern

#: The module's cue words and patterns (`change.cues.yaml` beside it; `core.cues`).
_CUES = cues(__name__)
_EMERGENCY = LazyPattern(_CUES.regex("emergency"), re.I)
#: Routine, pre-approved operations (the standard changes of the sample change policy).
_STANDARD = LazyPattern(_CUES.regex("standard"), re.I)
#: A rollback plan is part of a planned change ("rollback plan: redeploy v2.2", "rollback by
#: redeploying 2.13"; it ends at a full stop, not at a version's dot),
#: not a request to roll back now: its words are left out when the change's type and operation
#: and version are read (they made an upgrade with a rollback plan an emergency rollback,
#: window "immediately"; the plan's version is the one rolled back to, not the one installed).
_ROLLBACK_PLAN = LazyPattern(_CUES.regex("rollback_plan"), re.I)
_OPERATIONS: tuple[tuple[str, LazyPattern], ...] = tuple(
    (name, LazyPattern(_CUES.regex(name), re.I))
    for name in ("rollback", "asset", "capacity", "decommission", "upgrade", "release")
)
_DAYS = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend)"
_ZH_DAY = _CUES.regex("zh_day")
_ZH_PART = _CUES.regex("zh_part")
_ZH_HOUR = _CUES.regex("zh_hour")
_ZH_UNTIL = rf"\s*(?:{_CUES.regex('zh_until')})\s*(?:{_ZH_PART})?\s*(?:{_ZH_HOUR})"
#: A Chinese window is a day, a part of it and an hour or a range of hours, kept together
#: (not the day alone). An hour in Chinese numerals counts only after a day or a part of the
#: day, or as a range: alone, it can mean "a little".
_ZH_WINDOW = (
    rf"(?:{_ZH_DAY})\s*(?:{_ZH_PART})?(?:\s*{_ZH_HOUR}(?:{_ZH_UNTIL})?)?|"
    rf"(?:{_ZH_PART})\s*{_ZH_HOUR}(?:{_ZH_UNTIL})?|"
    rf"{_ZH_HOUR}{_ZH_UNTIL}|" + _CUES.regex("zh_digit_hour")
)
#: A range of clock times is joined by a hyphen, an en dash or a word (`clock_range`).
_WINDOW = LazyPattern(
    rf"(?P<window>(?:tonight|today|tomorrow|(?:this|next|on|coming) {_DAYS}|\b{_DAYS}\b|"
    r"(?:this|next) (?:week(?:end)?|month)|"
    r"before (?:the )?[\w ]{1,20}?(?= on| at|$|,|\.)|"
    "(?:at )?\\d{1,2}:\\d{2}"
    "(?:\\s*(?:" + _CUES.regex("clock_range") + ")\\s*(?:\\d{1,2}:\\d{2}|midnight|noon))?|"
    rf"{_ZH_WINDOW}))",
    re.I,
)
_TARGET = (
    LazyPattern(r"(?<![\w-])(?P<t>[a-z][a-z0-9]*(?:-[a-z0-9]+)+)(?![\w-])"),
    # A release named by its version is what a rollback undoes ("roll back release 2.3").
    LazyPattern(r"(?<![\w-])(?P<t>release\s+v?\d+(?:\.\d+)+)", re.I),
    LazyPattern(r"(?<![\w-])(?P<t>[A-Za-z][\w-]+)\s+(?:to\s+)?v?\d+(?:\.\d+)+"),
    # In Chinese: a service's name that does not run across the possessive particle (the
    # service in "restart the production environment's order service"), then one that does
    # (a gateway alone names no service). The cue file has the patterns.
    *(
        LazyPattern(_CUES.regex(name))
        for name in (
            "target_zh_given",
            "target_zh_service_after_verb",
            "target_zh_service",
            "target_zh_across_after_verb",
            "target_zh_across",
        )
    ),
    LazyPattern(
        r"\b(?:for|of|on|to) the (?P<t>[\w-]+ (?:job|service|server|cluster|database|db|api|"
        r"gateway|app))\b",
        re.I,
    ),
    # "roll back yesterday's fund portal release", "deploy the pricing engine", "we're
    # releasing the billing service v2.3" (the verb in any of its forms)
    LazyPattern(
        r"\b(?:roll(?:ing|ed)? ?back|(?:re)?deploy(?:s|ing|ed)?|releas(?:e|es|ing|ed)|"
        r"upgrad(?:e|es|ing|ed)|updat(?:e|es|ing|ed)|bump(?:s|ing|ed)?|migrat(?:e|es|ing|ed)|"
        r"patch(?:es|ing|ed)?|restart(?:s|ing|ed)?|scal(?:e|es|ing|ed))"
        r"\s+(?:the\s+|our\s+|"
        r"(?:yesterday|today|last night)'s\s+)?(?P<t>[\w-]+(?:\s+[\w-]+)?\s+(?:portal|engine|"
        r"platform|cluster|service|app|gateway|server|database))\b",
        re.I,
    ),
    LazyPattern(_CUES.regex("target_network"), re.I),
    LazyPattern(_CUES.regex("target_zh_cluster_given")),
    LazyPattern(_CUES.regex("target_zh_cluster")),
)
#: Operations that make a message naming equipment a change all the same ("roll back the
#: laptop image", "register 20 new laptops in the inventory").
_CHANGE_ONLY = frozenset({"rollback", "asset", "capacity", "decommission"})
#: Work on systems, whatever thing it names ("deploy the dashboard to the office screens",
#: "release the new version to every laptop"); "ship me a headset" is still an order.
_CHANGE_WORK = LazyPattern(_CUES.regex("change_work"), re.I)
#: What an equipment order cannot be filed without.
_EQUIPMENT_REQUIRED = ("item",)
_VERSION = LazyPattern(r"(?<![\w.])v?\d+\.\d+(?:\.\d+)?(?![\w.])")


class ChangeController(BuiltinController):
    """Files change requests; the type (standard/normal/emergency) follows the change policy."""

    name = "change"
    files_requests = True

    def dry_run(self, context: ControllerContext) -> DryRunResult:
        """Is the target named (the item, for equipment)? Nothing is created. A message that
        reports a fault of a device ("the monitor has a line across it", in either
        language) names the device but orders nothing: it is a problem for the controller that
        files incidents, so the order's dry-run does not pass on it."""
        wanted = self.equipment(context)
        if wanted is not None and context.request_type == "problem":
            return DryRunResult(
                ok=False, reason=f"a fault of a {wanted.item or 'device'} reported, not an order"
            )
        if wanted is not None:
            ordered = wanted.fields()
            return missing_dry_run(_EQUIPMENT_REQUIRED, ordered) or DryRunResult(
                ok=True, reason=f"{equipment.LABEL}: {ordered['item']}"
            )
        fields = self.change_fields(context)
        return missing_dry_run(self.required_entities, fields) or DryRunResult(
            ok=True, reason=f"{fields['change_type']} {fields['operation']} of {fields['service']}"
        )

    def handle(self, context: ControllerContext) -> ControllerResult:
        """File the change request with the KB's policy for its type; ask for the window.
        A request for equipment is an order, not a change: it is filed as one and asks only
        for what an order needs."""
        wanted = self.equipment(context)
        if wanted is not None:
            return file_request(
                context,
                kind=equipment.KIND,
                label=equipment.LABEL,
                fields=wanted.fields(),
                required=_EQUIPMENT_REQUIRED,
            )
        fields = self.change_fields(context)
        required = list(self.required_entities)
        if fields["operation"] != "asset":
            required.append("window")
        return file_with_guidance(
            context,
            kind=self.name,
            label=f"{fields['change_type']} change",
            fields=fields,
            required=required,
            query=f"{fields['change_type']} change {fields['operation']} approval lead time policy",
            policy=True,
        )

    def equipment(self, context: ControllerContext) -> equipment.EquipmentRequest | None:
        """The equipment the message orders, when it is an order: it names an item (or
        equipment in general) and no service, host, version, asset tag or change operation
        (a rollback, an asset move, capacity, a decommission) that would make it a change."""
        known = known_parameters(context)
        if known.get("operation") not in (None, "equipment"):
            return None
        text = self.text_of(context)
        wanted = equipment.read_request(text)
        if wanted is None or known.get("asset_tag") or _VERSION.search(text):
            return None
        if known.get("service") or _target(text, known.get("host")):
            return None
        if _CHANGE_WORK.search(text) or any(
            cue.search(text) for name, cue in _OPERATIONS if name in _CHANGE_ONLY
        ):
            return None
        if known.get("item"):
            wanted = equipment.EquipmentRequest(
                known["item"], wanted.recipient, wanted.deliver_to, wanted.quantity
            )
        return wanted

    def fields(self, context: ControllerContext) -> dict[str, Any]:
        """What the message says for its record: the order's fields for equipment (what a
        reply in its thread is read by: "a headset please" gives the item), else the
        change's."""
        wanted = self.equipment(context)
        return wanted.fields() if wanted is not None else self.change_fields(context)

    def change_fields(self, context: ControllerContext) -> dict[str, Any]:
        """Type, operation, target service, window, version and asset tag."""
        known = known_parameters(context)
        text = self.text_of(context)
        asked = _ROLLBACK_PLAN.sub(" ", text)  # what is asked now, without its rollback plan
        operation = known.get("operation") or next(
            (name for name, cue in _OPERATIONS if cue.search(asked)), "change"
        )
        change_type = known.get("change_type") or _change_type(asked, context.urgency)
        asset_tag = known.get("asset_tag")
        service = known.get("service") or _target(text, known.get("host"))
        if not service and (operation == "asset" or asset_tag):
            service = asset_tag or "inventory"
        window = known.get("window")
        if not window:
            parts = [m["window"].strip() for m in _WINDOW.finditer(text)]
            window = " ".join(dict.fromkeys(parts)) or None
        if not window and change_type == "emergency":
            window = "immediately"
        version = _VERSION.search(asked)  # the one installed, not the rollback plan's
        return {
            "change_type": change_type,
            "operation": operation,
            "service": service,
            "window": window,
            "version": version.group(0) if version else None,
            "asset_tag": asset_tag,
        }


_EXPLICIT_TYPE = LazyPattern(_CUES.regex("explicit_type"), re.I)
_ZH_TYPES = _CUES.table("zh_types")


def _change_type(text: str, urgency: str) -> str:
    explicit = _EXPLICIT_TYPE.search(text)
    if explicit:
        return explicit["type"].lower() if explicit["type"] else _ZH_TYPES[explicit["zh"]]
    if _EMERGENCY.search(text) or urgency == "critical":
        return "emergency"
    if _STANDARD.search(text):
        return "standard"
    return "normal"


#: The verbs of a change, in their forms: the word before a version is the service only when
#: it is none of them ("billing-api 2.3" names billing-api; "releasing v2.3" names nothing).
_VERB_FORMS = frozenset(
    stem + ending for stem in _CUES.words("verb_stems") for ending in _CUES.words("verb_endings")
)


def _target(text: str, host: str | None) -> str | None:
    """The service the change is for: what a target phrase names (`controllers.slots`; "the
    new service" and "this cluster" name none), else the host the message names."""
    for pattern in _TARGET:
        match = pattern.search(text)
        target = slots.named(match["t"], _VERB_FORMS) if match else None
        if target:
            return target
    return host
