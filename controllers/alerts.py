"""Parse pasted monitoring alerts: Alertmanager lines, metric thresholds, exit codes, hosts."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from core.cues import cues
from core.lazy import LazyPattern

SignalKind = Literal["alert", "metric", "exit_code", "job_failure"]

_ALERT = LazyPattern(
    r"\[(?P<status>FIRING|RESOLVED|ALERTING|OK)(?::(?P<count>\d+))?\]\s*"
    r"(?P<name>[A-Za-z][\w.:-]*)(?P<rest>[^\n]*)",
    re.I,
)
_LABEL = LazyPattern(r"(?P<key>[A-Za-z_]\w*)=(?P<value>\"[^\"]*\"|'[^']*'|[^\s,]+)")
#: The module's cue words and patterns (`alerts.cues.yaml` beside it; `core.cues`).
_CUES = cues(__name__)
#: The metric a reading is about, first match wins.
_METRICS: tuple[tuple[str, LazyPattern], ...] = tuple(
    (name, LazyPattern(_CUES.regex(name), re.I | re.ASCII))
    for name in (
        "cpu",
        "memory",
        "disk",
        "load",
        "latency",
        "error_rate",
        "lag",
        "network",
        "certificate",
    )
)
_VALUE = LazyPattern(
    _CUES.regex("value"),
    re.I | re.ASCII,  # ASCII word boundaries: a figure right after a CJK word is a reading
)
#: What joins a reading's old figure to its new one ("from 300ms to 4s").
_RISES_TO = LazyPattern(_CUES.regex("rises_to"), re.I)
#: Parts that make a CamelCase word an alert name ("KubePodCrashLooping", "InstanceDown").
_ALERT_NAME_PART = LazyPattern(
    r"High|Low|Down|Full|Fill|Error|Rate|Usage|Latency|Lag|Crash|Fail|Expir|Unreachable|Slow|"
    r"Pressure|Restart|Throttl|Missing|Absent|Pending|Backlog|OutOf"
)
_CAMEL = LazyPattern(r"(?<![\w.])(?P<name>[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*){1,8})(?![\w.])")
#: A job that failed without an exit status ("backup job timed out").
_JOB_FAILED = LazyPattern(_CUES.regex("job_failed"), re.I)
#: Chinese numerals: the digits, and the multipliers of a number written out.
_ZH_DIGITS = _CUES.numbers("zh_digits")
_ZH_MULTIPLIERS = _CUES.numbers("zh_multipliers")
_EXIT_ZH = LazyPattern(_CUES.regex("exit_zh"))
_MOUNT = LazyPattern(r"(?<![\w/])(?P<mount>/[\w./-]*)")
_EXIT = LazyPattern(_CUES.regex("exit"), re.I)
_OOMKILLED = LazyPattern(r"\bOOMKilled\b|\bOOM[- ]?kill", re.I)
#: A job name looks like an identifier ("settle_batch", "eod-export", "recon2"), not a verb.
_JOB = LazyPattern(_CUES.regex("job"), re.I)
_HOST = LazyPattern(
    r"(?<![\w.-])(?P<host>[a-z][a-z0-9]*(?:-[a-z0-9]+)*-\d{1,3}(?:\.[a-z0-9.-]+)?)\b"
)
#: A service by the suffix of its name: checkout-api, settle-worker, ledger-db, crm-web.
_SERVICE = LazyPattern(
    r"(?<![\w-])(?P<service>[a-z][a-z0-9]*(?:-[a-z0-9]+)*-"
    r"(?:api|service|svc|gateway|worker|job|db|web|cache|broker|queue|mq))\b"
)
#: A service named in Chinese: the name does not run across the possessive particle, and a
#: server, a desk or a client is no service (the cue file has the words).
_SERVICE_ZH = LazyPattern(_CUES.regex("service_zh"))
#: Words saying the text is about an alert, so a metric named without a figure still counts.
_ALERT_WORDS = LazyPattern(_CUES.regex("alert_words"), re.I)
#: A metric said to be moving sharply is a reading without a figure ("latency spiking on
#: checkout"): what someone looking at a graph reports.
_TREND = LazyPattern(_CUES.regex("trend"), re.I)
_CRITICAL = LazyPattern(_CUES.regex("critical"), re.I)
_WARNING = LazyPattern(_CUES.regex("warning"), re.I)

#: What an exit status usually means (128 + n = killed by signal n).
EXIT_CODE_MEANINGS: dict[int, str] = {
    1: "general error raised by the program itself (see its log)",
    2: "misuse of a command or invalid arguments",
    126: "the command was found but is not executable (permissions)",
    127: "command not found (PATH, missing binary or interpreter)",
    130: "interrupted (SIGINT)",
    134: "aborted (SIGABRT), often an assertion or a native crash",
    137: "killed by SIGKILL, usually the OOM killer or a container memory limit",
    139: "segmentation fault (SIGSEGV)",
    143: "terminated by SIGTERM, e.g. a timeout, a deploy or a node drain",
}


@dataclass(slots=True)
class AlertSignal:
    """One thing the alert text reports."""

    kind: SignalKind
    name: str
    status: str = "firing"
    value: str | None = None
    labels: dict[str, str] = field(default_factory=dict)
    meaning: str = ""


@dataclass(slots=True)
class ParsedAlerts:
    """Everything recognised in one pasted message."""

    signals: list[AlertSignal] = field(default_factory=list)
    hosts: list[str] = field(default_factory=list)
    services: list[str] = field(default_factory=list)
    severity: str | None = None

    @property
    def firing(self) -> bool:
        """Is anything still firing (not resolved)?"""
        return any(s.status == "firing" for s in self.signals)


def parse_alerts(text: str, known_hosts: list[str] | None = None) -> ParsedAlerts:
    """Recognise alerts, metric thresholds, exit codes, hosts, services and severity."""
    parsed = ParsedAlerts()
    labels_seen: dict[str, str] = {}
    for match in _ALERT.finditer(text):
        labels = {m["key"]: m["value"].strip("\"'") for m in _LABEL.finditer(match["rest"])}
        labels_seen.update(labels)
        status = "resolved" if match["status"].upper() in ("RESOLVED", "OK") else "firing"
        parsed.signals.append(
            AlertSignal(kind="alert", name=match["name"], status=status, labels=labels)
        )
    alerting = bool(parsed.signals) or bool(_ALERT_WORDS.search(text))
    named = {s.name for s in parsed.signals}
    for match in _CAMEL.finditer(text):
        name = match["name"]
        if (
            name not in named
            and _ALERT_NAME_PART.search(name)
            and not name.endswith(("Error", "Exception"))  # a program's exception, not an alert
        ):
            named.add(name)
            parsed.signals.append(AlertSignal(kind="alert", name=name))
    if not parsed.signals:
        labels_seen.update({m["key"]: m["value"].strip("\"'") for m in _LABEL.finditer(text)})
    for name, pattern in _METRICS:
        metric = pattern.search(text)
        if metric is None:
            continue
        window = text[metric.end() : metric.end() + 48]
        value = _latest(window) or _VALUE.search(text[max(metric.start() - 12, 0) : metric.start()])
        moving = _TREND.search(text[max(metric.start() - 24, 0) : metric.end() + 24])
        if value is None and not alerting and not moving:
            continue  # a bare word ("cpu") without a figure, a trend or an alert: no reading
        labels = {}
        mount = _MOUNT.search(window) if name == "disk" else None
        if mount:
            labels["mountpoint"] = mount["mount"]
        parsed.signals.append(
            AlertSignal(
                kind="metric",
                name=name,
                value=(value["value"] + value["unit"]) if value else None,
                labels=labels,
            )
        )
    codes = [int(m["code"]) for m in _EXIT.finditer(text)]
    codes += [n for m in _EXIT_ZH.finditer(text) if (n := _zh_number(m["code"])) is not None]
    if _OOMKILLED.search(text) and 137 not in codes:
        codes.append(137)
    job = _JOB.search(text)
    for code in dict.fromkeys(codes):
        parsed.signals.append(
            AlertSignal(
                kind="exit_code",
                name=job["job"] if job else "process",
                value=str(code),
                meaning=EXIT_CODE_MEANINGS.get(code, "non-zero exit: see the job's log"),
            )
        )
    if not codes:
        failed = _JOB_FAILED.search(text)
        if failed:
            parsed.signals.append(
                AlertSignal(kind="job_failure", name=job["job"] if job else "job", value=None)
            )
    if alerting and not parsed.signals:
        parsed.signals.append(AlertSignal(kind="alert", name="alert"))
    hosts = list(known_hosts or [])
    instance = labels_seen.get("instance") or labels_seen.get("host")
    if instance:
        hosts.append(instance.split(":")[0])
    hosts += [m["host"] for m in _HOST.finditer(text)]
    parsed.hosts = list(dict.fromkeys(hosts))
    services = [labels_seen[k] for k in ("service", "app", "job") if k in labels_seen]
    services += [m["service"] for m in _SERVICE.finditer(text)]
    services += [m["service"] for m in _SERVICE_ZH.finditer(text)]
    parsed.services = [s for s in dict.fromkeys(services) if s not in parsed.hosts]
    severity = labels_seen.get("severity", "").lower()
    if not severity:
        severity = (
            "critical" if _CRITICAL.search(text) else "warning" if _WARNING.search(text) else ""
        )
    parsed.severity = severity or None
    return parsed


def _latest(window: str) -> re.Match[str] | None:
    """The figure a reading stands at: the first after the metric's name, or the one it moved
    to ("p99 went from 300ms to 4s" is at 4s, not 300ms)."""
    values = list(_VALUE.finditer(window))
    if not values:
        return None
    at = values[0]
    for then in values[1:]:
        if not _RISES_TO.search(window[at.end() : then.start()]):
            break
        at = then
    return at


def _zh_number(token: str) -> int | None:
    """A small Chinese numeral (two, thirteen, a hundred and thirty-seven) as an int."""
    if all(ch in _ZH_DIGITS for ch in token):
        return int("".join(str(_ZH_DIGITS[ch]) for ch in token))
    total, current = 0, 0
    for ch in token:
        if ch in _ZH_DIGITS:
            current = _ZH_DIGITS[ch]
        elif ch in _ZH_MULTIPLIERS:
            total += (current or 1) * _ZH_MULTIPLIERS[ch]
            current = 0
        else:
            return None
    return total + current
