"""A seventh round of escalation rows, in twins: the same event told while it is happening and
told as handled, past or simulated, in English and Chinese (MFA pushes, a caller after a code,
a fake boss or vendor, a mis-sent file, a public link or key, ransomware, a site-wide outage,
a phishing wave beside our own drill of it).

Linear models over sentence vectors read the topic and barely whether it is over: "last
weekend I got a bunch of sign-in prompts, I denied them and IT already checked my account"
paged like the live push flood. Twins differ in that one thing, so a model fitted on them
alone (the "live" contrast, `brain.escalation.contrast`) learns that thing, and the
escalation model reads its output as an input. A live twin may be in the past tense ("this
morning I typed my password into a fake page and it can't be undone"), and some twins are
told at the same moment, one still open and one closed: what is contrasted is whether the
event is over, not the grammar. The twins teach the contrast only, not the escalation model's
own fit; none is near a held-out row (`build_escalation_set.py` drops both twins then).

Tried and left out: "wide" twins (the same failure for a site and for one person) and a second
contrast fitted on them: it read scope (0.71-0.79 on site-wide wordings the matrix reads as one
person's) but the escalation model gave it little weight, and the looked-at splits gained a
wrong page and the desk e-mails one more page.
"""

from __future__ import annotations

import random

#: (kind, live cores, past cores): a live core reads as happening now, a past core as a
#: finished event; both name the same event.
EventEN = tuple[str, tuple[str, ...], tuple[str, ...]]

EVENTS_EN: tuple[EventEN, ...] = (
    (
        "account_takeover",
        (
            "my phone keeps getting sign-in approval requests I didn't start",
            "I'm being spammed with MFA prompts I never asked for",
        ),
        (
            "I got a string of sign-in approval requests I hadn't started",
            "I was spammed with MFA prompts I never asked for",
        ),
    ),
    (
        "impersonation",
        (
            "someone claiming to be IT is on the phone asking for the code my phone just got",
            "a caller who says he's from our bank wants me to read out the payment code",
        ),
        (
            "someone claiming to be IT phoned and asked for the code my phone had got",
            "a caller who said he was from our bank wanted me to read out the payment code",
        ),
    ),
    (
        "impersonation",
        (
            "a message from 'the MD' is telling me to wire 30k to a new supplier before noon",
            "someone pretending to be our CFO is pushing me to buy gift cards for a client",
        ),
        (
            "a message from 'the MD' told me to wire 30k to a new supplier",
            "someone pretending to be our CFO pushed me to buy gift cards for a client",
        ),
    ),
    (
        "impersonation",
        (
            "our accounts mailbox is sending suppliers new bank details that none of us wrote",
            "a vendor is asking why our address mailed them a different account number",
        ),
        (
            "our accounts mailbox sent suppliers new bank details that none of us wrote",
            "a vendor asked why our address had mailed them a different account number",
        ),
    ),
    (
        "data_leaving",
        (
            "I've just sent the client list with phone numbers to an outside address by mistake",
            "the salary spreadsheet has gone to a recruiter's gmail instead of our HR lead",
        ),
        (
            "I sent the client list with phone numbers to an outside address by mistake",
            "the salary spreadsheet went to a recruiter's gmail instead of our HR lead",
        ),
    ),
    (
        "data_leaving",
        (
            "the folder with everyone's passport scans is open to anyone with the link and the "
            "link is on a public forum",
            "our customer database backup is downloadable from a public bucket",
        ),
        (
            "the folder with everyone's passport scans was open to anyone with the link",
            "our customer database backup was downloadable from a public bucket",
        ),
    ),
    (
        "data_leaving",
        (
            "the production database password is sitting in a public GitHub repo",
            "a live Stripe secret key is pasted in the public community Slack",
        ),
        (
            "the production database password got into a public GitHub repo",
            "a live Stripe secret key was pasted in the public community Slack",
        ),
    ),
    (
        "malware",
        (
            "files on the file server are being encrypted one after another and a ransom note is "
            "appearing in every folder",
            "a virus is spreading across the sales laptops, pop-ups everywhere",
        ),
        (
            "files on the file server were encrypted and a ransom note appeared in every folder",
            "a virus spread across the sales laptops",
        ),
    ),
    (
        "account_takeover",
        (
            "I've just typed my password into a fake Microsoft login page",
            "someone is logged into my mailbox from another country and sending mail as me",
        ),
        (
            "I typed my password into a fake Microsoft login page",
            "someone logged into my mailbox from another country and sent mail as me",
        ),
    ),
    (
        "impersonation",
        (
            "a 'support agent' has control of my laptop through AnyDesk and is moving the mouse",
            "my work number has been moved to someone else's SIM and the MFA texts go to them",
        ),
        (
            "a 'support agent' got me to install AnyDesk and took control of my laptop",
            "my work number was moved to someone else's SIM",
        ),
    ),
    (
        "security",
        (
            "a stranger without a badge is in the server room saying he's from the power company",
            "a man with no visitor pass is walking around the finance floor photographing screens",
        ),
        (
            "a stranger without a badge got into the server room saying he was from the power "
            "company",
            "a man with no visitor pass walked around the finance floor photographing screens",
        ),
    ),
)
NOW_EN = ("", " right now", " as we speak", ", it's still going on", " this very minute")
#: The last is asked of impersonation only (a caller, a message, a mailbox that may be fake).
ASK_EN = ("", " What do I do?", " Please help.", " Need someone on this asap.", " Is this legit??")
#: A live event told in the past tense: it happened minutes ago and nothing is done yet.
RECENT_EN = (
    " a few minutes ago and nobody has looked at it yet",
    " just now, what should I do?",
    " ten minutes ago and I don't know what to do",
    " this morning and it still isn't sorted",
    " an hour ago and it can't be undone from my side",
    " and nobody here knows how to stop it",
    " at lunchtime; it's been going on for an hour already",
)
WHEN_EN = (
    "Last week",
    "On Monday",
    "Back in March",
    "A couple of weeks ago",
    "Yesterday",
    "Over the weekend",
    "Last month",
    "Earlier today",
)
DONE_EN = (
    "I reported it and security closed it the same day",
    "IT already checked everything and it's all fine",
    "we caught it at the time and nothing was lost",
    "it was dealt with back then",
    "it's been sorted and the passwords were reset",
    "nothing came of it in the end",
)
AFTER_EN = (
    "",
    " Just letting you know for the record.",
    " Can you close the old ticket?",
    " Is there any training on this?",
    " Where do I log it for the audit?",
    " FYI.",
)

