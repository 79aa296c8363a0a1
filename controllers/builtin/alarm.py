"""`alarm`: parse a pasted alert, find its runbook, return diagnosis steps."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from controllers import answering, passage_language
from controllers.alerts import AlertSignal, ParsedAlerts, parse_alerts
from controllers.base import ControllerContext, ControllerResult, DryRunResult
from controllers.builtin.base import BuiltinController
from core.text.language import is_chinese

if TYPE_CHECKING:
    from knowledge.types import Hit

MAX_STEPS = 6
#: Pasted alerts can be long: read more of them than of other messages.
ALERT_CHARS = 12000
_NUMBERED = re.compile(r"^\s*\d+[.)、]\s*(?P<step>.+)$")
_BULLET = re.compile(r"^\s*[-*•]\s*(?P<step>.+)$")
#: Where a runbook's prose splits into steps: Chinese full stops and semicolons, and an
#: English stop before a space (not the point of "1.5 秒").
_SENTENCE_END = re.compile(r"(?<=[。！？；])\s*|(?<=[.!?])\s+")

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
GENERIC_STEPS_ZH: dict[str, tuple[str, ...]] = {
    "cpu": (
        "找出主机上最忙的进程（top、pidstat 1 5）以及升高开始的时间。",
        "对照同一时段的最近发布、定时任务和流量。",
    ),
    "memory": (
        "查看各进程的内存和最近的 OOM 记录（dmesg -T | grep -i oom）。",
        "排查内存泄漏：对比上次发布或重启以来的堆增长。",
    ),
    "disk": (
        "找出增长的目录（在挂载点上 du -xh --max-depth=2 并按大小排序），检查 inode（df -i）。",
        "轮转或压缩日志、清理旧的构建产物，确认日志轮转在运行。",
    ),
    "load": ("处理前先区分 CPU 与 I/O 等待（vmstat 1、iostat -x 1）。",),
    "latency": (
        "检查服务在同一时段的依赖（数据库、下游接口）。",
        "对照发布时间线；如果升高从某次发布开始，就回滚。",
    ),
    "error_rate": (
        "在日志中按接口和状态码汇总错误，找到出错的路径。",
        "检查最近的发布和配置变更；时间吻合就回滚。",
    ),
    "lag": ("检查消费者的健康和吞吐，以及生产者是否突增。",),
    "exit_code": (
        "阅读任务退出前后的日志和调度器的运行记录。",
        "退出码 137：重跑前对比峰值内存与容器或 cgroup 的限制。",
    ),
    "job_failure": (
        "阅读任务失败前后的日志和调度器的运行记录。",
        "重跑前检查它的输入和依赖（文件、数据库、上游任务）。",
    ),
    "network": ("沿路径测量丢包和延迟（mtr），并检查网卡错误计数。",),
    "certificate": ("找出使用该证书的所有端点，通过标准变更续期。",),
    "alert": ("打开告警的仪表盘，确认信号是真实的，而不是采集缺口。",),
}


#: A metric as a Chinese reader calls it (English shows the name with spaces: "error rate").
METRIC_NAMES_ZH = {
    "cpu": "CPU",
    "memory": "内存",
    "disk": "磁盘",
    "load": "负载",
    "latency": "延迟",
    "error_rate": "错误率",
    "lag": "积压",
    "network": "网络丢包",
    "certificate": "证书到期",
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
            summary = (
                "我没能从这条消息里识别出告警。请贴上告警原文"
                "（例如“[FIRING:1] HighErrorRate service=payments”）或指标和主机。"
                if is_chinese(context.text)
                else "I could not recognise an alert in this message. Paste the alert text "
                "(e.g. “[FIRING:1] HighErrorRate service=payments”) or the metric and host."
            )
            return ControllerResult(ok=False, summary=summary)
        zh = is_chinese(context.text)
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
    if signal.kind == "alert":
        return signal.name
    if signal.kind == "exit_code":
        if zh:
            return f"{signal.name} 以退出码 {signal.value} 结束"
        return f"{signal.name} exited with {signal.value} ({signal.meaning})"
    if signal.kind == "job_failure":
        return f"{signal.name} 失败" if zh else f"{signal.name} failed"
    mount = signal.labels.get("mountpoint")
    name = METRIC_NAMES_ZH.get(signal.name, signal.name) if zh else signal.name.replace("_", " ")
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
    steps: list[str] = []
    table = GENERIC_STEPS_ZH if zh else GENERIC_STEPS
    for signal in parsed.signals:
        key = signal.name if signal.kind == "metric" else signal.kind
        steps.extend(table.get(key, ()))
    return list(dict.fromkeys(steps))[:MAX_STEPS]


_STATE_ZH = {"reported": "已报告", "firing": "告警中", "resolved": "已恢复"}


def _summary(state: str, parsed: ParsedAlerts, runbook: Hit | None, zh: bool) -> str:
    """What fired, where, its severity and the runbook, in the asker's language (the alert's
    own names and values are data, shown as written)."""
    if zh:
        signals = "；".join(_label(s, zh) for s in parsed.signals)
        where = "、".join(parsed.hosts + parsed.services)
        summary = (
            f"{_STATE_ZH[state]}：{where}{' ' if where[-1:].isascii() else ''}上的 {signals}。"
            if where
            else f"{_STATE_ZH[state]}：{signals}（未注明主机或服务）。"
        )
        if parsed.severity:
            summary += f"级别 {parsed.severity}。"
        found = (
            f"处理手册：{answering.named_citation(runbook, zh)}。"
            if runbook
            else "知识库里没有处理手册。"
        )
        return summary + found
    where = ", ".join(parsed.hosts + parsed.services)
    signals = "; ".join(_label(s) for s in parsed.signals)
    summary = (
        f"{state.capitalize()}: {signals} on {where}."
        if where
        else f"{state.capitalize()}: {signals} (no host or service named)."
    )
    if parsed.severity:
        summary += f" Severity {parsed.severity}."
    if runbook:
        return summary + f" Runbook: {answering.citation(runbook)}."
    return summary + " No runbook found in the KB."
