"""`access`: file an access request (permission, account, password, install, licence)."""

from __future__ import annotations

import re
from typing import Any

from controllers import slots
from controllers.base import ControllerContext, ControllerResult, DryRunResult
from controllers.builtin.base import BuiltinController
from controllers.requests import file_with_guidance, known_parameters, missing_dry_run
from core.lazy import LazyPattern

#: (request type, cue) checked in order; the first match wins, "permission" otherwise.
REQUEST_TYPES: tuple[tuple[str, LazyPattern], ...] = (
    (
        "disable",
        LazyPattern(
            r"\bdisable (?:the |his |her |their )?account|deactivate|offboard|"
            r"leaver|停用|禁用|注销|离职",
            re.I,
        ),
    ),
    (
        "unlock",
        LazyPattern(r"locked|lock ?out|unlock|disabled|re-?enable|被锁|锁定|解锁|锁了", re.I),
    ),
    ("password_reset", LazyPattern(r"password|passwd|passwrod|forgot|密码|忘记", re.I)),
    (
        "mfa",
        LazyPattern(
            r"\bmfa\b|\b2fa\b|authenticator|\botp\b|双因素|多因素|令牌|动态口令|验证码", re.I
        ),
    ),
    ("install", LazyPattern(r"\binstall|安装|装一?个|装软件", re.I | re.ASCII)),
    ("licence", LazyPattern(r"licen[cs]e|许可|授权码", re.I)),
    (
        "new_account",
        LazyPattern(
            r"new (?:hire|joiner|starter|intern|employee|colleague|account)|"
            r"(?:create|set up) (?:an? |the )?(?:[\w-]+ ){0,2}accounts?\b|onboard|开通.{0,6}账号|"
            r"账号.{0,6}开通|新建账号|入职",
            re.I,
        ),
    ),
)
#: Systems commonly named in requests; matched case-insensitively as whole words.
KNOWN_SYSTEMS: tuple[str, ...] = (
    "GitLab", "GitHub", "Jira", "Confluence", "Jenkins", "Grafana", "Kibana", "Splunk",
    "AWS", "Azure", "GCP", "Kubernetes", "Okta", "Active Directory", "AD", "LDAP", "VPN",
    "Salesforce", "SAP", "Workday", "ServiceNow", "Slack", "Zoom", "Outlook", "Office 365",
    "Visio", "Docker", "Tableau", "Power BI", "Snowflake", "Vault", "SharePoint",
    "Bloomberg", "Teams", "Lucidchart", "Visual Studio", "VS Code", "Adobe Acrobat", "Figma",
    "Wind", "DBeaver", "PyCharm", "IntelliJ",
)  # fmt: skip
#: Chinese names of common systems, matched as substrings (no word boundaries in Chinese).
KNOWN_SYSTEMS_ZH: tuple[str, ...] = (
    "域账号", "邮箱", "共享盘", "共享文件夹", "数据库", "堡垒机", "企业微信", "钉钉", "飞书",
    "财务系统", "清算系统", "报销系统", "考勤系统", "代码仓库", "估值系统", "堡垒机",
)  # fmt: skip
_SYSTEM_ZH_PHRASE = LazyPattern(
    r"(?:开通|申请|访问|登录|进入|使用|登不上|打不开)\s*(?P<system>[\u4e00-\u9fff]{1,8}?(?:系统|平台|门户))"
)
_ARTICLE = LazyPattern(r"^(?:the|our|a|an|my|your|their)\s+", re.I)
_SYSTEM_WORDS = LazyPattern(
    r"(?<![\w-])(" + "|".join(re.escape(s) for s in KNOWN_SYSTEMS) + r")(?![\w-])", re.I
)
#: The same names written against Chinese characters ("Confluence权限", "Figma的授权"), where
#: `\w` sees no boundary: read only when nothing else names the system.
_SYSTEM_WORDS_IN_CHINESE = LazyPattern(
    r"(?<![A-Za-z0-9_-])(" + "|".join(re.escape(s) for s in KNOWN_SYSTEMS) + r")(?![A-Za-z0-9_-])",
    re.I,
)
_SYSTEM_PHRASES = (
    # a share path: \\fs01\settlement\reports
    LazyPattern(r"(?P<system>\\\\[\w.$-]+\\[^\s,，]+)"),
    # "the fund admin portal", "the settlement-ops mail group", "a Bloomberg terminal"
    LazyPattern(
        r"\b(?:the|our|a|an|to|for)\s+(?P<system>(?:[\w.-]+\s+){0,3}?(?:portal|system|app|"
        r"application|terminal|share|mail ?group|mailing list|distribution list|group|channel|"
        r"mailbox|database|dashboards?|repo(?:sitory)?|drive|folder|bucket|cluster|server|tool))\b",
        re.I,
    ),
    # "a Lucidchart licence", "Visual Studio license"
    LazyPattern(
        r"(?P<system>[A-Z][\w.+-]*(?:\s+[A-Z][\w.+-]*){0,2})\s*(?:的\s*)?(?:licen[cs]e|subscription|"
        r"seat|许可)",
    ),
    LazyPattern(
        r"\b(?:access|permissions?|role|rights|licen[cs]e|account)\s+(?:to|on|for|in)\s+"
        r"(?:the\s+|our\s+)?(?P<system>[\w.-]+(?:\s+(?:share|database|db|project|repo|"
        r"dashboards?|system|drive|folder|bucket|cluster))?)",
        re.I,
    ),
    LazyPattern(r"\binstall\s+(?P<system>[A-Za-z][\w.+-]*)", re.I),
    LazyPattern(r"安装\s*(?P<system>[A-Za-z][\w.+-]*|[\u4e00-\u9fff]{2,6}?)(?=[，,。\s有吗]|$)"),
    LazyPattern(
        r"(?:申请|开通|需要|给我)\s*(?P<system>[A-Za-z][\w.-]*|[\u4e00-\u9fff]{2,8}?)\s*(?:的)?"
        r"(?:管理员|只读|读写|写|访问|查询|查看)?(?:权限|账号|许可)"
    ),
)
_ROLES: tuple[tuple[str, LazyPattern], ...] = (
    (
        "admin",
        LazyPattern(
            r"\badmin(?:istrator)?\s+(?:rights|role|access|permissions?|privileges?)|"
            r"\bas (?:an? )?admin|\blocal admin|\badministrator\b|管理员",
            re.I,
        ),
    ),
    ("write", LazyPattern(r"\bwrite\b|read-?write|读写|写权限", re.I | re.ASCII)),
    ("read-only", LazyPattern(r"\bread(?:-only| only| access)?\b|只读|查看", re.I | re.ASCII)),
    ("developer", LazyPattern(r"\bdeveloper\b|\bmaintainer\b|开发者", re.I | re.ASCII)),
)
#: Words a system pattern can catch that name no system ("我需要开通权限" asks to *open* one).
_GENERIC = {
    "the", "a", "an", "my", "me", "it", "this", "that", "access", "some",
    "开通", "申请", "访问", "需要", "一个", "一些", "这个", "那个", "相关", "新的", "系统",
}  # fmt: skip
#: Requests made for another person's account: a new joiner's, a leaver's. Without an account
#: named, the request has none (the desk asks) rather than the asker's.
FOR_SOMEONE_ELSE = frozenset({"new_account", "disable"})
#: A request written for someone else ("give the new contractor a seat license", "for my
#: colleague", "she starts Monday", "帮新同事开通"): without an account named, it has none (the
#: desk asks whose) rather than the asker's.
_FOR_ANOTHER = LazyPattern(
    r"\b(?:for|give|get|grant|set up|add) (?:the |a |an |our |my |this )?(?:new )?"
    r"(?:contractor|consultant|vendor|hire|joiner|starter|intern|colleague|coworker|co-worker|"
    r"teammate|team member|employee|temp|manager|boss|assistant)s?\b|"
    r"\bfor (?:him|her|them)\b|\b(?:he|she|they) (?:starts?|joins?|is starting|are starting)\b|"
    r"(?:给|帮|为)(?:我们)?(?:新|新来的)?(?:同事|员工|实习生|外包|顾问|领导)",
    re.I,
)
#: For unlock / password reset without a named system, the usual one is the directory account.
DEFAULT_DIRECTORY_SYSTEM = "domain account (AD)"
#: An account named in the text ("账号是 zhangwei01", "account jdoe42 is locked", "用户名：li.h"):
#: the request is for it, not for the asker. Only a value shaped like an id counts (a digit, a
#: dot, an underscore or a hyphen in it, or Latin letters not all capitals after a Chinese name
#: for it): "my account is locked" names a state, "域账号 AD" a system, not an account.
_NAMED_ACCOUNT = LazyPattern(
    r"(?:(?P<en>\b(?:account|user ?name|user ?id|login(?: name| id)?)\b)|"
    r"账号|帐号|账户|帳號|用户名|用戶名|登录名|登录账号)"
    r"\s*(?:is|=|:|：|是|为|叫)?\s*(?P<account>[A-Za-z][\w.\-]*[A-Za-z0-9])",
    re.I,
)


