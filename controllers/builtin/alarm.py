"""`alarm`: parse a pasted alert, find its runbook, return diagnosis steps."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from controllers import answering
from controllers.alerts import AlertSignal, ParsedAlerts, parse_alerts
from controllers.base import ControllerContext, ControllerResult, DryRunResult
from controllers.builtin.base import BuiltinController

if TYPE_CHECKING:
    from knowledge.types import Hit

MAX_STEPS = 6
#: Pasted alerts can be long: read more of them than of other messages.
ALERT_CHARS = 12000
_NUMBERED = re.compile(r"^\s*\d+[.)、]\s*(?P<step>.+)$")
_BULLET = re.compile(r"^\s*[-*•]\s*(?P<step>.+)$")

#: First checks when the knowledge base has no runbook for the alert.
GENERIC_STEPS: dict[str, tuple[str, ...]] = {
    "cpu": (
        "Find the busiest processes on the host (top, pidstat 1 5) and when the rise began.",
        "Compare with recent deploys, cron jobs and traffic for the same period.",
    ),
    "memory": (
        "Check memory per process and recent OOM kills (dmesg -T | grep -i oom).",
        "Look for a leak: heap growth since the last deploy or restart.",
    ),
    "disk": (
        "Find what grew (du -xh --max-depth=2 on the mount, sort by size); check inodes (df -i).",
        "Rotate or compress logs and remove old artefacts; confirm log rotation is running.",
    ),
    "load": ("Separate CPU from I/O wait (vmstat 1, iostat -x 1) before acting.",),
    "latency": (
        "Check dependencies of the service (database, downstream APIs) for the same window.",
        "Compare with the deploy timeline; roll back if the rise starts at a release.",
    ),
    "error_rate": (
        "Group the errors by endpoint and status code in the logs to find the failing path.",
        "Check the latest deploy and configuration changes; roll back if they line up.",
    ),
    "lag": ("Check consumer health and throughput, and whether producers spiked.",),
    "exit_code": (
        "Read the job's log around the exit and the scheduler's record of the run.",
        "For 137, compare peak memory with the container or cgroup limit before re-running.",
    ),
    "job_failure": (
        "Read the job's log around the failure and the scheduler's record of the run.",
        "Check its inputs and dependencies (files, database, upstream jobs) before re-running.",
    ),
    "network": (
        "Measure loss and latency along the path (mtr) and check the interface error counters.",
    ),
    "certificate": (
        "Find every endpoint using the certificate and renew it through a standard change.",
    ),
    "alert": ("Open the alert's dashboard and confirm the signal is real, not a scrape gap.",),
}


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
            return ControllerResult(
                ok=False,
                summary="I could not recognise an alert in this message. Paste the alert text "
                "(e.g. “[FIRING:1] HighErrorRate service=payments”) or the metric and host.",
            )
        names = [s.labels.get("alertname") or s.name for s in parsed.signals]
        query = " ".join([*dict.fromkeys(names), self.text_of(context)])[:1000]
        knowledge = context.services.knowledge
        evidence = answering.gather(knowledge, query, domain=self.name, k=5)
        runbook = evidence.hits[0] if evidence.hits else None
        steps: list[str] = []
        if runbook is not None:
            # every section of the chosen runbook, however few query words it repeats
            sections = answering.gather(knowledge, query, domain=self.name, k=8, min_score=0.0)
            steps = _runbook_steps(runbook, [runbook, *sections.hits])
        if not steps:
            steps = _generic_steps(parsed)
        where = ", ".join(parsed.hosts + parsed.services) or "an unnamed host"
        alerts = [s for s in parsed.signals if s.kind == "alert"]
        state = "reported" if not alerts else "firing" if parsed.firing else "resolved"
        summary = (
            f"{state.capitalize()}: {'; '.join(_label(s) for s in parsed.signals)} on {where}."
        )
        if parsed.severity:
            summary += f" Severity {parsed.severity}."
        summary += (
            f" Runbook: {answering.citation(runbook)}."
            if runbook
            else " No runbook found in the KB."
        )
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


def _label(signal: AlertSignal) -> str:
    if signal.kind == "alert":
        return signal.name
    if signal.kind == "exit_code":
        return f"{signal.name} exited with {signal.value} ({signal.meaning})"
    if signal.kind == "job_failure":
        return f"{signal.name} failed"
    mount = signal.labels.get("mountpoint")
    return " ".join(part for part in (signal.name, mount, signal.value) if part)


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
    """Numbered steps from the runbook's sections (best first), else its bullets or sentences."""
    sections = [hit for hit in hits if hit.source == runbook.source]
    for hit in sections:
        steps = _list_items(hit.text, _NUMBERED)
        if steps:
            return steps[:MAX_STEPS]
    steps = _list_items(runbook.text, _BULLET)
    if not steps:
        steps = [
            s.strip() for s in re.split(r"(?<=[.!?。！？])\s*", runbook.text) if len(s.strip()) > 15
        ]
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


def _generic_steps(parsed: ParsedAlerts) -> list[str]:
    steps: list[str] = []
    for signal in parsed.signals:
        key = signal.name if signal.kind == "metric" else signal.kind
        steps.extend(GENERIC_STEPS.get(key, ()))
    return list(dict.fromkeys(steps))[:MAX_STEPS]