EVENTS_ZH: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "impersonation",
        ("有人冒充IT打电话要我手机上的验证码", "自称银行客服的人在电话里要网银的动态码"),
    ),
    ("impersonation", ("冒充老板的微信让我给一个新供应商转账", "有人假扮财务总监让出纳买购物卡")),
    ("impersonation", ("财务邮箱在给供应商发更改收款账号的邮件，不是我们发的",)),
    ("data_leaving", ("客户名单被误发到了外部邮箱", "员工工资表被发到了一个猎头的私人邮箱")),
    (
        "data_leaving",
        ("员工身份证扫描件的共享链接被设成了公开", "客户数据库备份放在公网能直接下载"),
    ),
    ("data_leaving", ("生产库的root密码被提交到了公开的代码仓库",)),
    (
        "malware",
        ("文件服务器上的文件被加密，每个目录都有勒索信", "销售部好几台电脑中了病毒，到处弹窗"),
    ),
    (
        "account_takeover",
        ("我在假的OA登录页面输了账号密码", "我的邮箱被人从国外登录，用我的名义发邮件"),
    ),
    ("account_takeover", ("手机一直收到不是我发起的MFA推送", "我的手机号被转到了别人的SIM卡上")),
    ("impersonation", ("自称客服的人让我装了远程软件，控制了我的电脑",)),
    ("security", ("没戴工牌的陌生人进了机房，说是来查电表的",)),
)
#: The third is for impersonation only (someone on the other end who may be fake).
LIVE_ZH = (
    "{core}，现在还在继续",
    "刚刚{core}，怎么办？",
    "{core}，对方还在，这是真的吗？",
    "紧急：{core}，请马上处理",
    "就在刚才，{core}，还没人处理",
    "{core}，我该怎么办",
    "{core}，已经半个小时了，还没人处理",
    "今天上午{core}，到现在还没解决",
    "{core}，已经持续一个小时了",
)
WHEN_ZH = ("上周", "上个月", "周一", "前两天", "三月份", "昨天", "今天早上", "上周末")
DONE_ZH = (
    "当时就发现了，已经处理好了",
    "已经报给安全部，他们说没事",
    "IT已经查过了，没有问题",
    "密码也改了，事情已经解决",
    "最后没有造成损失",
    "当时就处理完了",
)
AFTER_ZH = (
    "",
    "，只是跟你们说一声",
    "，可以关单吗？",
    "，想问下有没有相关培训",
    "，记录一下",
    "，仅供参考",
)