class AccessController(BuiltinController):
    """Files access requests with system, role and account completed from the message."""

    name = "access"
    files_requests = True

    def dry_run(self, context: ControllerContext) -> DryRunResult:
        """Which required parameters are still missing? Nothing is created."""
        fields = self.fields(context)
        return missing_dry_run(self.required_entities, fields) or DryRunResult(
            ok=True, reason=f"{fields['request_type']} on {fields['system']}"
        )

    def handle(self, context: ControllerContext) -> ControllerResult:
        """File the access request; ask for what is still missing."""
        fields = self.fields(context)
        query = f"{fields['request_type'].replace('_', ' ')} {fields.get('system') or ''} approval"
        return file_with_guidance(
            context,
            kind=self.name,
            label="access request",
            fields=fields,
            required=self.required_entities,
            query=query,
        )

    def fields(self, context: ControllerContext) -> dict[str, Any]:
        """Request type, system, role and account from parameters, entities and the text."""
        known = known_parameters(context)
        text = self.text_of(context)
        request_type = known.get("request_type") or _first(REQUEST_TYPES, text) or "permission"
        system = known.get("system") or _system(text)
        assumed = False
        if not system and request_type in ("unlock", "password_reset", "disable", "new_account"):
            system, assumed = DEFAULT_DIRECTORY_SYSTEM, True
        if not system and request_type == "mfa":
            system = "MFA"
        account = known.get("account") or known.get("email") or named_account(text)
        if not account and request_type not in FOR_SOMEONE_ELSE and not _FOR_ANOTHER.search(text):
            account = context.user
        fields: dict[str, Any] = {
            "request_type": request_type,
            "system": system,
            "role": known.get("role") or _first(_ROLES, text),
            "account": account or None,
        }
        if assumed:
            fields["system_assumed"] = True
        return fields


