"""An eighth round of escalation training rows: a host's metric read out (disk, CPU, memory,
load) must not page, and handled past security events told in one breath must not either.

A disk filling up on one database host ("磁盘使用率到了95%，db-prod-2 上的", "disk usage on
db-prod-3 at 92% and climbing") paged as a P1 security event at p 0.98: nothing in the
families said that a single host's reading is the alarm controller's, not on-call's. The
handled past events are written by hand, one per event, unlike the seventh round's twins:
the twins teach the live contrast only, and the escalation model's own rows held too few
handled events to learn how much that contrast is worth. All rows are training rows, none near
a held-out row (`build_escalation_set.py` drops those).
"""

from __future__ import annotations

import itertools
import random

HOSTS = ("db-prod-7", "web-07", "cache-02", "build-agent-3", "es-node-5", "kafka-2", "pg-replica-4")
METRICS_EN = (
    "disk usage on {host} is at {pct}% and still growing",
    "{host}: CPU at {pct}% for the last {n} minutes",
    "memory on {host} is {pct}% used",
    "{host} disk is {pct}% full",
    "heads up, {host} load average has been above {load} since lunch",
    "the /var partition on {host} hit {pct}%",
)
METRICS_ZH = (
    "{host} 的磁盘使用率{pct}%了，还在涨",
    "{host} 的CPU使用率{pct}%，持续了{n}分钟",
    "{host} 内存占用{pct}%",
    "{host} 磁盘快满了，已经{pct}%",
    "{host} 负载一直在{load}以上",
    "{host} 上的 /var 分区到了{pct}%",
)
SLOTS = {"pct": ("88", "91", "96", "97"), "n": ("15", "20", "45"), "load": ("12", "20")}
PER_LANGUAGE = 30

HANDLED = (
    "two weeks ago our shared mailbox was used to send fake invoices; it was locked the same "
    "afternoon and customers were warned",
    "the AWS key that leaked in August was rotated within the hour, closing the audit item now",
    "back in spring a fake 'CFO' asked accounts for a transfer; the transfer was stopped and "
    "the case closed",
    "we had a push-bombing attempt on my account last Tuesday, I denied everything and the "
    "password was changed that day",
    "recap: Monday's ransomware alert on the print server was contained and restored from "
    "backup, no data lost",
    "the spreadsheet I sent to the wrong vendor last week was deleted on their side and legal "
    "closed it",
    "a caller posing as our bank tried to get the payment code in May; treasury hung up and "
    "reported it",
    "my laptop was stolen in March, it was encrypted and wiped remotely, I just need the "
    "insurance form",
    "last quarter's phishing wave against sales is over; the lessons-learned deck is attached",
    "someone got into the marketing Twitter account in January, we had it back the same day",
    "上个月共享邮箱被用来发假发票，当天下午就锁定了，也通知了客户",
    "八月泄露的那个云密钥一个小时内就轮换了，审计项可以关了",
    "春天的时候有人冒充财务总监让会计转账，钱被拦下来了，案子已经结了",
    "上周二有人一直给我推MFA，我都拒绝了，当天就改了密码",
    "周一打印服务器的勒索病毒告警已经控制住了，从备份恢复，没有数据丢失",
    "上周发错给供应商的表格对方已经删了，法务也结案了",
    "五月份有人冒充银行要付款验证码，财务当场挂断并上报了",
    "三月份笔记本被偷了，硬盘是加密的，已经远程擦除，现在只需要保险表格",
    "上季度针对销售部的钓鱼攻击已经结束，复盘材料在附件里",
    "一月份市场部的微博账号被盗，当天就找回来了",
)


def _readings(templates: tuple[str, ...], rng: random.Random) -> list[str]:
    texts = []
    for template, host in itertools.product(templates, HOSTS):
        names = [n for n in SLOTS if "{" + n + "}" in template]
        values = {n: rng.choice(SLOTS[n]) for n in names}
        texts.append(template.format(host=host, **values))
    rng.shuffle(texts)
    return texts[:PER_LANGUAGE]


def families(seed: int = 8) -> list[tuple[str, bool, list[str]]]:
    """(kind, escalate, wordings): metric readings in English and Chinese, handled events."""
    rng = random.Random(seed)
    return [
        ("metric_reading", False, _readings(METRICS_EN, rng)),
        ("metric_reading", False, _readings(METRICS_ZH, rng)),
        ("handled_past", False, list(HANDLED)),
    ]
