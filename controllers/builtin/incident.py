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

#: Cues match English words at ASCII word boundaries, so "VPN连不上" reads as VPN: with
#: Unicode boundaries a CJK character is a word character and `\bvpn\b` would miss it.
_CUE_FLAGS = re.I | re.ASCII
#: (category, cue) checked in order: a phishing *email* is a security incident, not email. A
#: message that uses no cue is read by the learned model (`controllers.incident_categories`).
CATEGORIES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "security",
        re.compile(
            r"phish|malware|virus|ransom|hacked|compromised|suspicious (?:link|email|login)|"
            r"stolen|leak|pretend(?:ing|ed) to be|impersonat|social engineering|"
            r"(?:gave|read|told|shared) (?:them|him|her|someone) my "
            r"(?:mfa|otp|verification|password)|"
            r"钓鱼|病毒|木马|勒索|被盗|泄露|可疑|中毒|被黑|冒充|诈骗",
            _CUE_FLAGS,
        ),
    ),
    ("vpn", re.compile(r"\bvpn\b|虚拟专网|远程接入", _CUE_FLAGS)),
    (
        "network",
        re.compile(
            r"wi-?fi|network|internet|intranet|\bdns\b|ethernet|no connection|"
            r"网络|上不了网|断网|网断|网速|无线|内网|外网|无法上网|不能上网|连不上网|网线|网口",
            _CUE_FLAGS,
        ),
    ),
    ("email", re.compile(r"e-?mail|outlook|mailbox|\bmail\b|邮箱|邮件", _CUE_FLAGS)),
    ("printer", re.compile(r"printer|print(?:ing)?\b|scanner|打印|扫描仪|卡纸", _CUE_FLAGS)),
    (
        "phone",
        re.compile(
            r"\bphone\b|softphone|headset|dial ?tone|\bteams call|\bzoom\b|\bwebex\b|"
            r"calls? (?:keep )?drop|audio|microphone|电话|座机|拨号音|耳机|麦克风|会议音频",
            _CUE_FLAGS,
        ),
    ),
    (
        "hardware",
        re.compile(
            r"laptop|desktop|monitor|screen|keyboard|mouse|battery|won't boot|blue screen|bsod|"
            r"\bdisk\b|hard drive|\bssd\b|硬盘|磁盘|内存条|风扇|"
            r"电脑|笔记本|显示器|屏幕|键盘|鼠标|电池|蓝屏|死机|开不了机|黑屏",
            _CUE_FLAGS,
        ),
    ),
    (
        "software",
        re.compile(
            r"crash|freez|won't (?:open|start)|not responding|崩溃|闪退|打不开|卡死", _CUE_FLAGS
        ),
    ),
)
_ERROR_CODE = re.compile(
    r"(?:error|err|stop code|code|错误|报错|错误码)\s*[:：#]?\s*"
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