def _first(table: tuple[tuple[str, LazyPattern], ...], text: str) -> str | None:
    return next((name for name, pattern in table if pattern.search(text)), None)


def _system(text: str) -> str | None:
    match = _SYSTEM_WORDS.search(text)
    if match:
        return _known(match.group(1))
    phrase = _SYSTEM_ZH_PHRASE.search(text)
    named = slots.named(phrase["system"], _GENERIC) if phrase else None
    if named:
        return named
    zh = next((s for s in KNOWN_SYSTEMS_ZH if s in text), None)
    if zh:
        return zh
    for pattern in _SYSTEM_PHRASES:
        found = pattern.search(text)
        named = slots.named(_ARTICLE.sub("", found["system"].strip()), _GENERIC) if found else None
        if named:
            return named
    against = _SYSTEM_WORDS_IN_CHINESE.search(text)
    return _known(against.group(1)) if against else None


def _known(word: str) -> str:
    """A known system's name as the list spells it."""
    return next((s for s in KNOWN_SYSTEMS if s.lower() == word.lower()), word)


def named_account(text: str) -> str | None:
    """The account the text names for the request (`_NAMED_ACCOUNT`), if any."""
    for match in _NAMED_ACCOUNT.finditer(text):
        value = match["account"]
        if re.search(r"[\d._-]", value) or not (match["en"] or value.isupper()):
            return value  # "域账号 AD 被锁" names the system, not an account
    return None
