"""A new reading of the record's own measurement, for the continuation set's train split
(`make_continuation_set.py`): after an alert or a report that names a figure ("the API error
rate for checkout-service jumped to 12%"), the reporter tells how it goes on ("error rate is
back under 1%, looks recovered", "still around 900 ms", "积压降到两千了").

The set held recoveries said in words ("it's back up", "looks fine now") but few that give a
figure, and a figure reads like an alert: the model saw a metric and a number, took it for new
work and the bot filed a second alarm for the same spike. Here each thread states one
measurement on one service; two or three later readings of the same measurement (lower,
higher, unchanged; with the service named or not) are updates of it, and an alert about
another measurement of another service in the same thread is new, so the model learns that
the measurement and its subject make the relation, not the presence of a number.

How they were written: measurements, services and wordings invented for this file in English
and Chinese, none from the conversation benchmark's splits or the held-out author's pools.
Appended after the other families with a random stream of their own, so the other rows do not
move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from continuation_progress import topic_row


@dataclass(frozen=True)
class Measure:
    """One measurement: its names and three figures (bad, normal, worse) as people write
    them."""

    en: str
    zh: str
    bad: str
    normal: str
    worse: str


MEASURES = (
    Measure("error rate", "错误率", "12%", "0.5%", "20%"),
    Measure("p99 latency", "p99 延迟", "2.4s", "180ms", "5s"),
    Measure("CPU", "CPU", "97%", "35%", "100%"),
    Measure("memory usage", "内存使用率", "93%", "60%", "98%"),
    Measure("disk usage", "磁盘使用率", "91%", "70%", "96%"),
    Measure("queue backlog", "队列积压", "200k messages", "2k", "350k"),
    Measure("consumer lag", "消费延迟", "45 minutes", "under a minute", "an hour"),
    Measure("5xx count", "5xx 数量", "1,800 a minute", "a handful", "3,000 a minute"),
    Measure("response time", "响应时间", "8 seconds", "300ms", "15 seconds"),
    Measure("connection pool usage", "连接池占用", "100%", "40%", "maxed out"),
    Measure("packet loss", "丢包率", "30%", "0%", "50%"),
    Measure("replication lag", "主从延迟", "600s", "2s", "900s"),
)
SERVICES = (
    "checkout-service", "billing-api", "order-db", "the payment gateway", "settlement-batch",
    "kafka-broker-3", "the login service", "search-api", "report-worker", "crm-web",
    "gateway-02", "ledger-db",
)  # fmt: skip
RECORDS = {
    "en": [
        "{m} for {s} went up to {bad} over the last quarter hour",
        "[FIRING:1] {s} {m} at {bad}",
        "{s} {m} is at {bad}, alert just fired",
        "monitoring shows {m} on {s} climbing to {bad}",
        "heads up: {m} of {s} spiked to {bad} after the deploy",
    ],
    "zh": [
        "{s} 的{mz}刚才飙到了 {bad}",
        "监控告警：{s} {mz} {bad}",
        "{s} {mz}到 {bad} 了，告警在刷",
        "发布之后 {s} 的{mz}涨到 {bad}",
    ],
}
#: Later readings of the same measurement: updates of the record.
READINGS = {
    "en": [
        "{m} fell below {normal}, seems to have recovered",
        "back to {normal} now",
        "down to {normal} after the restart",
        "{m} dropped to {normal}, seems fine",
        "still hovering around {bad}",
        "it's getting worse, {worse} now",
        "{m} on {s} is {normal} again",
        "now at {worse} and climbing",
        "recovered, {m} {normal} for the last 10 min",
        "no change, still {bad}",
    ],
    "zh": [
        "{mz}回落到 {normal} 了，看着恢复了",
        "现在降到 {normal} 了",
        "重启以后{mz}到 {normal} 了",
        "还在 {bad} 左右",
        "又涨到 {worse} 了",
        "{s} 的{mz}已经回到 {normal}",
        "恢复了，{mz}这十分钟都在 {normal}",
        "没变化，还是 {bad}",
    ],
}
#: Another measurement of another service, alerted in the same thread: new work.
OTHERS = {
    "en": [
        "[FIRING:1] {s} {m} at {bad}",
        "separate alert: {m} on {s} is {bad}",
        "also {s} is showing {m} at {worse}",
    ],
    "zh": [
        "另外 {s} 的{mz}也告警了，{bad}",
        "监控告警：{s} {mz} {worse}",
    ],
}


def _say(pattern: str, measure: Measure, service: str) -> str:
    return pattern.format(
        m=measure.en,
        mz=measure.zh,
        s=service,
        bad=measure.bad,
        normal=measure.normal,
        worse=measure.worse,
    )


def _thread(
    rng: random.Random, lang: str, index: int, measures: Sequence[Measure]
) -> list[dict[str, object]]:
    """One thread: a measurement's alert, two or three later readings, sometimes one alert of
    another measurement elsewhere."""
    measure = rng.choice(measures)
    service = rng.choice(SERVICES)
    record = _say(rng.choice(RECORDS[lang]), measure, service)
    kind = "alarm" if rng.random() < 0.75 else "incident"
    minutes = rng.choice([5.0, 15.0, 45.0, 120.0])

    def row(message: str, label: str, family: str) -> dict[str, object]:
        return topic_row(
            rng,
            lang,
            kind,
            record,
            message,
            minutes,
            label,
            family,
            domain=f"{lang}-reading{index % 6}",
            group=f"{lang}:reading:{measures.index(measure)}",
        )

    said = rng.sample(READINGS[lang], k=rng.choice([2, 3]))
    rows = [row(_say(p, measure, service), "update", "reading") for p in said]
    if rng.random() < 0.5:
        other = rng.choice([m for m in measures if m != measure])
        elsewhere = rng.choice([s for s in SERVICES if s != service])
        rows.append(row(_say(rng.choice(OTHERS[lang]), other, elsewhere), "new", "new_reading"))
    return rows


def reading_rows(seed: int, threads: int = 40) -> list[dict[str, object]]:
    """Train rows: per language, `threads` threads of a measurement and its later readings."""
    rng = random.Random(f"{seed}-readings")
    rows: list[dict[str, object]] = []
    for lang in ("en", "zh"):
        for index in range(threads):
            rows.extend(_thread(rng, lang, index, MEASURES))
    return rows
