# ruff: noqa: E501
"""Generated security-event and company-wide-outage families (fourth round), with a held-out split
written by a second, separate set of templates and vocabulary.

Two "authors" describe the same situations: `TRAIN` (fitted on) and `HOLDOUT` (never fitted or
tuned on; split "holdout_generated"). They share no template and as few content words as the
situations allow, and neither was written from the security taxonomy's cue lists: they describe
what happens (who sent what to whom, who is on the phone asking for what, which service is gone
for whom) rather than naming the event ("leak", "phishing", "outage"). Beside the events, the
look-alikes that must not page: a finished or closed incident, a training or simulation e-mail,
a question about policy, a past-tense report of something already handled.

Each family is a list of templates with slots; `generate(author, seed)` expands them with a fixed
seed into (kind, escalate, texts) triples, deduplicated and capped per template.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass

__all__ = ["HOLDOUT", "TRAIN", "generate"]

_SLOT = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Author:
    """One writer's templates (per family kind) and slot vocabulary."""

    templates: dict[tuple[str, bool], list[str]]
    vocab: dict[str, list[str]]
    per_template: int


TRAIN = Author(
    per_template=9,
    vocab={
        # data leaving the company
        "actor": [
            "I",
            "a colleague",
            "someone in sales",
            "our intern",
            "the payroll clerk",
            "a contractor",
            "the account team",
            "my manager",
        ],
        "sent": [
            "just emailed",
            "accidentally forwarded",
            "mistakenly sent",
            "attached and sent",
            "replied with",
        ],
        "data": [
            "the full client list",
            "a spreadsheet of customer phone numbers",
            "every patient's record",
            "the employee salary file",
            "our customer database dump",
            "the card numbers of our clients",
            "a folder of passport scans",
            "the tax IDs of all our suppliers",
        ],
        "dest": [
            "a personal yahoo account",
            "the wrong outside vendor",
            "a stranger's address",
            "a competitor's domain",
            "an external distribution list",
            "somebody at another company with a similar name",
        ],
        "when": ["by mistake", "without noticing", "a few minutes ago", "this morning", ""],
        "public": [
            "on a public pastebin",
            "in a storage bucket anyone can list",
            "behind a link anyone can open",
            "on our public website",
            "in a public git repository",
        ],
        "secret": [
            "the production database password",
            "our cloud root access key",
            "the private key of our signing certificate",
            "the payment gateway secret",
            "the admin password of the firewall",
        ],
        "open_place": [
            "a public GitHub gist",
            "the open community forum",
            "a channel with external guests",
            "a public stackoverflow question",
            "a customer-facing support thread",
        ],
        "zh_actor": ["我", "同事", "实习生", "销售部的人", "外包人员", "财务"],
        "zh_data": [
            "客户通讯录",
            "全部订单明细",
            "员工薪资表",
            "用户身份证信息",
            "病人病历",
            "客户的银行卡号",
        ],
        "zh_sent": ["误发到了", "错发给了", "转发到了", "不小心发给了"],
        "zh_dest": [
            "外部一个陌生邮箱",
            "竞争对手的邮箱",
            "一个外部的微信群",
            "合作方以外的一个人",
            "个人的私人邮箱",
        ],
        "zh_secret": ["生产库的密码", "云平台的根账号密钥", "支付接口的密钥", "服务器的登录口令"],
        "zh_public": ["公开的代码仓库", "有外部人员的群", "公开论坛", "对外的客服群"],
        # impersonation in progress
        "caller": [
            "a man on the phone",
            "someone calling from an unknown number",
            "a voice on a teams call",
            "a woman on my mobile",
            "the person on the line",
        ],
        "claims": [
            "says he's from the IT desk",
            "claims to be from our bank",
            "pretends to be the CFO",
            "says she works in security",
            "introduces himself as the helpdesk lead",
        ],
        "demands": [
            "is insisting I read out",
            "wants me to give him",
            "keeps asking for",
            "is pushing me to share",
        ],
        "code": [
            "the six-digit code I just received",
            "my one-time passcode",
            "the SMS verification number",
            "the number in my authenticator app",
        ],
        "now": [
            "at this very moment",
            "and is still on the line",
            "while I'm typing this",
            "and won't hang up",
        ],
        "vendors": [
            "three of our suppliers",
            "a vendor",
            "our biggest customer",
            "several partners",
            "the logistics company we pay",
        ],
        "got": ["received", "were sent", "just got"],
        "forged": [
            "a letter with new bank details",
            "instructions to pay into a different account",
            "an invoice with a changed IBAN",
            "a request to redirect their payments",
        ],
        "box": [
            "our accounts payable mailbox",
            "the CFO's own address",
            "our billing inbox",
            "the treasury mailbox",
            "my manager's account",
        ],
        "denial": [
            "nobody here wrote it",
            "we never sent that",
            "it did not come from us",
            "the owner of the mailbox knows nothing about it",
        ],
        "push": [
            "approval prompts",
            "sign-in push notifications",
            "authenticator requests",
            "login confirmations",
        ],
        "flood": [
            "keep arriving every few seconds",
            "have been coming nonstop for twenty minutes",
            "pop up again and again",
            "won't stop",
        ],
        "notme": [
            "and I'm not signing in anywhere",
            "and none of them are mine",
            "although I'm not at my computer",
            "and I already denied about forty",
        ],
        "zh_caller": ["电话里一个人", "一个陌生号码", "视频会议里的人", "微信上有人"],
        "zh_claims": ["自称是IT部门的", "说他是银行的", "冒充我们财务总监", "说自己是安全部的"],
        "zh_code": ["手机上刚收到的验证码", "动态口令", "短信里的数字", "认证器上的数字"],
        "zh_box": ["我们的付款邮箱", "财务总监的邮箱", "采购部的邮箱", "收款邮箱"],
        "zh_forged": ["更换收款账号的通知", "新的银行账户信息", "修改付款信息的邮件"],
        # company-wide outages
        "nobody": ["nobody", "not a single person", "none of our staff", "no employee"],
        "where": [
            "in the whole company",
            "at any of our sites",
            "across every office",
            "in the organisation",
        ],
        "cando": [
            "can open their mailbox",
            "can sign in to anything",
            "can get onto the network",
            "can make or take a phone call",
            "can reach the shared drives",
            "can use chat",
        ],
        "service": [
            "email",
            "single sign-on",
            "the internet connection",
            "the phone system",
            "the VPN",
            "the file servers",
        ],
        "for_all": [
            "for all staff",
            "for every employee",
            "company-wide",
            "for the entire organisation",
        ],
        "state": [
            "has stopped working",
            "is completely dead",
            "has been gone for half an hour",
            "fails for everyone",
        ],
        "zh_all": ["全公司", "所有员工", "各个分公司", "整个集团"],
        "zh_service": ["邮箱", "内网", "电话", "单点登录", "VPN", "共享盘"],
        "zh_down": ["都用不了了", "全部中断了", "打不开了", "一个人都登不上"],
        # look-alikes
        "closing": [
            "closing the incident about",
            "we can close the case on",
            "final update on",
            "wrapping up the ticket for",
            "the review is done for",
        ],
        "event_ref": [
            "the customer list sent to the wrong address",
            "the forged supplier invoices",
            "the login prompt flood on Tom's account",
            "last week's company-wide mail problem",
            "the database password that ended up in a public repo",
            "the fake IT caller",
            "the public link to the HR folder",
        ],
        "resolution": [
            "the recipient deleted it",
            "the bank reversed the payment",
            "the key was rotated",
            "service was restored on Tuesday",
            "the link was removed",
            "all affected accounts were reset",
        ],
        "sim": [
            "the payment-change email you got today",
            "yesterday's call asking for your code",
            "this morning's fake invoice",
            "the message about a shared document",
        ],
        "simwas": [
            "was a simulation by the security team",
            "was part of our awareness exercise",
            "was a training test, nothing was at risk",
            "came from the red team as a drill",
        ],
        "course": [
            "the social engineering course",
            "the data handling training",
            "the phone fraud awareness module",
            "the yearly security quiz",
        ],
        "deadline": ["by Friday", "before the end of the month", "this week", "by the 30th"],
        "ask": [
            "am I allowed to",
            "is it ok to",
            "what's the rule if I want to",
            "do I need approval to",
            "can we",
        ],
        "topic": [
            "send the customer list to our auditor",
            "share a folder with an outside partner",
            "post config snippets in a shared channel",
            "give my code to someone from IT who calls",
            "change a supplier's bank details after an email",
        ],
        "past": [
            "someone phoned pretending to be IT last Monday",
            "a supplier got a fake bank change letter in March",
            "I sent a file to the wrong address last week",
            "the mail system was down for everyone yesterday",
            "my phone got a burst of sign-in prompts on Sunday",
        ],
        "handled": [
            "I didn't give anything and it was reported",
            "the finance team verified it and nothing was paid",
            "the recipient confirmed they deleted it",
            "it was fixed by lunchtime",
            "the password was changed straight away",
        ],
        "zh_closed": ["已经结案", "处理完毕，关单", "复盘已完成", "事件已关闭"],
        "zh_event": [
            "上周客户资料误发的事",
            "伪造供应商付款邮件的事",
            "冒充IT要验证码的电话",
            "上次全公司邮箱中断",
            "密码贴到公开仓库的事",
        ],
        "zh_sim": ["今天收到的改账户邮件", "昨天要验证码的电话", "早上的假发票"],
        "zh_topic": [
            "把客户名单发给审计",
            "把文件分享给外部合作方",
            "把验证码告诉打电话的IT",
            "根据邮件修改供应商的收款账户",
        ],
    },
    templates={
        ("data_leaving", True): [
            "{actor} {sent} {data} to {dest} {when}",
            "{data} went out to {dest} {when}, it has personal details of real people",
            "{actor} put {data} {public} and it is still there",
            "{secret} is visible in {open_place} right now",
            "{actor} pasted {secret} into {open_place}",
            "{zh_actor}把{zh_data}{zh_sent}{zh_dest}",
            "{zh_secret}被贴到了{zh_public}里，现在还能看到",
        ],
        ("impersonation", True): [
            "{caller} {claims} and {demands} {code} {now}",
            "{vendors} {got} {forged} from {box}, {denial}",
            "{push} {flood} {notme}",
            "{zh_caller}{zh_claims}，现在一直要我报{zh_code}",
            "供应商收到了{zh_box}发的{zh_forged}，我们根本没发过",
            "手机上的登录确认请求一直弹，不是我本人在登录",
        ],
        ("company_outage", True): [
            "{nobody} {where} {cando}",
            "{service} {state} {for_all}",
            "{zh_all}的{zh_service}{zh_down}",
        ],
        ("post_mortem", False): [
            "{closing} {event_ref}: {resolution}",
            "{event_ref} is closed, {resolution}",
            "{zh_event}{zh_closed}",
        ],
        ("phishing_exercise", False): [
            "{sim} {simwas}",
            "please finish {course} {deadline}",
            "{zh_sim}是安全部的演练，不用处理",
            "请大家本周内完成防诈骗培训",
        ],
        ("data_policy_question", False): [
            "{ask} {topic}?",
            "可以{zh_topic}吗？",
        ],
        ("handled_past", False): [
            "{past}, {handled}",
            "{zh_event}当时就处理好了，没有损失",
        ],
    },
)


