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
from core.cues import cues
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


_CUES = cues(__name__)
_NEGATED = re.compile(_words(*_CUES.words("negated")))
#: Explicit urgency words: an emergency said in so many words.
_URGENT_WORDS = re.compile(_words(*_CUES.words("urgent_words")) + "|" + _CUES.regex("urgent_field"))
#: Scope: the whole company or every user (every store, branch or office), not one person or
#: one floor.
_SCOPE = re.compile(_words(*_CUES.words("scope")) + "|" + _CUES.regex("scope_all"))
#: One floor, room or desk: "nobody on 3F can print" is local, not company-wide.
_LOCAL = re.compile(_CUES.regex("local"))
#: Impact and outage verbs: something does not work.
_IMPACT = re.compile(_words(*_CUES.words("impact")) + "|" + _CUES.regex("impact_more"))
_HIGH = re.compile(_words(*_CUES.words("high")))
# Urgency words used as the name of a thing ("emergency change" is a change type), not as a cue.
_TERM_USES = re.compile(_CUES.regex("term_uses"))
# A question about a policy or process: urgency words in it are its subject, not a cue.
_ABOUT_POLICY = re.compile(_words(*_CUES.words("about_policy")))
_QUESTION_MARK = re.compile(_CUES.regex("question"))


@dataclass(frozen=True, slots=True)
class UrgencyReading:
    """The urgency level and the explicit signals behind it, in words (for the rationale)."""

    level: Urgency
    cues: tuple[str, ...] = ()


def _found(pattern: re.Pattern[str], text: str) -> str:
    match = pattern.search(text)
    return match.group(0) if match else ""


_HANDOFF = re.compile(_CUES.regex("handoff"))
_ESCALATE = re.compile(_CUES.regex("escalate"))
# Asking about escalation ("how do I escalate?", "who is on call?") is not a request for it.
_ABOUT_ESCALATION = re.compile(
    _words(*_CUES.words("about_escalation_words")) + "|" + _CUES.regex("about_escalation")
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