#: Site-wide failures: a service, a site, and how its whole staff is cut off.
SERVICES_EN = (
    "get onto the VPN",
    "log in to email",
    "reach the ERP",
    "print anything",
    "make outside calls",
    "open SharePoint",
    "connect to the Wi-Fi",
    "sign in to Okta",
)
PLACES_EN = (
    "the Paris office",
    "the warehouse",
    "the call centre",
    "the Munich site",
    "any of our branches",
    "the Singapore office",
    "the head office",
    "the factory",
)
WIDE_EN = (
    "Nobody in {place} can {svc}",
    "None of the staff at {place} can {svc} since 9am",
    "Every person in {place} is unable to {svc}, about 80 of us",
)
SERVICES_ZH = (
    "连VPN",
    "登录邮箱",
    "打开ERP",
    "打印",
    "打外线电话",
    "登录OA",
    "连无线网络",
    "登录企业微信",
)
PLACES_ZH = (
    "北京办公室",
    "仓库",
    "客服中心",
    "苏州工厂",
    "各个分公司",
    "新加坡办公室",
    "总部",
    "研发中心",
)
WIDE_ZH = (
    "{place}所有人都没法{svc}",
    "{place}没有一个人能{svc}，从九点开始",
    "{place}的每台电脑都不能{svc}，八十多个人受影响",
    "现在{place}全员都无法{svc}",
)
#: A site-wide failure told while it lasts and told once it was fixed (a "live" twin).
PAST_WIDE_EN = (
    "Nobody in {place} could {svc}",
    "None of the staff at {place} could {svc} for a while",
    "Every person in {place} was unable to {svc}",
)
LASTS_EN = ("", ", still the case", " and it's been an hour already", ", nothing has changed yet")
FIXED_EN = (
    "it was fixed by noon",
    "it came back after an hour",
    "all working again since then",
    "the network team sorted it the same day",
)
LASTS_ZH = ("", "，到现在还没恢复", "，已经一个小时了", "，还在持续")
FIXED_ZH = ("后来恢复了", "一个小时后就修好了", "现在已经正常了", "网络组当天就处理好了")
#: A real phishing wave beside our own simulation of it (a "live" twin: a drill is no event).
BRANDS_EN = ("DHL", "DocuSign", "Microsoft 365", "payroll", "FedEx", "Zoom", "SharePoint")
REAL_EN = (
    "A fake {brand} email asking for passwords is going round the whole company",
    "Several of us just got a fake {brand} login page and two people typed their passwords in",
    "Fake {brand} invoices with a malware link keep arriving in staff inboxes",
)
DRILL_EN = (
    "The fake {brand} email going round is our own phishing simulation, nothing to do",
    "The fake {brand} login page people got today was part of the security team's test",
    "Those fake {brand} invoices come from the awareness training vendor, it's a drill",
)
BRANDS_ZH = ("顺丰", "钉钉", "人事系统", "微软", "财务系统", "快递")
REAL_ZH = (
    "全公司都在收到冒充{brand}的钓鱼邮件，要求输入密码，已经有人输了",
    "冒充{brand}的带病毒附件的邮件还在不断发到员工邮箱",
)
DRILL_ZH = (
    "冒充{brand}的那封邮件是安全部的钓鱼演练，不用理会",
    "今天大家收到的冒充{brand}的邮件是培训供应商的测试，不是真的攻击",
)
#: Twins drawn per event, and per service (half as many) for site-wide failures.
PER_EVENT = 10
PER_SERVICE = 5


#: The same moment on both twins, so that only the ending tells them apart: still a problem,
#: or dealt with.
SAME_TIME_EN = ("This morning", "An hour ago", "Just now", "Earlier today", "At 9am")
OPEN_EN = (
    "and it can't be recalled",
    "and nobody has done anything about it yet",
    "and I don't know how to stop it",
    "and it's still out there",
)
CLOSED_EN = (
    "but security dealt with it straight away",
    "but it was caught and undone within minutes",
    "but IT has already sorted it out",
    "but it's been handled, nothing was lost",
)
SAME_TIME_ZH = ("今天早上", "一个小时前", "刚才", "上午")
OPEN_ZH = ("到现在还没处理", "已经收不回来了", "不知道该怎么办", "还没有人管")
CLOSED_ZH = (
    "不过安全部马上处理好了",
    "不过几分钟内就撤回了，没有损失",
    "IT已经处理完了",
    "已经解决了，没有损失",
)


def _same_time(
    rng: random.Random, core: str, times: tuple[str, ...], open_: str, closed: str, zh: bool
) -> tuple[str, str]:
    """Twins told at the same moment, one still open and one closed."""
    when = rng.choice(times)
    if zh:
        return f"{when}{core}，{open_}", f"{when}{core}，{closed}"
    return f"{when} {core} {open_}.", f"{when} {core}, {closed}."


