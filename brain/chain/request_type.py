"""Request type before controller: what kind of thing the message asks for.

Only a problem report or a request for work creates a record. A question ("How do I set up
MFA on my phone?", or "how do I connect to the VPN?" in Chinese) is answered from the knowledge
base, or honestly not answered, whatever controller its topic belongs to; a message that names an
existing record of the kind a controller would file ("... after the change CHG-4411") refers to it
and links it, it never files another one.

The type is what the learned speech-act model (`brain.chain.speech_act`: question, problem
report or request for work, English and Chinese) reads when it is sure. Only when it is not
is the form of the message read (interrogative openings and particles, failure phrases,
imperative and "I need" forms) and, when the form says nothing, the intent the recognizers
voted (its taxonomy group: consultation intents are questions, incident ones problems, access
and change ones requests for work). It is recorded in the decision (`request_type`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal, cast

import numpy as np

from brain.chain import speech_act
from brain.intent.split import split_requests
from brain.routing.plan import RoutePlan
from core.cues import cues
from core.records import IntentResult
from core.text.language import QUESTION_MARKS

#: The language-specific forms (`request_type.cues.yaml` beside it; `core.cues`).
_CUES = cues(__name__)

RequestType = Literal["question", "problem", "work", "update", "reference", "unknown"]

#: Intent groups that say what a message is when its form does not.
_GROUP_TYPES: Mapping[str, RequestType] = {
    "consultation": "question",
    "incident": "problem",
    "alarm": "problem",
    "access": "work",
    "change": "work",
}

#: What a message may open with before its request or question: a greeting, or a discourse
#: filler a later turn in a thread starts with ("also, can someone ...", "oh and btw how do I ...").
_OPENING = (
    r"^\s*(?:(?:hi|hello|hey|also|and|oh|ok|okay|btw|by the way|one more thing|another thing|"
    r"quick question|question)\b[,:!\s]*)*"
)
_QUESTION_OPENING = re.compile(
    _OPENING + r"[,:!\s]*"
    r"(?:how|what|what's|whats|where|when|which|who|whom|whose|is there|are there|"
    r"do i|do we|does|do you know|is it|are we|am i|should i|should we|may i|"
    r"is (?:a|an|the|our|my)\b|are (?:the|our)\b|can (?:we|employees|staff|contractors)\b|"
    r"are (?:employees|staff|contractors)\b|what's|explain|tell me (?:how|what|about)|"
    r"i (?:was )?wonder(?:ing)?|i'd like to know|i want to know)\b",
    re.IGNORECASE,
)
_ZH_QUESTION = re.compile(_CUES.regex("zh_question"))
#: Polite requests phrased as questions are requests for work ("can you reset my password?").
_WORK = re.compile(
    _OPENING + r"(?:please|pls|kindly|can you|could you|would you|can i get|"
    r"could i get|can i have|could i have|may i have|i need|i'd like|i would like|i want|"
    r"we need|need|requesting|request|(?:can|could|would|will) (?:someone|somebody|anyone|"
    r"anybody|it|the it team|you guys) (?:please )?(?:order|get|send|set up|install|give|"
    r"provide|arrange|replace|reset|grant|add|create))\b"
    r"|"
    + _OPENING
    + r"(?:please\s+)?(?:create|open|grant|give|add|reset|unlock|install|provision|enable|"
    r"disable|remove|revoke|deploy|roll ?back|restart|schedule|approve|increase|extend|order|"
    r"replace|set up|setup|raise|file|submit|rotate|renew|migrate|upgrade|expand|"
    r"release|process|close|reopen|urge|escalate)\b"
    r"|" + _CUES.regex("work_zh"),
    re.IGNORECASE,
)
_PROBLEM = re.compile(
    r"\b(?:not|n't|never|no longer)\s+(?:\w+\s+)?(?:work|working|load|loading|open|opening|"
    r"connect|connecting|start|starting|boot|booting|print|printing|respond|responding|sync|"
    r"syncing|turn(?:ing)? on|charg(?:e|ing)|send|sending|receiv(?:e|ing)|show|showing)\b"
    r"|\b(?:can't|cannot|can not|couldn't|unable to|won't|keeps? (?:crash|fail|drop|freez)\w*|"
    r"broken|broke|crash(?:ed|es|ing)?|is down|are down|went down|outage|stuck|frozen|freez\w*|"
    r"fail(?:s|ed|ing)?|error|errors|bsod|blue screen|dropp(?:ed|ing)|lost|missing|"
    r"disconnect\w*|slow|locked out|hacked|leak\w*|spill\w*|cracked|dead|nothing works|"
    r"stopped|isn't|aren't|wasn't|doesn't|didn't)\b"
    r"|" + _CUES.regex("problem_zh"),
    re.IGNORECASE,
)
#: A how/what question about the asker's own failure reads as a problem report
#: ("why can't I connect", or "the VPN won't connect, what do I do?" in Chinese).
_OWN_FAILURE = re.compile(_CUES.regex("own_failure"), re.IGNORECASE)
#: A declarative first clause ("My VPN is down, how do I fix it?") is the report itself.
_FIRST_CLAUSE = re.compile(_CUES.regex("first_clause"))
#: The marks a question ends with (full-width too).


def request_type(text: str, intent: IntentResult, vector: np.ndarray | None = None) -> RequestType:
    """The message's request type (see the module docstring; `vector`: the message's MiniLM
    embedding, when the embedder is open)."""
    reading = speech_act.read(text, vector)
    if reading.sure:
        if reading.act == "question" and asks_for_work_first(text):
            return "work"
        return cast("RequestType", reading.act)
    return request_type_by_form(text, intent)


def asks_for_work_first(text: str) -> bool:
    """A request for work in a sentence of its own, then questions about it ("Please roll
    back the pricing deploy. When can it be done?"): the message asks for the work, and the
    question is about when or how it will be done. Read as a whole it is a question (its last
    sentence), and a question files nothing: the roll-back was answered, not filed."""
    sentences = split_requests(text)
    if not sentences:
        return False
    first = speech_act.read(sentences[0])
    return first.sure and first.act == "work"


def request_type_by_form(text: str, intent: IntentResult) -> RequestType:
    """The request type its form says, where the speech-act model is unsure (and the
    baseline the model is measured against, `benchmarks/speech_acts.py`)."""
    stripped = text.strip()
    first = _FIRST_CLAUSE.split(stripped, maxsplit=1)[0]
    problem = bool(_PROBLEM.search(stripped))
    asked = bool(_QUESTION_OPENING.search(stripped)) or bool(_ZH_QUESTION.search(stripped))
    if _WORK.search(first) and not _QUESTION_OPENING.search(first) and not _zh_how_to(first):
        return "work"
    if asked:
        declarative_report = bool(_PROBLEM.search(first)) and not _QUESTION_OPENING.search(first)
        if problem and (_OWN_FAILURE.search(stripped) or declarative_report):
            return "problem"
        return "question"
    if problem:
        return "problem"
    if stripped.endswith(QUESTION_MARKS):
        return "question"
    return _GROUP_TYPES.get(intent.group, "unknown")


#: Chinese words that ask how, and those that ask for the work to be done.
_ZH_HOW = re.compile(_CUES.regex("zh_how"))
_ZH_ASKS_FOR = re.compile(_CUES.regex("zh_asks_for"))


def _zh_how_to(text: str) -> bool:
    """A Chinese how-to ("how do I install software that is not in the catalogue?"), not a
    request phrased with a work verb."""
    return bool(_ZH_HOW.search(text)) and not _ZH_ASKS_FOR.search(text)


def questions_stay_questions(
    plan: RoutePlan,
    kind: RequestType,
    *,
    filers: frozenset[str],
    answers: str | None,
) -> RoutePlan:
    """A question routed to a controller that files records is answered instead: the
    answering controller (`answers`, the holder of `controllers.roles.ANSWERS`) takes it and
    filing controllers leave a composition."""
    if kind != "question" or plan.outcome not in ("routed", "composed"):
        return plan
    chosen = [n for n in (plan.controller, *plan.supporting) if n]
    filing = [n for n in chosen if n in filers]
    if not filing or answers is None:
        return plan
    kept = [n for n in chosen if n not in filing and n != answers]
    plan.tier_path.append(
        f"request type: a question; {answers} answers it and {', '.join(filing)} files nothing"
    )
    plan.controller = answers
    plan.supporting = kept
    plan.outcome = "composed" if kept else "routed"
    if not kept:
        plan.composition = None
    plan.follow_up = None
    plan.candidates = list(dict.fromkeys([answers, *plan.candidates]))
    return plan


def question_form(text: str) -> bool:
    """Is the text phrased as a question (an interrogative opening or Chinese particle)?"""
    return bool(_QUESTION_OPENING.search(text) or _ZH_QUESTION.search(text))


def work_form(text: str) -> bool:
    """Is the text phrased as a request for work ("I need ...", "please reset ...", or
    "help me ..." in Chinese)?"""
    return bool(_WORK.search(text))


def reports_problem(text: str) -> bool:
    """Does the text describe something failing ("still broken", "it froze again")?"""
    return bool(_PROBLEM.search(text))
