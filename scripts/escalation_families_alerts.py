"""A seventeenth round of escalation rows: monitoring alerts a person pastes or reads out as a
warning, which must not page alone.

The escalation model had never seen an alert: "[FIRING:1] 磁盘使用率超过90% host=db-01" paged
alone as a live security event. The routing set's alarm rows join the routine requests
(`build_escalation_set.py`); these add the kinds of alert it has few of (disk, memory, CPU,
latency, error rate, jobs, replication, certificates read out as a warning), in English,
Chinese and both mixed. Tried and dropped beside them: fourteen alerts with a live failure
people feel (payments failing for every customer, the clearing run that cannot start) as
pages; they raised one person's Chinese trouble ("公司 VPN 我在家连不上") over the bar.

Hand-written, no templates; all rows are training rows (`build_escalation_set.py` drops any
near a held-out row, a row of an unread split or of the development set).
"""

from __future__ import annotations

# fmt: off
#: Alerts read out or pasted as a warning: one host, a threshold crossed, nothing stopped.
WARNINGS = (
    "[FIRING:1] NodeMemoryHigh instance=app-07 usage=91% severity=warning",
    "[FIRING:1] 内存使用率 93% host=report-02，帮忙看看是什么进程",
    "[FIRING:3] 磁盘使用率超过 85% /var/lib/docker host=k8s-node-09",
    "disk usage alert on build-03, /home is at 88%, can someone clean it up",
    "CPU 告警：batch-05 负载 12，持续二十分钟了，正常吗",
    "[FIRING:1] HighRequestLatency service=fx-quote p95=900ms severity=warning",
    "接口 p99 延迟告警：行情查询从 300ms 升到 1.2s，还能用，就是慢",
    "[FIRING:1] CertificateExpiry cn=intranet.corp days_left=12",
    "证书快过期的告警又来了，还有 10 天，谁来续一下",
    "[FIRING:2] KubeJobFailed job=report-export-nightly namespace=reporting",
    "告警说 nightly 的报表导出任务失败了，退出码 1，重跑一下可以吗",
    "replication lag alert on pg-replica-3 is at 120s, it usually catches up",
    "[FIRING:1] RabbitmqQueueBacklog queue=notifications messages=15000",
    "错误率告警：通知服务 2% 的请求 500，阈值是 1%",
    "zabbix 报 swap 使用率 70%，app-11，要不要加内存",
    "[FIRING:1] 文件句柄使用率 82% host=gw-04 severity=warning",
)
# fmt: on


def families() -> list[tuple[str, bool, list[str]]]:
    """The families as (kind, escalate, wordings)."""
    return [("alert_reading", False, list(WARNINGS))]