def _tense_en(rng: random.Random) -> list[tuple[str, str, str]]:
    pairs = []
    for kind, live, past in EVENTS_EN:
        for _ in range(PER_EVENT):
            i = rng.randrange(len(live))
            if rng.random() < 0.4:
                now, then = _same_time(
                    rng, past[i], SAME_TIME_EN, rng.choice(OPEN_EN), rng.choice(CLOSED_EN), False
                )
                pairs.append((kind, now, then))
                continue
            if rng.random() < 0.5:
                now = past[i] + rng.choice(RECENT_EN)
            else:
                asks = ASK_EN if kind == "impersonation" else ASK_EN[:-1]
                now = live[i] + rng.choice(NOW_EN) + "." + rng.choice(asks)
            then = f"{rng.choice(WHEN_EN)} {past[i]}; {rng.choice(DONE_EN)}.{rng.choice(AFTER_EN)}"
            pairs.append((kind, _capital(now.replace("..", ".")), then))
    return pairs


def _tense_zh(rng: random.Random) -> list[tuple[str, str, str]]:
    pairs = []
    for kind, cores in EVENTS_ZH:
        for _ in range(PER_EVENT):
            core = rng.choice(cores)
            if rng.random() < 0.4:
                now, then = _same_time(
                    rng, core, SAME_TIME_ZH, rng.choice(OPEN_ZH), rng.choice(CLOSED_ZH), True
                )
                pairs.append((kind, now, then))
                continue
            frames = LIVE_ZH if kind == "impersonation" else LIVE_ZH[:2] + LIVE_ZH[3:]
            now = rng.choice(frames).format(core=core)
            then = f"{rng.choice(WHEN_ZH)}{core}，{rng.choice(DONE_ZH)}{rng.choice(AFTER_ZH)}"
            pairs.append((kind, now, then))
    return pairs


def _outage_live(rng: random.Random) -> list[tuple[str, str, str]]:
    pairs = []
    for svc, svc_zh in zip(SERVICES_EN, SERVICES_ZH, strict=True):
        for _ in range(PER_SERVICE // 2 + 1):
            place, k = rng.choice(PLACES_EN), rng.randrange(len(PAST_WIDE_EN))
            now = WIDE_EN[k].format(place=place, svc=svc) + rng.choice(LASTS_EN)
            then = PAST_WIDE_EN[k].format(place=place, svc=svc)
            then = f"{rng.choice(WHEN_EN)} {then[0].lower()}{then[1:]}; {rng.choice(FIXED_EN)}."
            pairs.append(("company_outage", now, then + rng.choice(AFTER_EN)))
            place, k = rng.choice(PLACES_ZH), rng.randrange(len(WIDE_ZH))
            now = WIDE_ZH[k].format(place=place, svc=svc_zh) + rng.choice(LASTS_ZH)
            then = f"{rng.choice(WHEN_ZH)}{WIDE_ZH[k].format(place=place, svc=svc_zh)}"
            pairs.append(("company_outage", now, f"{then}，{rng.choice(FIXED_ZH)}"))
    return pairs


def _drills(rng: random.Random) -> list[tuple[str, str, str]]:
    pairs = []
    for brand in BRANDS_EN:
        for k in range(len(REAL_EN)):
            pairs.append(
                (
                    "impersonation",
                    REAL_EN[k].format(brand=brand) + rng.choice(NOW_EN) + ".",
                    DRILL_EN[k].format(brand=brand) + ".",
                )
            )
    for brand in BRANDS_ZH:
        for k in range(len(REAL_ZH)):
            pairs.append(
                ("impersonation", REAL_ZH[k].format(brand=brand), DRILL_ZH[k].format(brand=brand))
            )
    return pairs


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def twins(seed: int = 7) -> list[tuple[str, str, str, str]]:
    """(contrast, kind of the live twin, live twin, other twin): the same event happening and
    handled (contrast "live"). Deduplicated, in a fixed order."""
    rng = random.Random(seed)
    out: list[tuple[str, str, str, str]] = []
    for contrast, pairs in (
        ("live", _tense_en(rng)),
        ("live", _tense_zh(rng)),
        ("live", _outage_live(rng)),
        ("live", _drills(rng)),
    ):
        out.extend((contrast, kind, a, b) for kind, a, b in pairs)
    seen: set[str] = set()
    kept = []
    for row in out:
        if row[2] not in seen and row[3] not in seen:
            seen.update(row[2:])
            kept.append(row)
    return kept


if __name__ == "__main__":
    for row in twins():
        print(row)
