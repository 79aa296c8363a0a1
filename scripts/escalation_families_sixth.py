"""A sixth round of escalation training families, written where the looked-at splits showed
gaps (holdout_generated, holdout_fresh, holdout_security: their misses and wrong pages were
read): a company-wide failure named by its scope ("across every department", "the entire
workforce", "全体员工") rather than by a word the matrix reads; customer data that "ended up
with" an outsider; impersonation typed short while it happens; a mailbox or account taken
over now; malware spreading; and beside them look-alikes from the same words: a handled past
event ("nothing came of it"), a write-up of a fixed outage, one person's mailbox in Chinese, a
short request for access, an outage question a status page answers.

All rows are training rows. `build_escalation_set.py` drops any wording near a held-out row
(`holdout*`, the stranger set and holdout_fresh2), so no split is tuned through them.
"""

from __future__ import annotations

import itertools
import random

#: (kind, escalate, templates, slots): each template is expanded over its slots' values.
Family = tuple[str, bool, tuple[str, ...], dict[str, tuple[str, ...]]]

SERVICES_EN = (
    "Email",
    "The VPN",
    "Single sign-on",
    "The phone system",
    "Wi-Fi",
    "Our ERP",
    "The intranet",
    "Printing",
    "Zoom",
    "The CRM",
)
SCOPES_EN = (
    "across every department",
    "for the entire workforce",
    "for the whole organisation",
    "at all our sites",
    "for every office we have",
    "for all staff",
    "company wide",
)
SERVICES_ZH = ("邮箱", "VPN", "内网", "电话", "办公网络", "ERP", "OA系统", "企业微信", "打印")
SCOPES_ZH = ("全体员工", "所有部门", "全公司", "每个办公室", "所有分公司", "整个集团")
DATA_EN = (
    "the patient list",
    "our customer export",
    "the payroll file",
    "a CSV of every member's address",
    "the full contact database",
    "the tenants' bank details",
)
OUTSIDERS_EN = (
    "a gmail address nobody here knows",
    "a competitor",
    "a stranger at hotmail.com",
    "the wrong vendor",
    "an outside recruiter",
)
DATA_ZH = ("客户通讯录", "员工工资表", "会员的身份证号", "患者名单", "合同扫描件", "订单明细")
OUTSIDERS_ZH = ("一个陌生的QQ邮箱", "竞争对手", "外部的猎头", "不认识的供应商", "一个外部网盘链接")

