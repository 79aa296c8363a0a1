"""A report followed by a plea for help: the report apart from the plea.

People end a report with a plea ("I shared the salary folder with a public link by mistake,
can you help me with this?", "……，我该怎么做？"). The plea asks for help with what was just said
and names nothing of its own, yet it makes the message end as a question: the escalation
model's rows that end as one are mostly consultations (a policy question, a how-to), and the
security rules read the closing "?" as a question about security. So the report before such
a plea is also read for escalation on its own (`brain.chain.escalate.decide_with_report`).

Which clause is a plea is read by the models that exist, not by a list of pleas: the last
clause (at the clause marks the speech-act model reads a first clause by) is a plea when the
speech-act model is sure it is a question, it is short, and the escalation rules read nothing
in it beyond the default reading of one person's request with no failure (no security topic,
no hand-off, no scope, no failure state, nothing resolved or past): it asks and names nothing
the escalation decision weighs. A closing request for work ("can you whitelist it", "can you
check") is not one: on the escalation set's train split, reading those as pleas paged one
person's problems. Whether the event is still happening is the caller's to weigh on the whole
message (`brain.chain.escalate.decide_with_report`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from brain.chain import speech_act
from brain.escalation.features import signals_of

__all__ = ["Plea", "report_before_plea"]

#: The clause marks (those `speech_act` reads a first clause by); a Latin one only before a
#: space, so that a host, a version or an address ("10.0.0.1", "v2.3") is no clause end.
_MARK_CHARS = speech_act.CLAUSE_MARKS_LATIN + speech_act.CLAUSE_MARKS_WIDE
_MARKS = re.compile(rf"[{speech_act.CLAUSE_MARKS_WIDE}]+|[{speech_act.CLAUSE_MARKS_LATIN}]+(?=\s)")
#: A plea is at most this many words (a Chinese character is one: "帮我看看怎么处理" is 8).
MAX_PLEA_WORDS = 8
#: The report before it needs at least this many words to be one.
MIN_REPORT_WORDS = 4
#: The matrix's reading of a clause that names no failure: one person's, nothing broken
#: ("need help asap" is urgency, not a failure).
_NOTHING = ("individual", "P4")
_NO_FAILURE = ("no_rush", "soon")


@dataclass(frozen=True, slots=True)
class Plea:
    """A message split into its report and the plea after it."""

    report: str
    plea: str
    #: The speech-act model's reading of the plea, for the evidence.
    reading: str


def report_before_plea(text: str) -> Plea | None:
    """The report and the plea of `text` when its last clause is a plea (None otherwise)."""
    stripped = text.strip()
    body = stripped.rstrip(_MARK_CHARS + " ")
    marks = list(_MARKS.finditer(body))
    if not marks:
        return None
    cut = marks[-1]
    report = body[: cut.start()].strip()
    plea = stripped[cut.end() :].strip()
    if not plea or not report:
        return None
    if len(speech_act.words(plea)) > MAX_PLEA_WORDS:
        return None
    if len(speech_act.words(report)) < MIN_REPORT_WORDS:
        return None
    reading = speech_act.read(plea)
    if reading.act != "question" or not reading.sure:
        return None
    if not _names_nothing(plea):
        return None
    return Plea(report=report, plea=plea, reading=reading.describe())


def _names_nothing(clause: str) -> bool:
    """The escalation rules read nothing in `clause`: no security topic, no hand-off, one
    person's and nothing broken, resolved, past or planned."""
    signals = signals_of(clause)
    a = signals.assessment
    return (
        signals.security is None
        and signals.handoff is None
        and (a.impact, a.priority) == _NOTHING
        and a.state in _NO_FAILURE
        and not (a.production or a.test_system or a.customer_data or a.payments)
        and not (a.resolved or a.not_live or a.count_question)
    )
