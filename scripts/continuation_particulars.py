"""Particulars of a report said as details, for the continuation set's train split
(`make_continuation_set.py`).

An identifier said after a report, an asset tag, a serial, a host, a job, a payment reference,
a repository, the OS ("the tag on the back says LT-30917", "主机名 db-replica-2"), is a
particular of the record: the set held no row that said one, and the model read such a line as
new work (P(continue) 0.2-0.4), so the bot asked which record it was about or filed a second
one. Here each train record (the bot waiting for no value, or for a category: an id is no
category) gets one identifier of a shape that fits it (a device's tag or serial, a service's
host or job, a payment's reference, code's repository) as an update.

Tried beside them and dropped, each for costing one follow-up or one reply's language on the
conversation benchmark's unread splits while gaining two on stranger3: counted retries ("ran it
four times, same result"), operators' reports on alarms ("we killed the stuck consumer", "p99
is back to 200ms"), identifiers said as the answer where a service or system was asked, other
problems naming an identifier as new work ("can someone look at JOB-4471, it's stuck" as new
also taught the model that "can someone look at this, it's stuck" was new: P(continue) 1.00 ->
0.17), and the same lines with the category asked.

How they were written: patterns and values invented for this file in English and Chinese, in
the shapes help desks use, none taken from the conversation benchmark's splits. Appended after
the other families with a random stream of their own, so the other rows do not move; each
pattern is its own template, so the calibration folds keep a wording together.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from continuation_context import train_threads

#: Identifier values by shape (said the same way in English and Chinese).
IDS: dict[str, Sequence[str]] = {
    "tag": ["LT-30917", "AT-55120", "NB-7781", "PC-004512", "MAC-2291", "HW-18830", "DT-6604",
            "IT-ASSET-0932", "TAG 44817", "WS-1207"],
    "serial": ["C02XK1ZZJGH5", "PF3K8Q2M", "5CD2148XYZ", "SN 8841-22-A", "FVFG7731Q6L4",
               "R9WN30ABC", "JX0Q2291"],
    "host": ["db-replica-2", "web-prod-14", "etl-worker-03", "pay-gw-01", "k8s-node-27",
             "mq-broker-b", "srv-fin-app09", "cache-eu-2"],
    "job": ["NIGHTLY-EXPORT", "gl-close-batch", "invoice_sync_v2", "JOB-4471", "daily-fx-rates",
            "ledger-rollup", "PAYOUT-T1", "etl_customer_dim"],
    "ref": ["TXN-20261130-8842", "PO-558120", "INV-2026-00417", "REF 77120934", "ORD-88213-B",
            "PMT-4410923", "BATCH-0712"],
    "repo": ["platform/checkout-web", "data/etl-jobs", "infra/terraform-core", "mobile-app-ios",
             "fin/ledger-service", "tools/release-bot"],
    "os": ["Windows 10 22H2", "macOS Sonoma", "Ubuntu 22.04", "Windows 11 Pro", "iOS 17",
           "Android 14", "macOS Ventura 13.6"],
}  # fmt: skip
#: How an identifier is said as a detail of the report ({x}: the value).
ID_PATTERNS: dict[str, dict[str, Sequence[str]]] = {
    "en": {
        "tag": ["asset tag {x}", "the tag on the back says {x}", "it's labelled {x}",
                "inventory number {x} if you need it", "sticker underneath reads {x}"],
        "serial": ["serial number {x}", "s/n {x}", "the serial is {x}", "serial: {x}, I think"],
        "host": ["the box is {x}", "hostname {x}", "it's on {x}", "happening on {x} only",
                 "node in question: {x}"],
        "job": ["the job is called {x}", "job name {x}", "it's {x} that fails",
                "{x} in the scheduler", "the failing one is {x}"],
        "ref": ["reference {x}", "the transaction id is {x}", "their invoice was {x}",
                "ref no. {x}", "it's {x} on our side"],
        "repo": ["repo is {x}", "it's the {x} repository", "pipeline for {x}", "in {x}"],
        "os": ["running {x}", "{x} here", "OS is {x}", "it's on {x}, fully patched"],
    },
    "zh": {
        "tag": ["资产标签{x}", "机器上贴的标签是{x}", "固定资产号 {x}", "背面标签写着{x}",
                "资产号：{x}"],
        "serial": ["序列号{x}", "SN：{x}", "序列号应该是{x}", "机身序列号 {x}"],
        "host": ["主机名 {x}", "出问题的机器是{x}", "在{x}上", "只有{x}这台有问题",
                 "服务器：{x}"],
        "job": ["作业叫{x}", "任务名：{x}", "挂的是{x}", "调度里的{x}", "出错的作业是{x}"],
        "ref": ["流水号{x}", "单号 {x}", "交易号是{x}", "对方发票号{x}", "我们这边的编号是{x}"],
        "repo": ["仓库是{x}", "代码库 {x}", "{x} 这个工程", "流水线属于{x}"],
        "os": ["系统是{x}", "装的{x}", "{x}，补丁都打了", "操作系统 {x}"],
    },
}  # fmt: skip
#: Which identifiers fit a record: a person's device, a service or job, money, code.
SHAPES_OF: dict[str, Sequence[str]] = {
    "device": ("tag", "serial", "os"),
    "service": ("host", "job"),
    "money": ("ref", "job"),
    "code": ("repo", "host"),
    "access": ("tag", "os"),
}
#: An incident about a service or a job (not a person's device): a host or a job fits it.
_SERVICE = re.compile(
    r"api|service|server|job|batch|latency|error rate|cpu|disk|queue|db|database|prod|cluster|"
    r"pipeline|服务|接口|任务|作业|批处理|延迟|数据库|告警|集群|流水线|磁盘|队列",
    re.IGNORECASE,
)
_MONEY = re.compile(
    r"pay|invoice|refund|transfer|settle|reconcil|付款|退款|到账|结算|对账|发票|打款|清算",
    re.IGNORECASE,
)
_CODE = re.compile(r"git|repo|pipeline|jenkins|build|deploy|仓库|流水线|构建|发布|代码", re.I)


def _shapes(kind: str, record: str) -> Sequence[str]:
    """The identifier shapes that fit the record."""
    if _CODE.search(record):
        return SHAPES_OF["code"]
    if _MONEY.search(record):
        return SHAPES_OF["money"]
    if kind in ("alarm", "change") or _SERVICE.search(record):
        return SHAPES_OF["service"]
    return SHAPES_OF["access"] if kind == "access" else SHAPES_OF["device"]


def particular_rows(rows: Sequence[dict[str, object]], seed: int = 7) -> list[dict[str, object]]:
    """For each train record (the bot waiting for nothing or a category): one identifier of a
    shape that fits it, as an update."""
    rng = random.Random(f"{seed}-particulars")
    added: list[dict[str, object]] = []
    for base in train_threads(rows):
        if base["question"] not in ("", "category"):
            continue
        lang, kind, record = str(base["lang"]), str(base["kind"]), str(base["record"])
        shape = rng.choice(list(_shapes(kind, record)))
        pattern = rng.choice(list(ID_PATTERNS[lang][shape]))
        added.append(_row(rng, base, _say(rng, pattern, lang, shape), pattern))
    return added


def _say(rng: random.Random, pattern: str, lang: str, shape: str) -> str:
    """The pattern said with a value of its shape, now and then capitalised (English)."""
    text = pattern.format(x=rng.choice(list(IDS[shape])))
    if lang == "en" and rng.random() < 0.3:
        text = text[0].upper() + text[1:]
    return text


def _row(
    rng: random.Random, base: dict[str, object], message: str, pattern: str
) -> dict[str, object]:
    """An update of the record `base` names, by its requester most of the time."""
    lang = str(base["lang"])
    return {
        **base,
        "message": message,
        "same_user": rng.random() < 0.85,
        "minutes": round(rng.uniform(1.0, 900.0), 1),
        "label": "update",
        "family": "particular",
        "template": f"{lang}:particular:{pattern}",
    }
