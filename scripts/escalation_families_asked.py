"""Twins of the "asked_now" contrast, written by hand: the same question asked while its event
is happening to the asker ("a man at reception wants my badge, he's waiting, should I give
it?") and asked in general ("should I ever lend my badge to a visitor?"), in English and
Chinese, on many topics.

The live contrast reads tense: a general question in the present tense ("how do ransomware
attacks spread inside a company?") reads as happening (0.79), so a question could page only when
the escalation model was sure (p >= 0.9). A contrast fitted on question twins alone learns what
sets a question asked in the middle of an event apart from the same question asked about the
world. Twins only: no row of the escalation model's own fit.
"""

from __future__ import annotations

#: (kind of the live twin, asked while it happens, asked in general)
ASKED_NOW = (
    (
        "impersonation",
        "a man at reception says he's from facilities and wants my badge, he's waiting, should "
        "I give it?",
        "should I ever lend my badge to someone from facilities?",
    ),
    (
        "impersonation",
        "the 'bank' is on the line asking the treasurer for the token code, what do we do?",
        "what do we do if the bank ever asks for a token code by phone?",
    ),
    (
        "impersonation",
        "someone texting as our CEO wants gift cards bought in the next hour, is it him?",
        "does our CEO ever ask staff to buy gift cards?",
    ),
    (
        "impersonation",
        "a supplier's mail that just came in says pay the new IBAN today, AP is about to, "
        "should they?",
        "should AP ever pay a new IBAN sent by mail the same day?",
    ),
    (
        "impersonation",
        "there's a 'Microsoft engineer' on my screen share asking me to type my password, do I?",
        "do Microsoft engineers ever ask users to type their password on a screen share?",
    ),
    (
        "account_takeover",
        "my phone is buzzing with sign-in approvals I didn't start, should I deny them all?",
        "should I deny sign-in approvals I didn't start?",
    ),
    (
        "account_takeover",
        "my account is sending messages to my whole contact list right now, how do I stop it?",
        "how would I stop my account if it ever sent messages to all my contacts?",
    ),
    (
        "data_leaving",
        "I've just mailed the payroll file to an outside address by mistake, can IT pull it back?",
        "can IT pull back a mail sent to an outside address by mistake?",
    ),
    (
        "data_leaving",
        "the customer folder I shared is open to anyone with the link and it's been posted "
        "online, who do I call?",
        "who do I call if a shared folder is ever open to anyone with the link?",
    ),
    (
        "data_leaving",
        "a colleague is copying the client database to a USB stick on his last day, should I "
        "stop him?",
        "is it allowed to copy client data to a USB stick?",
    ),
    (
        "malware",
        "files on my drive are turning into .locked one by one as I watch, do I unplug?",
        "should you unplug a PC if ransomware ever starts encrypting files?",
    ),
    (
        "security",
        "a stranger is plugging a laptop into the network port in meeting room 3, should I "
        "say something?",
        "are visitors allowed to plug laptops into our network ports?",
    ),
    (
        "company_outage",
        "nobody in the building can get online at the moment, is someone on it?",
        "who looks after it when nobody in a building can get online?",
    ),
    (
        "company_outage",
        "every store's tills are offline right now, who is fixing it?",
        "who fixes it when a store's tills go offline?",
    ),
    (
        "impersonation",
        "前台有个自称物业的人要借我的工牌，他在等，要给吗？",
        "物业的人可以借员工的工牌吗？",
    ),
    (
        "impersonation",
        "“银行”正在电话里要出纳报U盾上的动态码，我们怎么办？",
        "银行会打电话要U盾上的动态码吗？",
    ),
    (
        "impersonation",
        "有人用老板的名义发短信，让我一小时内买购物卡，是他本人吗？",
        "老板会让员工买购物卡吗？",
    ),
    (
        "impersonation",
        "刚收到供应商邮件让今天付到新账户，财务马上要付了，要付吗？",
        "供应商邮件里换了新账户，可以当天付款吗？",
    ),
    (
        "impersonation",
        "远程协助的“微软工程师”正在让我输入密码，要输吗？",
        "微软工程师远程协助时会让用户输入密码吗？",
    ),
    (
        "account_takeover",
        "手机一直在弹我没发起的登录确认，要全部拒绝吗？",
        "收到不是自己发起的登录确认应该拒绝吗？",
    ),
    (
        "account_takeover",
        "我的账号正在给所有联系人发消息，怎么停下来？",
        "如果账号给所有联系人发消息，怎么停下来？",
    ),
    (
        "data_leaving",
        "我刚把工资表误发到了外部邮箱，IT能撤回吗？",
        "误发到外部邮箱的邮件IT能撤回吗？",
    ),
    (
        "data_leaving",
        "我共享的客户文件夹现在谁有链接都能打开，链接还被发到网上了，找谁？",
        "共享文件夹设成谁有链接都能打开，应该找谁？",
    ),
    (
        "data_leaving",
        "同事离职前正在把客户数据库拷到U盘，要拦住他吗？",
        "客户数据可以拷到U盘吗？",
    ),
    (
        "malware",
        "盘里的文件正在一个个变成 .locked，要拔网线吗？",
        "电脑中了勒索病毒要拔网线吗？",
    ),
    (
        "company_outage",
        "现在整栋楼都上不了网，有人在处理吗？",
        "整栋楼上不了网一般是谁处理？",
    ),
)


def twins() -> list[tuple[str, str, str, str]]:
    """(contrast, kind of the live twin, live twin, other twin)."""
    return [("asked_now", kind, live, general) for kind, live, general in ASKED_NOW]
