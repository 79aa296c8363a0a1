"""`alarm`: parse a pasted alert, find its runbook, return diagnosis steps."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from controllers import answering, passage_language
from controllers.alerts import AlertSignal, ParsedAlerts, parse_alerts
from controllers.base import ControllerContext, ControllerResult, DryRunResult
from controllers.builtin.base import BuiltinController
from core.cues import cues
from core.text.language import is_chinese
from core.wording import wording_for

if TYPE_CHECKING:
    from knowledge.types import Hit

MAX_STEPS = 6
#: Pasted alerts can be long: read more of them than of other messages.
ALERT_CHARS = 12000
#: How a runbook's steps are marked (`alarm.cues.yaml` beside it; `core.cues`).
_CUES = cues(__name__)
_NUMBERED = re.compile(_CUES.regex("numbered"))
_BULLET = re.compile(_CUES.regex("bullet"))
#: Where a runbook's prose splits into steps: Chinese full stops and semicolons, and an
#: English stop before a space (not the point of "1.5 s").
_SENTENCE_END = re.compile(_CUES.regex("sentence_end"))


class AlarmController(BuiltinController):
    """Diagnoses monitoring alerts."""

    name = "alarm"

    def dry_run(self, context: ControllerContext) -> DryRunResult:
        """Ok when an alert, a metric reading or an exit code is recognised."""
        parsed = self._parse(context)
        if not parsed.signals:
            return DryRunResult(ok=False, reason="no alert, metric reading or exit code recognised")
        return DryRunResult(
            ok=True, reason="recognised " + ", ".join(_label(s) for s in parsed.signals)
        )

    def handle(self, context: ControllerContext) -> ControllerResult:
        """Diagnosis: what fired, where, the runbook's steps (or first checks) and citations."""
        parsed = self._parse(context)
        if not parsed.signals:
            summary = wording_for(context.in_chinese).say("alarms.not_recognised")
            return ControllerResult(ok=False, summary=summary)
        zh = context.in_chinese
        names = [s.labels.get("alertname") or s.name for s in parsed.signals]
        query = " ".join([*dict.fromkeys(names), self.text_of(context)])[:1000]
        knowledge = context.services.knowledge
        evidence = answering.gather(knowledge, query, domain=self.name, k=5)
        # The runbook's section in the asker's language, when it has one.
        hits = passage_language.asker_language_first(evidence.hits, context.text)
        runbook = hits[0] if hits else None
        steps: list[str] = []
        if runbook is not None:
            # every section of the chosen runbook, however few query words it repeats
            sections = answering.gather(knowledge, query, domain=self.name, k=8, min_score=0.0)
            ordered = passage_language.asker_language_first([runbook, *sections.hits], context.text)
            steps = _runbook_steps(runbook, ordered)
        if not steps:
            steps = _generic_steps(parsed, zh)
        alerts = [s for s in parsed.signals if s.kind == "alert"]
        state = "reported" if not alerts else "firing" if parsed.firing else "resolved"
        summary = _summary(state, parsed, runbook, zh)
        return ControllerResult(
            ok=True,
            summary=summary,
            details="\n".join(f"{i}. {step}" for i, step in enumerate(steps, 1)),
            data={
                "signals": [_signal_dict(s) for s in parsed.signals],
                "hosts": parsed.hosts,
                "services": parsed.services,
                "severity": parsed.severity,
                "firing": parsed.firing,
                "state": state,
                "category": _category(parsed),
                "steps": steps,
                "runbook": answering.citation(runbook) if runbook else None,
            },
            citations=[answering.citation(hit) for hit in evidence.hits],
            escalate=parsed.firing and parsed.severity == "critical",
        )

    @staticmethod
    def _parse(context: ControllerContext) -> ParsedAlerts:
        text = AlarmController.text_of(context, ALERT_CHARS)
        return parse_alerts(text, known_hosts=context.entities.get("host", []))


