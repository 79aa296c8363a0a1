"""`alarm`: pasted alerts are parsed into signals, hosts and diagnosis steps."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from controllers.alerts import parse_alerts
from controllers.base import ControllerContext
from controllers.builtin.alarm import AlarmController

ContextFactory = Callable[..., ControllerContext]


def test_alertmanager_lines_with_labels() -> None:
    parsed = parse_alerts(
        "[FIRING:2] HighErrorRate service=payments severity=critical\n"
        '[FIRING:1] DiskSpaceLow instance=db-01:9100 mountpoint="/var" severity=warning'
    )
    alerts = [s for s in parsed.signals if s.kind == "alert"]
    assert [a.name for a in alerts] == ["HighErrorRate", "DiskSpaceLow"]
    assert alerts[0].labels == {"service": "payments", "severity": "critical"}
    assert alerts[1].labels["mountpoint"] == "/var"
    assert "db-01" in parsed.hosts and parsed.services == ["payments"]
    assert parsed.firing


def test_resolved_alert_is_not_firing() -> None:
    parsed = parse_alerts("[RESOLVED] KafkaConsumerLag topic=settlement group=recon")
    assert parsed.signals[0].status == "resolved" and not parsed.firing


@pytest.mark.parametrize(
    ("text", "metric", "value", "host"),
    [
        ("CPU 97% on db-01 for the last 15 minutes", "cpu", "97%", "db-01"),
        ("disk /var 95% on app-03, what should I check?", "disk", "95%", "app-03"),
        ("告警：db-02 磁盘使用率 92%，怎么处理？", "disk", "92%", "db-02"),
        ("p99 latency on checkout-api jumped to 2300ms", "latency", "2300ms", None),
        ("支付服务错误率飙到 15%", "error_rate", "15%", None),
        # A reading that moved stands at its new figure (it was reported at the old one).
        ("prod checkout latency p99 went from 300ms to 4s ten minutes ago", "latency", "4s", None),
        ("p99 latency 2s -> 9s on checkout-api", "latency", "9s", None),
        ("db-02 磁盘使用率从 40% 涨到 95%", "disk", "95%", "db-02"),
    ],
)
def test_metric_thresholds(text: str, metric: str, value: str, host: str | None) -> None:
    parsed = parse_alerts(text)
    reading = next(s for s in parsed.signals if s.kind == "metric")
    assert (reading.name, reading.value) == (metric, value)
    if host:
        assert host in parsed.hosts


@pytest.mark.parametrize(
    ("text", "job", "code", "meaning"),
    [
        ("job settle_batch exited with code 137", "settle_batch", "137", "OOM"),
        ("清算任务 settle_batch 退出码 137，昨晚失败了", "settle_batch", "137", "OOM"),
        ("cron recon_daily exit code 127", "recon_daily", "127", "not found"),
    ],
)
def test_exit_codes(text: str, job: str, code: str, meaning: str) -> None:
    signal = next(s for s in parse_alerts(text).signals if s.kind == "exit_code")
    assert (signal.name, signal.value) == (job, code)
    assert meaning in signal.meaning


def test_alert_words_make_a_bare_metric_count() -> None:
    parsed = parse_alerts("Grafana 上 order-service 延迟告警一直在响")
    assert [(s.kind, s.name, s.value) for s in parsed.signals] == [("metric", "latency", None)]
    assert parsed.services == ["order-service"]


@pytest.mark.parametrize(
    ("text", "kind", "name", "value"),
    [
        ("prometheus fired KubePodCrashLooping namespace=settlement pod=ledger-7f", "alert",
         "KubePodCrashLooping", None),
        ("收到 PagerDuty 告警 InstanceDown，host=db-prd-03", "alert", "InstanceDown", None),
        ("夜间跑批任务失败了，收到了短信告警", "job_failure", "job", None),
        ("backup job timed out twice this week", "job_failure", "job", None),
        ("清算跑批昨晚又失败了，退出码是二", "exit_code", "process", "2"),
        ("zabbix: ICMP packet loss 40% on core-sw-02", "metric", "network", "40%"),
        ("kafka consumer lag on topic trade-events is 250k and growing", "metric", "lag", "250k"),
        ("生产环境全部接口 500，告警全红", "alert", "alert", None),
        ("prod 的 payments-api 5xx 飙升了", "metric", "error_rate", None),
        ("latency is spiking on checkout-svc since the deploy", "metric", "latency", None),
    ],
)  # fmt: skip
def test_alerts_in_looser_forms(text: str, kind: str, name: str, value: str | None) -> None:
    signals = parse_alerts(text).signals
    assert any((s.kind, s.name, s.value) == (kind, name, value) for s in signals), signals


def test_program_exceptions_are_not_alert_names() -> None:
    assert parse_alerts("KeyError: 'settle_date' in recon.py, TypeError too").signals == []
    assert parse_alerts("k8s 集群 CPU 配额要调大").signals == []


def test_plain_chat_is_not_an_alert() -> None:
    assert parse_alerts("the cpu in my laptop is old, can I get a new one?").signals == []
    assert parse_alerts("book a table for four tonight").signals == []
    assert parse_alerts("my laptop's cpu is old and the fan noise is climbing").signals == []


def test_controller_diagnoses_without_a_knowledge_base(make_context: ContextFactory) -> None:
    alarm = AlarmController()
    context = make_context("[FIRING:2] HighErrorRate service=payments severity=critical")
    assert alarm.dry_run(context).ok
    result = alarm.handle(context)
    assert result.ok and result.escalate
    assert "HighErrorRate" in result.summary and "payments" in result.summary
    assert "No runbook found" in result.summary
    assert result.data["steps"] and result.details.startswith("1. ")


def test_controller_explains_exit_137(make_context: ContextFactory) -> None:
    result = AlarmController().handle(make_context("job settle_batch exited with code 137"))
    assert result.ok and not result.escalate
    assert "SIGKILL" in result.summary
    assert any("137" in step for step in result.data["steps"])


def test_controller_declines_messages_without_an_alert(make_context: ContextFactory) -> None:
    alarm = AlarmController()
    context = make_context("what's the wifi password for guests?")
    dry = alarm.dry_run(context)
    assert not dry.ok and "no alert" in dry.reason
    assert not alarm.handle(context).ok


def test_a_metric_is_named_in_the_readers_words(make_context: ContextFactory) -> None:
    """ "payments-api 上的 error_rate" showed the parser's key to a Chinese reader."""
    result = AlarmController().handle(make_context("prod 的 payments-api 5xx 飙升了"))
    assert result.ok and "错误率" in result.summary and "error_rate" not in result.summary
    english = AlarmController().handle(make_context("error rate on payments-api is 12%"))
    assert "error rate 12%" in english.summary and "error_rate" not in english.summary
