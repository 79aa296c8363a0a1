"""Reasons, approvals and purposes given where the bot asked for a value, for the continuation
set's train split (`make_continuation_set.py`).

Asked "To proceed I still need: system" after "can I get admin rights on my laptop", a person
often says why instead ("it's for installing docker desktop", "my manager signed off on it",
"要做月底结账用"). The set held almost none of those after a question (22 updates against 18
answers where a system was asked, nearly all retries), so the model read a purpose as the
answer and the bot filed "system: installing docker desktop". Here each train thread where
the bot waits for a value gets one or two such replies as updates (the record goes on, the
question stays open), and one answer that names a value in the same shape ("it's for Jira",
"for the Tableau one", "用 Jenkins 的") so the model learns the difference between what is
asked for and why, not that "for ..." is never an answer.

How they were written: patterns and values invented for this file in English and Chinese
(purposes, approvers, deadlines; systems and services), none from the conversation
benchmark's splits. Appended after the other families with a random stream of their own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

PURPOSES = {
    "en": ["installing docker desktop", "the design review on friday", "running the payroll export",
           "the audit next month", "onboarding two new hires", "testing the new release",
           "debugging a customer's issue", "month-end close", "the data migration",
           "building the quarterly dashboards", "covering for Maria while she's on leave",
           "a demo to the client", "setting up my dev environment", "updating drivers"],
    "zh": ["装 docker 桌面版", "周五的设计评审", "跑工资导出", "下个月的审计", "带两个新同事入职",
           "测新版本", "排查客户的问题", "月底结账", "数据迁移", "做季度报表", "替休假的同事顶班",
           "给客户做演示", "搭开发环境", "更新驱动"],
}  # fmt: skip
PEOPLE = {
    "en": ["my manager", "Priya", "my team lead", "our director", "Tom from security", "my boss",
           "Adebayo", "my line manager Siobhan", "Rajesh in finance", "Yuki", "Fatima (my lead)",
           "Mateus", "our head of ops Ingrid", "Nguyen Van An"],
    "zh": ["我经理", "王总", "组长", "部门总监", "安全组的李工", "老板", "直属领导欧阳",
           "财务的张姐", "项目经理 Kevin"],
}  # fmt: skip
DEADLINES = {
    "en": ["by tomorrow", "before monday", "this week", "by end of day", "before the 15th"],
    "zh": ["明天之前", "周一之前", "这周内", "今天下班前", "15号之前"],
}
REASONS = {
    "en": ["it's for {purpose}", "I need it for {purpose}", "for {purpose}",
           "it's so I can work on {purpose}", "need it for {purpose}, {deadline} ideally",
           "{person} already approved it", "{person} signed off on it yesterday",
           "approved by {person}", "it's needed {deadline} for {purpose}",
           "{person} asked me to do {purpose}", "because of {purpose}",
           "it's urgent, {purpose} depends on it", "fyi {person} is ok with this"],
    "zh": ["是为了{purpose}", "{purpose}要用", "要做{purpose}", "{person}已经批准了",
           "{person}同意过了", "{deadline}要用，做{purpose}", "因为{purpose}",
           "{person}让我弄的，{purpose}用", "挺急的，{purpose}等着呢"],
}  # fmt: skip
#: Values of the field asked for, said in the same shapes as the reasons.
VALUES = {
    "en": ["Jira", "Tableau", "the finance SharePoint", "GitLab", "Salesforce", "Jenkins",
           "the HR portal", "Confluence", "billing-api", "the CRM database", "Grafana", "AWS prod"],
    "zh": ["Jira", "Tableau", "财务共享盘", "GitLab", "Salesforce", "Jenkins", "人事系统",
           "Confluence", "计费服务", "CRM 数据库", "Grafana", "生产环境"],
}  # fmt: skip
ANSWERS = {
    "en": [
        "it's for {value}",
        "for {value}",
        "it's the {value} one",
        "{value}, please",
        "I need it on {value}",
    ],
    "zh": ["是{value}的", "要{value}的", "{value}", "就是{value}", "开{value}的"],
}
ASKED = ("system", "service", "window", "category")


def reason_rows(rows: Sequence[dict[str, object]], seed: int = 7) -> list[dict[str, object]]:
    """For each train thread where the bot waits for a value: one or two reasons (updates) and
    one answer in the same shape."""
    rng = random.Random(f"{seed}-reasons")
    added: list[dict[str, object]] = []
    seen: set[tuple[str, str]] = set()
    for base in rows:
        key = (str(base["record"]), str(base["question"]))
        if base["split"] != "train" or key in seen or base["question"] not in ASKED:
            continue
        seen.add(key)
        lang = str(base["lang"])
        picks = [("reason", p) for p in rng.sample(REASONS[lang], k=rng.choice([1, 2]))]
        if base["question"] in ("system", "service"):
            picks.append(("answer", rng.choice(ANSWERS[lang])))
        for source, pattern in picks:
            message = pattern.format(
                purpose=rng.choice(PURPOSES[lang]),
                person=rng.choice(PEOPLE[lang]),
                deadline=rng.choice(DEADLINES[lang]),
                value=rng.choice(VALUES[lang]),
            )
            added.append(
                {
                    **base,
                    "message": message,
                    "same_user": True,
                    "minutes": round(rng.uniform(0.5, 600.0), 1),
                    "label": "update" if source == "reason" else "answer",
                    "family": "reason" if source == "reason" else "answer",
                    "template": f"{lang}:asked_{source}:{pattern}",
                }
            )
    return added