#: The kind of problem a signal shows, for a record filed from the diagnosis (an incident's
#: category): a network reading is a network problem, a host's resources its hardware,
#: anything else (error rates, latency, failed jobs, certificates) the software running there.
_CATEGORY_OF = {"network": "network", "disk": "hardware", "memory": "hardware"}


def _category(parsed: ParsedAlerts) -> str:
    """What kind of problem the first recognised signal shows (`_CATEGORY_OF`)."""
    signal = parsed.signals[0]
    key = signal.name if signal.kind == "metric" else signal.kind
    return _CATEGORY_OF.get(key, "software")


def _label(signal: AlertSignal, zh: bool = False) -> str:
    words = wording_for(zh)
    if signal.kind == "alert":
        return signal.name
    if signal.kind == "exit_code":
        return words.say(
            "alarms.exited", name=signal.name, value=signal.value, meaning=signal.meaning
        )
    if signal.kind == "job_failure":
        return words.say("alarms.failed", name=signal.name)
    mount = signal.labels.get("mountpoint")
    name = words.term("metrics", signal.name, default=signal.name.replace("_", " "))
    return " ".join(part for part in (name, mount, signal.value) if part)


def _signal_dict(signal: AlertSignal) -> dict[str, object]:
    return {
        "kind": signal.kind,
        "name": signal.name,
        "status": signal.status,
        "value": signal.value,
        "labels": signal.labels,
        "meaning": signal.meaning,
    }


def _runbook_steps(runbook: Hit, hits: list[Hit]) -> list[str]:
    """Numbered steps from the runbook's sections (best first), else its bullets or sentences;
    from its sections in the runbook hit's language only, so a Chinese asker given the
    Chinese section is not handed the English section's numbered steps."""
    zh = is_chinese(runbook.text)
    sections = [hit for hit in hits if hit.source == runbook.source and is_chinese(hit.text) == zh]
    for hit in sections:
        steps = _list_items(hit.text, _NUMBERED)
        if steps:
            return steps[:MAX_STEPS]
    steps = _list_items(runbook.text, _BULLET)
    if not steps:
        steps = [s.strip() for s in _SENTENCE_END.split(runbook.text) if len(s.strip()) > 15]
    return steps[:MAX_STEPS]


def _list_items(text: str, marker: re.Pattern[str]) -> list[str]:
    """The items of a markdown list, wrapped continuation lines joined."""
    steps: list[str] = []
    open_step = False
    for line in text.splitlines():
        match = marker.match(line)
        if match:
            steps.append(match["step"].strip())
            open_step = True
        elif open_step and line.strip() and line[:1].isspace():
            steps[-1] += " " + line.strip()  # a wrapped continuation line
        else:
            open_step = False
    return steps


def _generic_steps(parsed: ParsedAlerts, zh: bool = False) -> list[str]:
    """First checks when the knowledge base has no runbook for the alert (the catalog's
    `alarms.steps.<signal>`, one step a line)."""
    words = wording_for(zh)
    steps: list[str] = []
    for signal in parsed.signals:
        key = f"alarms.steps.{signal.name if signal.kind == 'metric' else signal.kind}"
        if key in words.messages:
            steps.extend(words.say(key).splitlines())
    return list(dict.fromkeys(steps))[:MAX_STEPS]


def _summary(state: str, parsed: ParsedAlerts, runbook: Hit | None, zh: bool) -> str:
    """What fired, where, its severity and the runbook, in the asker's language (the alert's
    own names and values are data, shown as written)."""
    words = wording_for(zh)
    signals = words.say("common.clause_separator").join(_label(s, zh) for s in parsed.signals)
    where = words.say("common.list_separator").join(parsed.hosts + parsed.services)
    summary = words.say(
        "alarms.located" if where else "alarms.unlocated",
        state=words.term("alert_states", state),
        signals=signals,
        where=where,
        space=" " if where[-1:].isascii() else "",
    )
    if parsed.severity:
        summary += words.say("alarms.severity", severity=parsed.severity)
    if runbook:
        return summary + words.say("alarms.runbook", citation=answering.named_citation(runbook, zh))
    return summary + words.say("alarms.no_runbook")
