"""Urgency (seed 002's rules, extended to English and Chinese cues) and security-event detection.

Urgency is judged apart from the vote: critical for explicit emergencies, company-wide impact and
every security incident; high for same-day / blocking cues and requests for escalation or a
human; medium for complaints; else low.

Security detection is independent of the vote as well, because a missed phishing click is the
costliest mistake: a security cue plus a report of an event ("I clicked", "点开了", "中毒")
is an incident even when no recognizer said so. A security cue inside a question about policy
or how-to ("what is our phishing policy", "如何识别钓鱼邮件") is a consultation, not an event.
"""

from __future__ import annotations

import re
from typing import Literal

from core.records import Urgency

__all__ = ["HandoffSignal", "SecuritySignal", "handoff_signal", "security_signal", "urgency"]

SecuritySignal = Literal["event", "question"] | None
HandoffSignal = Literal["human_handoff", "escalation"] | None


def _words(*alternatives: str) -> str:
    """ASCII cues match whole words; others (CJK) as substrings."""
    parts = []
    for cue in alternatives:
        escaped = re.escape(cue).replace(r"\ ", r"\s+")
        parts.append(rf"(?<![a-z0-9]){escaped}(?![a-z0-9])" if cue.isascii() else escaped)
    return "|".join(parts)


_NEGATED = re.compile(
    _words(
        "not urgent",
        "not an emergency",
        "no rush",
        "no hurry",
        "low priority",
        "whenever you can",
        "when you have time",
        "不紧急",
        "不着急",
        "不急",
        "不用急",
        "有空",
    )
)

_CRITICAL = re.compile(
    _words(
        "urgent",
        "urgently",
        "emergency",
        "p0",
        "sev0",
        "sev1",
        "sev 1",
        "sev-1",
        "company-wide",
        "companywide",
        "company wide",
        "entire company",
        "whole company",
        "everyone is affected",
        "affecting everyone",
        "affects everyone",
        "紧急",
        "全公司",
        "大面积",
        "全部用户",
    )
    + r'|severity\s*[=:]\s*"?critical'
)

_HIGH = re.compile(
    _words(
        "asap",
        "as soon as possible",
        "today",
        "right now",
        "immediately",
        "blocking",
        "blocked",
        "blocker",
        "production down",
        "prod down",
        "prod is down",
        "production is down",
        "outage",
        "critical",
        "p1",
        "sev2",
        "sev 2",
        "deadline",
        "all users",
        "nobody can",
        "no one can",
        "全员",
        "所有人都",
        "今天",
        "马上",
        "尽快",
        "立刻",
        "立即",
        "赶紧",
        "影响业务",
        "生产故障",
        "线上故障",
        "宕机",
        "急",
    )
)

_SECURITY_TOPIC = re.compile(
    _words(
        "phishing",
        "phish",
        "malware",
        "virus",
        "ransomware",
        "ransom",
        "bitcoin",
        "trojan",
        "spyware",
        "keylogger",
        "infected",
        "infection",
        "hacked",
        "compromised",
        "data leak",
        "data breach",
        "breach",
        "leaked",
        "suspicious link",
        "suspicious login",
        "suspicious email",
        "pretending to be",
        "impersonating",
        "social engineering",
        "mfa code",
        "2fa code",
        "verification code",
        "one-time code",
        "钓鱼",
        "病毒",
        "中毒",
        "感染病毒",
        "勒索",
        "木马",
        "被盗",
        "盗号",
        "泄露",
        "泄漏",
        "入侵",
        "被黑",
        "可疑链接",
        "可疑邮件",
        "异常登录",
        "冒充",
        "冒用",
        "验证码",
        "自己运行",
        "后缀全变",
    )
    # A lost or stolen data-bearing device, and credentials exposed where others can read them.
    + r"|(?<![a-z])(?:lost|left|stolen)\b.{0,30}\b(?:laptop|notebook|usb|"
    r"hard drive|macbook)"
    + r"|(?:笔记本|电脑|u盘|硬盘).{0,6}(?:丢了|丢失|被偷)"
    + r"|(?<![a-z])(?:pushed|posted|pasted|committed|shared|exposed|leaked)\b.{0,40}"
    r"\b(?:password|access key|api key|secret|token|credentials?)\b"
    + r"|\b(?:password|access key|api key|secret|token|credentials?)\b.{0,40}"
    r"\b(?:pushed|posted|pasted|committed|exposed|leaked)\b"
    + r"|(?:密码|密钥|凭证|token|key).{0,12}(?:贴在|发到|发在|泄露|公开)"
)

