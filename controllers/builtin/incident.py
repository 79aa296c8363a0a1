"""`incident`: file an end-user IT incident with category, error code, host and asset."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from controllers import ticket_replies as say
from controllers.base import ControllerContext, ControllerResult, DryRunResult
from controllers.builtin.base import BuiltinController
from controllers.incident_categories import learned_category, likeliest_category
from controllers.requests import file_with_guidance, known_parameters, missing_dry_run
from core.cues import cues

#: The category cues and error-code words (`incident.cues.yaml` beside it; `core.cues`).
_CUES = cues(__name__)
#: Cues match English words at ASCII word boundaries, so "VPN" written against Chinese reads
#: as VPN: with Unicode boundaries a CJK character is a word character and `\bvpn\b` would
#: miss it.
_CUE_FLAGS = re.I | re.ASCII
#: (category, cue) checked in order: a phishing *email* is a security incident, not email. A
#: message that uses no cue is read by the learned model (`controllers.incident_categories`).
CATEGORIES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(_CUES.regex(name), _CUE_FLAGS))
    for name in ("security", "vpn", "network", "email", "printer", "phone", "hardware", "software")
)
_ERROR_CODE = re.compile(
    f"(?:{_CUES.regex('error_code_words')}){_CUES.regex('error_code_separator')}"
    # A named code is written in capitals ("CRITICAL_PROCESS_DIED"): case-insensitive, "the
    # code right now" gave the code "right".
    r"(?P<code>(?-i:[A-Z][A-Z_]{3,})\b|0x[0-9A-F]+|\d{2,5})",
    re.I,
)


class IncidentController(BuiltinController):
    """Files incidents for end-user IT problems; security ones are flagged for escalation."""

    name = "incident"
    files_requests = True
    #: The category is one of these (`controllers.base.closed_values`).
    field_values: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "category": tuple(name for name, _ in CATEGORIES)
    }

    def dry_run(self, context: ControllerContext) -> DryRunResult:
        """Can the problem be categorised? Nothing is created."""
        fields = self.fields(context)
        return missing_dry_run(self.required_entities, fields) or DryRunResult(
            ok=True, reason=f"{fields['category']} incident"
        )

    def handle(self, context: ControllerContext) -> ControllerResult:
        """File the incident with first-line guidance from the knowledge base (nothing when the
        diagnosis it follows found only alerts that have resolved)."""
        if _diagnosis(context).get("state") == "resolved":
            return ControllerResult(ok=True, summary=say.resolved_alert(say.chinese(context)))
        fields = self.fields(context)
        query = " ".join(
            str(v)
            for v in (fields.get("category"), fields.get("error_code"), self.text_of(context))
            if v
        )
        result = file_with_guidance(
            context,
            kind=self.name,
            label="incident",
            fields=fields,
            required=self.required_entities,
            query=query,
            # "hardware" finds the laptop pages for "the projector won't show my laptop
            # screen", and would count as a word of the report they address.
            judged_on=self.text_of(context),
        )
        # On-call is paged for a security incident the brain's escalation decision found (it
        # sets the category) or the user stated, not for a cue word of the category guess
        # ("the roof leak over my desk"): pages need real evidence.
        if known_parameters(context).get("category") == "security":
            result.escalate = True
            result.summary += say.security_advice(say.chinese(context))
        return result

    def fields(self, context: ControllerContext) -> dict[str, Any]:
        """Category, error code, host, asset tag and related ticket."""
        known = known_parameters(context)
        text = self.text_of(context)
        cued = [name for name, cue in CATEGORIES if cue.search(text)]
        category = (
            known.get("category")
            or ("security" if "security" in cued else None)  # a cue of it is never outvoted
            or (likeliest_category(text, cued) if cued else None)
            or _diagnosed_category(context)
            or learned_category(text)
        )
        error_code = known.get("error_code")
        if not error_code:
            match = _ERROR_CODE.search(text)
            error_code = match["code"] if match else None
        return {
            "category": category,
            "error_code": error_code,
            "host": known.get("host"),
            "asset_tag": known.get("asset_tag"),
            "related_ticket": known.get("ticket_id"),
        }


def _diagnosis(context: ControllerContext) -> Mapping[str, Any]:
    """The structured output of the diagnosis this incident follows in a pipeline ({} alone)."""
    data = (context.upstream or {}).get("data")
    return data if isinstance(data, Mapping) else {}


def _diagnosed_category(context: ControllerContext) -> str | None:
    """The category the upstream diagnosis names, when it is one of the incident's."""
    category = _diagnosis(context).get("category")
    return category if category in IncidentController.field_values["category"] else None
