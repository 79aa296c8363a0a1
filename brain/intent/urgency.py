"""Urgency (the design's rules, extended to English and Chinese cues) and security-event detection.

Urgency is judged apart from the vote, from explicit signals only: critical for urgency words
("urgent", "紧急", "P0"), company-wide scope with an impact or outage verb ("everyone" / "全公司"
+ "down" / "上不了"; also every store, branch or office, and a negative subject such as "no one in
the office can"; never one floor or room) and every security incident; high for same-day /
blocking cues and requests for escalation or a human; medium for complaints; else low. Terms
that merely contain an urgency word ("emergency change" and "紧急变更" are change types) and
urgency words in a question about a policy are not signals.

Security detection is independent of the vote as well (the taxonomy is data, see
`brain.intent.security`): a reported event is an incident even when no recognizer said so; a
question about security ("what is our phishing policy", "如何识别钓鱼邮件") is a consultation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from brain.intent.security import find_security
from core.records import Urgency

__all__ = [
    "HandoffSignal",
    "SecuritySignal",
    "UrgencyReading",
    "handoff_signal",
    "read_urgency",
    "security_signal",
    "urgency",
]

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

#: Explicit urgency words: an emergency said in so many words.
_URGENT_WORDS = re.compile(
    _words(
        "urgent",
        "urgently",
        "emergency",
        "p0",
        "sev0",
        "sev1",
        "sev 1",
        "sev-1",
        "紧急",
        "十万火急",
    )
    + r'|severity\s*[=:]\s*"?critical'
)

#: Scope: the whole company or every user, not one person or one floor.
_SCOPE = re.compile(
    _words(
        "company-wide",
        "companywide",
        "company wide",
        "entire company",
        "whole company",
        "whole office",
        "entire office",
        "everyone",
        "everybody",
        "all users",
        "all staff",
        "all employees",
        "nobody",
        "no one",
        "全公司",
        "整个公司",
        "全员",
        "所有人",
        "所有用户",
        "全部用户",
        "大家都",
        "大面积",
        "none of us",
        "no one in the office",
        "nobody in the office",
        "across the company",
        "across the firm",
        "firm-wide",
        "firmwide",
        "whole firm",
        "entire firm",
        "org-wide",
        "organisation-wide",
        "organization-wide",
        "全体",
        "谁都",
        "没人能",
        "没有人能",
        "整个办公室",
    )
    # Every store, branch, office or site: the business, not one desk ("all stores cannot take
    # card payments", "所有门店都刷不了卡").
    + r"|(?<![a-z])(?:all|every|each)\s+(?:of\s+(?:our|the)\s+|our\s+|the\s+)?"
    r"(?:stores?|shops?|branch(?:es)?|offices?|sites?|locations?|regions?|outlets?|"
    r"departments?|customers?|clients?|colleagues|employees?|staff|users?)(?![a-z])"
    r"|(?:所有|全部|各个?|每个|每家|全国)的?(?:门店|分店|店铺|网点|分行|分公司|办公室|"
    r"办公点|站点|部门|员工|同事|客户|用户)"
)

#: One floor, room or desk: "nobody on 3F can print" is local, not company-wide.
_LOCAL = re.compile(
    r"(?<![a-z0-9])(?:\d+(?:st|nd|rd|th)?\s*(?:floor|fl|f)|(?:floor|level)\s*\d+|"
    r"(?:this|our|my|one|that|the same|the (?:first|second|third|fourth|fifth|top|ground))\s+floor|"
    r"meeting room|conference room)(?![a-z])"
    r"|[一二三四五六七八九十\d]+\s*(?:楼|层|f|F)(?!上|下)|会议室|这层|本层"
)

#: Impact and outage verbs: something does not work.
_IMPACT = re.compile(
    _words(
        "down",
        "outage",
        "offline",
        "not working",
        "isn't working",
        "is not working",
        "stopped working",
        "broken",
        "can't",
        "cant",
        "cannot",
        "can not",
        "unable",
        "failing",
        "fails",
        "no access",
        "no internet",
        "no network",
        "no wifi",
        "no wi-fi",
        "no connection",
        "no connectivity",
        "lost access",
        "are offline",
        "unreachable",
        "not able to",
        "isn't able",
        "aren't able",
        "affected",
        "nobody can",
        "no one can",
        "affecting",
        "affects",
        "上不了",
        "连不上",
        "用不了",
        "打不开",
        "登不上",
        "登录不了",
        "无法",
        "不能",
        "挂了",
        "宕机",
        "故障",
        "瘫痪",
        "断网",
        "中断",
        "受影响",
        "刷不了",
        "收不了",
        "付不了",
        "进不去",
        "上不去",
        "登不进",
        "没网",
        "网断了",
        "没法",
        "没办法",
    )
    # "no one in the office can reach ...": a negative subject with "can" is an inability.
    + r"|(?<![a-z])(?:nobody|no[- ]?one|none of us)(?:\s+(?:in|at|across)\s+(?:the\s+|our\s+)?"
    r"(?:office|company|firm|building|hq|head office|branch(?:es)?|stores?|shops?))?"
    r"\s+(?:can|could|is able|are able)(?![a-z])"
    r"|(?<![a-z])lost\s+(?:the\s+|its\s+|their\s+|our\s+|all\s+)?(?:internet|network|"
    r"connection|connectivity|wi-?fi|power|phones?|access|vpn|email)(?![a-z])"
    # Chinese "V不了 / V不出去 / V不通": the verb cannot be done.
    r"|(?:打|登|进|连|上|用|发|收|刷|付|拨|接|访|看|跑)不(?:了|出|进|上|通|去|到|动)"
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

# Urgency words used as the name of a thing ("紧急变更" is a change type), not as a cue.
_TERM_USES = re.compile(
    r"紧急变更|紧急发布|紧急流程|紧急联系人|emergency changes?|urgent changes?|emergency releases?"
    r"|emergency procedures?|emergency contacts?|emergency access process|break[- ]glass"
)

# A question about a policy or process: urgency words in it are its subject, not a cue
# ("what is the policy for urgent access requests?", "紧急变更需要几个人审批？").
_ABOUT_POLICY = re.compile(
    _words(
        "policy",
        "policies",
        "procedure",
        "process",
        "rule",
        "rules",
        "guideline",
        "guidelines",
        "what counts as",
        "what is considered",
        "how do i request",
        "how do we request",
        "who approves",
        "how many approvals",
        "approvals",
        "sla",
        "政策",
        "制度",
        "规定",
        "流程",
        "审批",
        "怎么申请",
        "如何申请",
        "算不算",
    )
)
_QUESTION_MARK = re.compile(
    r"[?？]|(?<![a-z])(?:what|how|who|which|when|is there|do we)\b|吗|怎么|如何|哪些|几个"
)


@dataclass(frozen=True, slots=True)
class UrgencyReading:
    """The urgency level and the explicit signals behind it, in words (for the rationale)."""

    level: Urgency
    cues: tuple[str, ...] = ()


def _found(pattern: re.Pattern[str], text: str) -> str:
    match = pattern.search(text)
    return match.group(0) if match else ""


_HANDOFF = re.compile(
    r"(?:talk|speak|chat)\s+(?:to|with)\s+(?:a\s+|an\s+|some\s*one\s+)?(?:real\s+|actual\s+)?"
    r"(?:human|person|people|agent|someone real|somebody real)"
    r"|(?<![a-z])not\s+a\s+bot|(?<![a-z])real\s+(?:person|human)|(?<![a-z])human\s+please"
    r"|(?:get|give|connect|put|transfer|hand)\s+(?:me|this|it)\s+(?:to\s+|with\s+|through to\s+)?"
    r"(?:a\s+|an\s+)?(?:real\s+|actual\s+)?(?:human|person|agent|someone real)"
    r"|(?:want|need)\s+(?:a\s+|an\s+)?(?:real\s+|actual\s+)?(?:human|person)(?![a-z])"
    r"|(?:a\s+)?(?:person|human)\s+(?:look at|to look at|handle|take)\s+(?:it|this)"
    r"|(?:keep|keeps|kept)\s+(?:sending|routing|putting|assigning)\s+(?:this|it|me)\s+to\s+the\s+wrong"
    r"|wrong\s+team\s+again"
    r"|(?:third|fourth|3rd|4th)\s+time\s+(?:it|this)\s+(?:went|was sent|got sent)"
    r"\s+to\s+the\s+wrong"
    r"|转人工|人工客服|人工服务|找真人|真人客服|要人工|找人工|转给人|让真人|真人来|人工处理"
    r"|(?:又|老是|总是|一直)(?:转|分|派)错"
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


def security_signal(text: str) -> SecuritySignal:
    """ "event" for a reported security incident; "question" when security is discussed but
    nothing happened (a question, a policy, a clean scan, a drill, a hypothetical); None when
    the text is not about security at all (`brain.intent.security`, the taxonomy as data)."""
    finding = find_security(text)
    return None if finding is None else finding.kind


def handoff_signal(text: str) -> HandoffSignal:
    """ "human_handoff" for an explicit request for a person, "escalation" for an explicit
    request to escalate or reach on-call, None otherwise (questions about on-call are None)."""
    lowered = text.lower()
    if _HANDOFF.search(lowered):
        return "human_handoff"
    if _ESCALATE.search(lowered) and not _ABOUT_ESCALATION.search(lowered):
        return "escalation"
    return None


def read_urgency(text: str, intent: str) -> UrgencyReading:
    """Seed 002's urgency from explicit signals only: urgency words, company-wide scope with an
    impact or outage verb, a reported security event (the `security_incident` intent, which the
    recognizer gives only with a security cue), a request for a person. Negated cues ("not
    urgent"), urgency words naming a thing ("emergency change") and urgency words in a question
    about a policy or process are not signals."""
    lowered = _NEGATED.sub(" ", text.lower())
    lowered = _TERM_USES.sub(" ", lowered)
    about_policy = bool(_ABOUT_POLICY.search(lowered) and _QUESTION_MARK.search(lowered))
    if intent == "security_incident":
        return UrgencyReading("critical", ("a reported security event",))
    word = "" if about_policy else _found(_URGENT_WORDS, lowered)
    if word:
        return UrgencyReading("critical", (f"the urgency word {word!r}",))
    scope, impact = _found(_SCOPE, lowered), _found(_IMPACT, lowered)
    if scope and impact and not about_policy and not _LOCAL.search(lowered):
        return UrgencyReading("critical", (f"company-wide impact ({scope!r} + {impact!r})",))
    high = "" if about_policy else _found(_HIGH, lowered)
    if high:
        return UrgencyReading("high", (f"the cue {high!r}",))
    if intent in ("escalation", "human_handoff"):
        return UrgencyReading("high", ("a request for a person",))
    if intent == "complaint":
        return UrgencyReading("medium", ("a complaint",))
    return UrgencyReading("low")


def urgency(text: str, intent: str) -> Urgency:
    """The level of `read_urgency`."""
    return read_urgency(text, intent).level