# Reports of something that happened: these win even over question framing.
_SECURITY_EVENT_STRONG = re.compile(
    _words(
        "clicked",
        "opened",
        "downloaded",
        "entered my",
        "typed my",
        "gave my",
        "gave them",
        "read them",
        "told them",
        "was hacked",
        "been hacked",
        "got hacked",
        "is compromised",
        "was compromised",
        "been compromised",
        "infected",
        "encrypted",
        "has been leaked",
        "was leaked",
        "were leaked",
        "pushed",
        "posted",
        "pasted",
        "lost my",
        "stolen",
        "点开了",
        "点了",
        "打开了",
        "下载了",
        "输入了",
        "中了",
        "中毒",
        "感染了",
        "被加密",
        "被盗",
        "被黑",
        "被入侵",
        "泄露了",
        "泄漏了",
        "贴在",
        "丢了",
    )
)

# Security words in a benign report: a clean scan, a drill, a false positive.
_SECURITY_BENIGN = re.compile(
    _words(
        "virus scan",
        "scan finished",
        "scan completed",
        "all clean",
        "no virus",
        "no malware",
        "false positive",
        "simulation",
        "drill",
        "误报",
        "没有病毒",
        "没发现",
        "未发现",
        "演练",
        "扫描完成",
    )
)

# Consultation framing: policy, training, definitions, hypotheticals, questions.
_QUESTION = re.compile(
    _words(
        "policy",
        "policies",
        "procedure",
        "process for",
        "training",
        "guideline",
        "guidelines",
        "awareness",
        "newsletter",
        "what is",
        "what's",
        "what are",
        "how do",
        "how does",
        "how to",
        "how can",
        "how should",
        "how many",
        "what should i do if",
        "what to do if",
        "if i",
        "if someone",
        "in case",
        "usually",
        "政策",
        "制度",
        "规定",
        "流程",
        "培训",
        "是什么",
        "什么是",
        "如何",
        "怎么",
        "怎样",
        "应该",
        "需要几",
        "如果",
        "万一",
        "吗",
    )
    + r"|[?？]\s*$"
)

# Urgency words used as the name of a thing ("紧急变更" is a change type), not as a cue.
_TERM_USES = re.compile(r"紧急变更|emergency change|urgent change|紧急流程|emergency procedure")

_HANDOFF = re.compile(
    r"(?:talk|speak|chat)\s+(?:to|with)\s+(?:a\s+)?(?:real\s+)?(?:human|person|people|agent|"
    r"someone real)|(?<![a-z])not\s+a\s+bot|(?<![a-z])real\s+person"
    r"|转人工|人工客服|找真人|真人客服|要人工"
)
_ESCALATE = re.compile(
    r"(?<![a-z])(?:please\s+escalate|escalate\s+(?:this|it|to|please|now|asap))"
    r"|(?<![a-z])page\s+(?:the\s+|someone|whoever)"
    r"|(?:get|call|page|contact|ping)\s+(?:me\s+)?(?:whoever|someone|the)?\s*(?:is\s+)?on[- ]?call"
    r"|(?:联系|找|叫|通知)(?:一下)?值班|升级处理|升级给|升级到值班"
)
# Asking about escalation ("how do I escalate?", "who is on call?") is not a request for it.
_ABOUT_ESCALATION = re.compile(
    _words("how do", "how to", "how can i", "who", "what", "when", "policy", "procedure", "process")
    + "|流程|规定|怎么|如何|谁|哪位|什么"
)


def _is_question(lowered: str) -> bool:
    return bool(_QUESTION.search(lowered))


def security_signal(text: str) -> SecuritySignal:
    """ "event" for a reported security incident; "question" when security is discussed but
    nothing happened (a question, a policy, a clean scan, a drill); None when the text is not
    about security at all."""
    lowered = text.lower()
    if not _SECURITY_TOPIC.search(lowered):
        return None
    if _SECURITY_EVENT_STRONG.search(lowered):
        return "event"
    if _is_question(lowered) or _SECURITY_BENIGN.search(lowered):
        return "question"
    # A weak report or a bare mention ("phishing email in my inbox") is treated as a report.
    return "event"


def handoff_signal(text: str) -> HandoffSignal:
    """ "human_handoff" for an explicit request for a person, "escalation" for an explicit
    request to escalate or reach on-call, None otherwise (questions about on-call are None)."""
    lowered = text.lower()
    if _HANDOFF.search(lowered):
        return "human_handoff"
    if _ESCALATE.search(lowered) and not _ABOUT_ESCALATION.search(lowered):
        return "escalation"
    return None


def urgency(text: str, intent: str) -> Urgency:
    """Seed 002's urgency, with English and Chinese cues; negated cues ("not urgent") ignored."""
    lowered = _NEGATED.sub(" ", text.lower())
    if _is_question(lowered):
        lowered = _TERM_USES.sub(" ", lowered)
    if _CRITICAL.search(lowered) or intent == "security_incident":
        return "critical"
    if _HIGH.search(lowered) or intent in ("escalation", "human_handoff"):
        return "high"
    if intent == "complaint":
        return "medium"
    return "low"