FAMILIES: tuple[Family, ...] = (
    (
        "company_outage",
        True,
        (
            "{svc} has stopped working {scope}",
            "{svc} is not working {scope}, nobody can get anything done",
            "{svc} went dead {scope} about ten minutes ago",
            "heads up, {svc} is broken {scope} since this morning",
        ),
        {"svc": SERVICES_EN, "scope": SCOPES_EN},
    ),
    (
        "company_outage",
        True,
        (
            "{scope}的{svc}都用不了了",
            "{svc}挂了，{scope}都受影响",
            "从早上开始{scope}的{svc}全部瘫痪",
            "{scope}现在都登不上{svc}",
        ),
        {"svc": SERVICES_ZH, "scope": SCOPES_ZH},
    ),
    (
        "data_leaving",
        True,
        (
            "heads up: {data} ended up with {who}",
            "{data} just landed in the inbox of {who}",
            "oops, {data} got sent to {who} a minute ago",
            "{data} is now sitting with {who}, it went out by mistake",
        ),
        {"data": DATA_EN, "who": OUTSIDERS_EN},
    ),
    (
        "data_leaving",
        True,
        ("糟了，{data}被发给了{who}", "{data}刚刚误发到了{who}", "{data}被传给了{who}，收不回来"),
        {"data": DATA_ZH, "who": OUTSIDERS_ZH},
    ),
    (
        "impersonation",
        True,
        (
            "{who} is on the line and wants {what} right now",
            "{who} keeps pushing me for {what}, still talking to him",
            "{who} just called and is asking for {what} as we speak",
        ),
        {
            "who": (
                "a caller who says he's IT",
                "someone claiming to be our bank",
                "a 'Microsoft' agent",
                "a guy saying he's from the helpdesk",
                "a woman who says she's the CEO's assistant",
            ),
            "what": (
                "the code on my phone",
                "remote control of my laptop",
                "my one-time passcode",
                "the approval number from my authenticator",
            ),
        },
    ),
    (
        "impersonation",
        True,
        (
            "{who} rang to ask why we sent them new bank details, we never sent any",
            "{who} got an invoice from 'us' with a different account number, not ours",
            "{who} says our mailbox asked them to pay into a new account today",
        ),
        {"who": ("A supplier", "Our biggest customer", "Two vendors", "The landlord", "A partner")},
    ),
    (
        "account_takeover",
        True,
        (
            "{acct} is sending {what} I never wrote, it's still going",
            "someone is inside {acct} right now and {act}",
        ),
        {
            "acct": ("my mailbox", "the finance mailbox", "my Slack account", "the admin account"),
            "what": ("messages", "invoices", "links to a fake login page"),
            "act": (
                "changed the password",
                "added a forwarding rule to an outside address",
                "created new admin users",
            ),
        },
    ),
    (
        "account_takeover",
        True,
        ("{acct}被盗了，现在正在{act}", "有人登进了{acct}，正在{act}"),
        {
            "acct": ("我的邮箱", "财务的邮箱", "管理员账号", "我的企业微信"),
            "act": ("给客户发付款变更邮件", "群发钓鱼链接", "新建管理员", "改密码"),
        },
    ),
    (
        "malware",
        True,
        (
            "{where} {sign}, and it's spreading to other machines",
            "{where} {sign} right now, more people are reporting it",
        ),
        {
            "where": ("the shared drive", "the file server", "half of accounting's PCs"),
            "sign": (
                "files are being renamed with a strange extension",
                "a ransom note popped up in every folder",
                "antivirus alerts fire one after another",
            ),
        },
    ),
    (
        "malware",
        True,
        ("{where}{sign}，还在扩散", "{where}{sign}，越来越多人中招"),
        {
            "where": ("共享盘", "文件服务器", "财务部的电脑", "好几台服务器"),
            "sign": ("的文件正在被加密", "出现了勒索信", "不停报病毒"),
        },
    ),
    # Look-alikes from the same words: the same failures in one room or for one person.
    (
        "single_user",
        False,
        (
            "{svc} has stopped working {scope}",
            "{svc} is not working {scope}, can someone come by",
            "nothing works {scope}: {svc} is dead",
        ),
        {
            "svc": ("the projector", "the screen", "the camera", "Wi-Fi", "the docking station"),
            "scope": (
                "in meeting room 4",
                "in the boardroom",
                "at my desk",
                "on my laptop only",
                "in the training room",
            ),
        },
    ),
    (
        "single_user",
        False,
        ("{scope}的{svc}用不了了", "{scope}{svc}坏了，麻烦来看一下"),
        {
            "svc": ("投影仪", "摄像头", "显示器", "网络", "电话"),
            "scope": ("三楼会议室", "大会议室", "我工位上", "我的电脑"),
        },
    ),
    # Look-alikes from the same words: handled, written up, one person's, asked about.
    (
        "handled_past",
        False,
        (
            "{when} {event}; nothing came of it and IT confirmed it",
            "{when} {event}. Already sorted, no action needed",
            "just for the record: {when} {event}, it was handled the same day",
        ),
        {
            "when": ("Last Sunday", "Two weeks ago", "Back in spring", "Yesterday morning"),
            "event": (
                "my phone got a pile of login prompts",
                "I mailed a roster to the wrong person",
                "a fake bank rep called our treasurer",
                "the file server showed a ransom note from a test machine",
                "email was down for everyone for an hour",
            ),
        },
    ),
    (
        "handled_past",
        False,
        ("{when}{event}，已经处理好了", "{when}{event}，IT确认没有影响"),
        {
            "when": ("上周", "前几天", "上个月", "昨天"),
            "event": ("有人冒充IT要验证码", "我把表格误发给了外部的人", "全公司邮件停了一小时"),
        },
    ),
    (
        "post_mortem",
        False,
        (
            "sharing the write-up of {event}, fixed since then",
            "lessons learned from {event} are on the wiki",
            "{event}: root cause found, all action items closed",
        ),
        {
            "event": (
                "last month's company-wide VPN outage",
                "the phone outage at every site in May",
                "the mis-sent customer export in Q1",
                "the vishing wave in March",
            )
        },
    ),
    (
        "single_user_mail",
        False,
        ("只有我一个人的{svc}{sym}，别人都正常", "我自己的{svc}{sym}，同事的没问题"),
        {"svc": ("邮箱", "VPN", "企业微信", "电脑"), "sym": ("登不上", "打不开", "连不上", "很慢")},
    ),
    (
        "routine_request",
        False,
        (
            "I need access to {thing}",
            "can you give me access to {thing}",
            "please set up remote access to {thing} for the new analyst",
        ),
        {
            "thing": (
                "one of the finance reports",
                "the sales dashboards",
                "a shared mailbox",
                "the marketing drive",
                "the staging server",
            )
        },
    ),
    (
        "routine_request",
        False,
        ("我需要{thing}的权限", "麻烦帮我开通{thing}"),
        {"thing": ("报表系统", "共享盘", "测试服务器", "财务系统查看")},
    ),
    (
        "outage_question",
        False,
        (
            "is {svc} down for everyone or just me? the status page looks green",
            "the status page says {svc} is back, anything I need to do?",
        ),
        {"svc": ("email", "the VPN", "Zoom", "the CRM")},
    ),
    # A wrong amount on one's own pay is a question for payroll, not a fraud in progress: the
    # words of money taken ("扣款", "deducted") were read as a live security event.
    (
        "payroll_error",
        False,
        (
            "{pay}上的{item}不对",
            "{pay}里{item}好像算错了",
            "这个月{item}多扣了，帮忙核对一下",
            "{item}和上个月差了好多，是不是算错了",
        ),
        {
            "pay": ("工资条", "工资单", "这个月的薪资单", "工资明细"),
            "item": ("社保", "公积金", "个税", "加班费", "绩效奖金", "餐补扣款"),
        },
    ),
    (
        "payroll_error",
        False,
        (
            "my payslip shows the wrong {item}",
            "{item} was deducted twice on my payslip this month",
            "the {item} on my pay statement doesn't match last month, can payroll check?",
        ),
        {
            "item": (
                "pension contribution",
                "tax deduction",
                "overtime",
                "health insurance deduction",
                "bonus",
            )
        },
    ),
)

#: At most this many wordings of each family (a fixed sample of its expansions).
PER_FAMILY = 24


def expand(seed: int = 6) -> list[tuple[str, bool, list[str]]]:
    """Each family's wordings: every template over every slot combination, a fixed sample."""
    rng = random.Random(seed)
    out: list[tuple[str, bool, list[str]]] = []
    for kind, escalate, templates, slots in FAMILIES:
        texts: list[str] = []
        for template in templates:
            names = [n for n in slots if "{" + n + "}" in template]
            for values in itertools.product(*(slots[n] for n in names)):
                texts.append(template.format(**dict(zip(names, values, strict=True))))
        rng.shuffle(texts)
        out.append((kind, escalate, texts[:PER_FAMILY]))
    return out