HOLDOUT = Author(
    per_template=5,
    vocab={
        "h_data": [
            "our subscriber roster with home addresses",
            "the loan applicants' bank statements",
            "customer invoices including IBANs",
            "the clinic's appointment list with diagnoses",
            "a CSV of every member's date of birth",
        ],
        "h_dest": [
            "an unknown outlook.com user",
            "a reseller we never contracted",
            "a journalist",
            "an ex-employee's private inbox",
            "a gmail address that isn't our auditor",
        ],
        "h_note": [
            "it can't be recalled",
            "they already opened it",
            "we only spotted it now",
            "the sender just told me",
        ],
        "h_where": [
            "on an open FTP server",
            "in a drive shared with the whole internet",
            "on a paste site",
            "in a bucket with no access control",
        ],
        "h_secret": [
            "the AWS keys for production",
            "the Stripe live secret",
            "our SMTP relay password",
            "the VPN admin credentials",
        ],
        "h_chan": [
            "the partners' Slack Connect channel",
            "a public Discord",
            "a GitHub issue on our open-source project",
            "a LinkedIn post",
        ],
        "h_zh_data": [
            "会员的住址和电话",
            "贷款客户的流水",
            "全部学员的成绩和身份证",
            "客户的发票和账号",
        ],
        "h_zh_dest": ["一个不认识的外部邮箱", "前员工的私人邮箱", "一家没合作过的公司"],
        "h_caller": ["a guy", "someone", "a caller with a foreign accent", "a lady"],
        "h_claims": [
            "who says he represents the service desk",
            "claiming to be the fraud department of our bank",
            "who uses our director's name",
            "introducing herself as IT operations",
        ],
        "h_code": [
            "the verification digits from my phone",
            "the token code",
            "the confirmation code that just came by text",
        ],
        "h_partner": [
            "A supplier",
            "Our freight forwarder",
            "A client in Munich",
            "The cleaning company",
        ],
        "h_box": [
            "our finance inbox",
            "the head of procurement's account",
            "our invoices@ address",
            "the controller's mailbox",
        ],
        "h_flood": [
            "keep flooding in",
            "appear one after another",
            "have not stopped since midnight",
        ],
        "h_device": ["phone", "watch", "tablet"],
        "h_svc": [
            "Mail",
            "Login via SSO",
            "The phone lines",
            "Internet access",
            "Teams",
            "Remote access",
        ],
        "h_scope": [
            "every department",
            "all branches",
            "the entire workforce",
            "everybody from HQ to the warehouses",
        ],
        "h_zh_svc": ["邮件", "网络", "登录", "电话", "企业微信"],
        "h_done": ["Wrap-up:", "Final note -", "For the record,", "Retro summary:"],
        "h_ev": [
            "the wrong-recipient export from May",
            "the bogus remittance letters to suppliers",
            "the caller who wanted Maria's code",
            "Tuesday's org-wide mail stoppage",
            "the key that showed up in a public repo",
        ],
        "h_fix": [
            "no data was lost and the case is shut",
            "funds were recovered, ticket closed",
            "access was revoked, nothing further to do",
            "everything has been back to normal since noon",
        ],
        "h_drill": [
            "The 'urgent wire transfer' mail this morning",
            "That call asking for your passcode",
            "Today's fake DHL notice",
        ],
        "h_q": [
            "Quick question: who signs off before",
            "Is there guidance on",
            "What's the correct process for",
        ],
        "h_qtopic": [
            "sending member data to a marketing agency",
            "posting screenshots with hostnames in public channels",
            "a vendor asking to update their bank account",
            "handing an MFA code to the helpdesk",
        ],
        "h_course": [
            "fraud-call awareness e-learning",
            "data protection refresher",
            "secure file sharing module",
        ],
        "h_by": ["before quarter end", "by next Wednesday", "within two weeks"],
        "h_zh_ev": [
            "五月客户资料发错人的事",
            "供应商收到假收款信的事",
            "有人冒充银行要验证码的事",
            "周二全员邮件停摆",
        ],
        "h_zh_fix": ["已经了结", "没有造成损失，已关单", "账户都已加固"],
        "h_zh_q": [
            "把会员数据给营销公司",
            "在公开群里贴带主机名的截图",
            "供应商要改银行账户",
            "把动态码给服务台",
        ],
        "h_zh_past": [
            "四月份有人假冒银行给出纳打电话",
            "两周前我把名单发错了人",
            "上个月邮件服务全员中断",
        ],
        "h_pastev": [
            "Back in April a fake bank rep called our treasurer",
            "Two weeks ago I mailed a roster to the wrong person",
            "On Sunday my phone got a pile of login prompts",
            "Last month the mail server was unavailable for everyone",
        ],
        "h_after": [
            "it was dealt with the same day",
            "nothing came of it and IT confirmed it",
            "the person deleted it and confirmed in writing",
            "the account was secured at once",
        ],
    },
    templates={
        ("data_leaving", True): [
            "heads up: {h_data} ended up with {h_dest}; {h_note}",
            "{h_data} is sitting {h_where} where anyone can download it",
            "somebody shared {h_secret} in {h_chan} and it's still up",
            "糟了，{h_zh_data}被发给了{h_zh_dest}",
        ],
        ("impersonation", True): [
            "I'm currently talking to {h_caller} {h_claims}; they want {h_code} before hanging up",
            "{h_partner} rang to ask why {h_box} told them to wire payments to a different bank, we never wrote that",
            "approve-sign-in prompts {h_flood} on my {h_device}, I haven't touched any login",
            "有人在电话上冒充我们银行，正在催出纳报验证码",
            "客户收到了用我们财务邮箱发出的改收款账号的信，这不是我们发的",
        ],
        ("company_outage", True): [
            "{h_svc} is broken for {h_scope}, nothing works since 8",
            "{h_svc} has failed across {h_scope}",
            "现在全集团的{h_zh_svc}全部瘫了，没人能用",
        ],
        ("post_mortem", False): [
            "{h_done} {h_ev}, {h_fix}",
            "复盘：上个月给供应商发假付款信的事已经了结",
            "Closing remarks on {h_ev}. {h_fix}",
            "事后总结：{h_zh_ev}，{h_zh_fix}",
        ],
        ("phishing_exercise", False): [
            "{h_drill} was our security team's test, no need to act",
            "本月防骗培训的模拟电话测试下周开始",
            "{h_drill} came from an internal awareness campaign",
            "Reminder: the {h_course} must be completed {h_by}",
        ],
        ("data_policy_question", False): [
            "{h_q} {h_qtopic}?",
            "外部律师要客户资料，需要走什么审批？",
            "Who do I ask about {h_qtopic}?",
            "请问{h_zh_q}要走什么流程？",
        ],
        ("handled_past", False): [
            "{h_pastev}; {h_after}",
            "上个月有人冒充领导要转账，当场就识破了，已经处理",
            "{h_pastev}. Already sorted: {h_after}",
            "{h_zh_past}，当时已经处理好了",
        ],
    },
)


def _expand(template: str, vocab: dict[str, list[str]], rng: random.Random, n: int) -> list[str]:
    slots = _SLOT.findall(template)
    combos = list(itertools.product(*(vocab[s] for s in slots)))
    rng.shuffle(combos)
    out: list[str] = []
    for combo in combos[:n]:
        text = template
        for slot, value in zip(slots, combo, strict=True):
            text = text.replace("{" + slot + "}", value, 1)
        out.append(re.sub(r"\s+", " ", text).strip().replace(" ,", ","))
    return out


def generate(author: Author, seed: int) -> list[tuple[str, bool, list[str]]]:
    """The author's families: (kind, escalate, texts), each template expanded at most
    `per_template` times with a fixed seed."""
    rng = random.Random(seed)
    families: list[tuple[str, bool, list[str]]] = []
    for (kind, escalate), templates in author.templates.items():
        texts: list[str] = []
        for template in templates:
            for text in _expand(template, author.vocab, rng, author.per_template):
                if text not in texts:
                    texts.append(text)
        families.append((kind, escalate, texts))
    return families
