"""Facts the shipped knowledge base (knowledge/sample) holds, each with the questions that ask
for it, for scripts/make_answer_pairs.py.

A fact names the passages that answer it (`answers`: "source#section", the section heading as
the chunker stores it, "" for the text before the first heading, a glossary entry by its term)
and the passages that touch it without being a clean negative (`also`: never used as a
negative, never as a positive). Questions were written from the articles, not from the
verifier's rules: plain askings, paraphrases that share few words with the passage, terse
ones, typos, English and Chinese. A Chinese question is paired with English passages too (the
knowledge base answers across languages).
"""

from __future__ import annotations

from dataclasses import dataclass, field

V = "runbooks/vpn-error-691.md"
VZ = "runbooks/vpn-error-691-zh.md"
VO = "runbooks/vpn-other-errors.md"
P = "runbooks/password-reset.md"
PZ = "runbooks/password-reset-zh.md"
E = "runbooks/email-outlook.md"
W = "runbooks/wifi-network.md"
PR = "runbooks/printer-troubleshooting.md"
L = "runbooks/laptop-hardware.md"
LZ = "runbooks/laptop-hardware-zh.md"
PH = "runbooks/phishing-security-incident.md"
PHZ = "runbooks/phishing-security-incident-zh.md"
S = "policies/support-hours.md"
N = "policies/new-joiner-it-guide.md"
A = "policies/access-request-approval.md"
SW = "policies/software-licences.md"
B = "policies/byod-personal-devices.md"
F = "policies/file-sharing-data.md"
AS = "policies/asset-inventory.md"
C = "policies/change-management.md"
CZ = "policies/change-management-zh.md"
CAP = "policies/capacity-change.md"
R = "policies/release-rollback.md"
D = "runbooks/disk-space-alarm.md"
CPU = "runbooks/cpu-high-alarm.md"
API = "runbooks/api-error-rate-latency.md"
BJ = "runbooks/failed-batch-job.md"
BJZ = "runbooks/failed-batch-job-zh.md"
SC = "coding/scripting-guidelines.md"
SQL = "coding/sql-review-guidelines.md"
SQLZ = "coding/sql-review-zh.md"
ST = "coding/stack-trace-triage.md"
DN = "settlement/disbursement-not-received.md"
DNZ = "settlement/disbursement-not-received-zh.md"
FS = "settlement/fund-settlement-overview.md"
RZ = "settlement/reconciliation-zh.md"
T = "tickets/ticket-process.md"
TZ = "tickets/ticket-process-zh.md"
GE = "glossary/glossary-en.yaml"
GZ = "glossary/glossary-zh.yaml"


@dataclass(frozen=True, slots=True)
class Fact:
    """One thing the knowledge base says, the passages saying it, and questions asking it."""

    name: str
    answers: tuple[str, ...]
    en: tuple[str, ...]
    zh: tuple[str, ...]
    also: tuple[str, ...] = field(default=())


def fact(
    name: str, answers: list[str], en: list[str], zh: list[str], also: list[str] | None = None
) -> Fact:
    return Fact(name, tuple(answers), tuple(en), tuple(zh), tuple(also or ()))


FACTS: tuple[Fact, ...] = (
    # VPN
    fact(
        "vpn691_meaning",
        [f"{V}#", f"{VZ}#"],
        [
            "What does VPN error 691 mean?",
            "my vpn says 691, what's that about",
            "Why is the remote-access gateway turning down my sign-in with code 691?",
            "691??",
            "wat does eror 691 mean on the vpn",
        ],
        ["VPN 报 691 是什么意思？", "691 错误代表什么", "连公司网络提示691怎么回事"],
        also=[f"{GE}#RADIUS", f"{V}#Symptoms", f"{VZ}#现象"],
    ),
    fact(
        "vpn691_causes",
        [f"{V}#Common causes", f"{VZ}#常见原因"],
        [
            "Why would the VPN keep refusing my password right after I changed it?",
            "common causes of error 691",
            "what usually makes the tunnel reject valid credentials",
            "reasons for 691",
        ],
        ["VPN 691 一般是什么原因导致的", "改了密码以后 VPN 就报 691，为什么"],
        also=[f"{V}#Symptoms", f"{VZ}#现象", f"{V}#Fix", f"{VZ}#处理步骤"],
    ),
    fact(
        "vpn691_fix",
        [f"{V}#Fix", f"{VZ}#处理步骤"],
        [
            "How do I fix VPN error 691?",
            "steps to resolve 691",
            "what should the desk do when someone's tunnel login is refused",
            "691 fix pls",
        ],
        ["VPN 691 怎么处理", "691 报错要怎么解决", "VPN 一直提示用户名密码不对怎么弄"],
        also=[f"{V}#Common causes", f"{VZ}#常见原因"],
    ),
    fact(
        "vpn691_escalate",
        [f"{V}#Escalate when", f"{VZ}#何时升级"],
        [
            "Lots of people are getting 691 at once, what do we do?",
            "when should a 691 go to the network team",
            "the whole office is being bounced by the remote access server",
        ],
        ["很多人同时报 691 怎么办", "691 什么时候需要升级"],
        also=[f"{GE}#RADIUS"],
    ),
    fact(
        "vpn809",
        [f"{VO}#Error 800 / 809 - the gateway cannot be reached"],
        [
            "What does VPN error 809 mean?",
            "vpn error 800 at the hotel",
            "I can't reach the tunnel server from my hotel room",
            "809",
        ],
        ["VPN 报错 809 怎么办", "在酒店连不上 VPN 提示 800"],
    ),
    fact(
        "vpn720",
        [f"{VO}#Error 720 / 812 - no address or policy mismatch"],
        ["What is VPN error 720?", "error 812 when connecting", "vpn could not get an IP address"],
        ["VPN 错误 720 是什么意思", "VPN 提示 812 怎么处理"],
    ),
    fact(
        "vpn_dns",
        [f"{VO}#VPN connected but internal sites do not open"],
        [
            "VPN is connected but the intranet won't load",
            "tunnel is up yet company pages just time out",
            "connected to vpn, internal sites dont open",
        ],
        ["VPN 连上了但内网网站打不开"],
    ),
    fact(
        "vpn_slow",
        [f"{VO}#VPN is slow or drops every few minutes"],
        [
            "Why is my VPN so slow?",
            "vpn keeps dropping every few minutes",
            "the remote connection cuts out constantly",
        ],
        ["VPN 很慢还老掉线怎么办"],
    ),
    # Passwords
    fact(
        "pw_self_reset",
        [f"{P}#Self-service reset", f"{PZ}#自助重置密码"],
        [
            "How do I reset my password?",
            "forgot my password",
            "I can't remember my login, how do I set a new one myself?",
            "pasword reset",
            "where do I change my windows password",
        ],
        ["忘记密码怎么重置", "怎么自己改密码", "域账号密码忘了"],
        also=[
            f"{P}#Reset by the service desk",
            f"{PZ}#忘记密码又无法自助",
            f"{PH}#I clicked a link or entered my password",
            f"{PHZ}#点开了钓鱼链接或输入了密码",
        ],
    ),
    fact(
        "pw_length",
        [f"{P}#Self-service reset", f"{PZ}#自助重置密码"],
        [
            "How long must a new password be?",
            "minimum password length?",
            "can I reuse one of my old passwords",
        ],
        ["新密码至少几位", "新密码能和以前的一样吗"],
    ),
    fact(
        "lockout",
        [f"{P}#Account locked out", f"{PZ}#账号被锁定"],
        [
            "How many wrong attempts before my account gets locked?",
            "account locked out, how long does it last",
            "why does my account keep locking after I changed my password",
            "lockout duration",
        ],
        ["输错几次密码会被锁", "账号被锁了多久能自动解开", "改完密码账号老是被锁"],
        also=[f"{V}#Common causes", f"{VZ}#常见原因"],
    ),
    fact(
        "pw_desk_reset",
        [f"{P}#Reset by the service desk", f"{PZ}#忘记密码又无法自助"],
        [
            "I have no registered phone so the self-service reset fails, what now?",
            "can the helpdesk email me a temporary password",
            "nothing to verify me with and I'm locked out of my login",
        ],
        ["没有绑定手机没法自助重置密码怎么办", "服务台能把临时密码发邮件给我吗"],
        also=[f"{P}#MFA device lost or new phone"],
    ),
    fact(
        "mfa_new_phone",
        [f"{P}#MFA device lost or new phone"],
        [
            "I got a new phone, how do I move my authenticator?",
            "re-register MFA",
            "lost my 2FA device",
        ],
        ["换了新手机，MFA 怎么重新绑定"],
        also=[f"{P}#Reset by the service desk", f"{PZ}#忘记密码又无法自助"],
    ),
    # Email
    fact(
        "outlook_prompt",
        [f"{E}#Outlook keeps asking for the password", f"{E}#邮件问题（中文）"],
        [
            "Outlook keeps prompting for my password",
            "outlook password popup won't go away",
            "my mail client nags me for credentials all day",
        ],
        ["Outlook 一直弹窗让输密码"],
    ),
    fact(
        "mailbox_quota",
        [f"{E}#Mailbox full", f"{E}#邮件问题（中文）"],
        [
            "How big is my mailbox allowed to be?",
            "mailbox full",
            "can I get more email storage",
            "whats the email quota",
        ],
        ["邮箱容量是多少", "邮箱满了能扩容吗"],
    ),
    fact(
        "attachment_limit",
        [
            f"{E}#Emails stuck in the Outbox or not received",
            f"{E}#邮件问题（中文）",
            f"{F}#Large files",
        ],
        [
            "What is the maximum attachment size?",
            "how large a file can I email",
            "my message with a big video is stuck in the outbox",
            "attachmnt size limit",
        ],
        ["邮件附件最大多大", "附件太大发不出去怎么办"],
    ),
    fact(
        "external_mail",
        [f"{E}#Emails stuck in the Outbox or not received", f"{E}#邮件问题（中文）"],
        ["I'm not getting emails from a customer", "messages from outside never arrive"],
        ["收不到外部发来的邮件"],
    ),
    fact(
        "outlook_crash",
        [f"{E}#Outlook crashes or is very slow", f"{E}#邮件问题（中文）"],
        ["Outlook crashes on start", "outlook is really sluggish"],
        ["Outlook 老是崩溃"],
    ),
    fact(
        "send_as",
        [f"{E}#Emails stuck in the Outbox or not received"],
        ["How do I get send-as rights on the team mailbox?", "send on behalf of a shared inbox"],
        ["怎么申请用共享邮箱发邮件的权限"],
        also=[f"{A}#Who approves", f"{A}#权限申请（中文）", f"{A}#"],
    ),
    # Network
    fact(
        "wifi_join",
        [f"{W}#Cannot join CORP Wi-Fi", f"{W}#办公网络问题（中文）"],
        [
            "I can't connect to the office wifi after changing my password",
            "CORP wireless won't accept me",
            "certificate not trusted when joining wifi",
        ],
        ["改了密码连不上公司无线"],
    ),
    fact(
        "wifi_slow",
        [f"{W}#Connected but no internet / very slow", f"{W}#办公网络问题（中文）"],
        ["Wi-Fi connected but no internet", "the whole floor has crawling wireless"],
        ["无线连上了但是上不了网"],
    ),
    fact(
        "wired_port",
        [f"{W}#Wired port dead", f"{W}#办公网络问题（中文）"],
        ["The network socket at my desk is dead", "ethernet port not working"],
        ["工位网口不通"],
    ),
    fact(
        "guest_wifi",
        [
            f"{W}#",
            f"{W}#Cannot join CORP Wi-Fi",
            f"{W}#办公网络问题（中文）",
            f"{B}#What is allowed",
            f"{B}#个人设备使用规定（中文）",
        ],
        [
            "Which wifi should visitors use?",
            "what network do guests connect to",
            "wifi for my personal phone",
        ],
        ["访客连哪个无线网络", "个人手机能连哪个 wifi"],
        also=[f"{B}#What is not allowed", f"{B}#"],
    ),
    # Printers
    fact(
        "print_job",
        [f"{PR}#Job does not come out", f"{PR}#打印机常见问题（中文）"],
        [
            "My print job never came out",
            "printed but nothing at the printer",
            "where did my document go, the copier shows nothing",
        ],
        ["打印任务没出来"],
        also=[f"{PR}#Printer problems"],
    ),
    fact(
        "badge_print",
        [f"{PR}#Job does not come out", f"{PR}#打印机常见问题（中文）"],
        ["printer doesn't recognise my badge", "how do I link my badge to the printer"],
        ["工卡刷不了打印机"],
        also=[f"{PR}#Printer problems"],
    ),
    fact(
        "toner_jam",
        [f"{PR}#Paper jam, toner, error codes on the panel", f"{PR}#打印机常见问题（中文）"],
        [
            "Printer is out of toner, who replaces it?",
            "paper jam in the printer",
            "what does an SC code on the copier mean",
        ],
        ["打印机缺墨找谁", "打印机卡纸了"],
    ),
    fact(
        "add_printer",
        [f"{PR}#Printer missing on the laptop", f"{PR}#打印机常见问题（中文）"],
        [
            "How do I add the office printer to my laptop?",
            "printer doesn't show up on my computer",
            "can I print from home",
        ],
        ["电脑上找不到打印机"],
        also=[f"{PR}#Printer problems"],
    ),
    # Laptops
    fact(
        "no_power",
        [f"{L}#Laptop does not power on", f"{LZ}#电脑开不了机"],
        [
            "My laptop won't turn on",
            "computer is dead, no lights",
            "notebook shows no sign of life when I press the button",
        ],
        ["电脑开不了机", "笔记本按电源没反应"],
        also=[f"{L}#Loan laptops"],
    ),
    fact(
        "battery",
        [
            f"{L}#Battery swollen, drains fast or does not charge",
            f"{LZ}#电池鼓包、掉电快、充不进电",
        ],
        [
            "battery is bulging",
            "my touchpad is lifting up",
            "battery drains really fast, can I get a new one",
        ],
        ["电池鼓包了怎么办", "电池不耐用可以换吗"],
    ),
    fact(
        "bsod",
        [f"{L}#Blue screen (BSOD) or frequent freezes", f"{LZ}#蓝屏、死机、频繁卡死"],
        [
            "I keep getting a blue screen",
            "BSOD CRITICAL_PROCESS_DIED",
            "laptop freezes all the time",
        ],
        ["电脑老是蓝屏"],
    ),
    fact(
        "spill_damage",
        [f"{L}#Broken screen, keyboard keys, trackpad", f"{LZ}#屏幕碎了、键盘按键失灵、进水"],
        [
            "I spilled coffee on my laptop",
            "my laptop got wet",
            "screen cracked",
            "some keys on the keyboard stopped working",
        ],
        ["电脑进水了", "屏幕摔碎了"],
    ),
    fact(
        "loan_laptop",
        [f"{L}#Loan laptops"],
        ["Can I borrow a laptop while mine is repaired?", "spare machine during repair"],
        ["维修期间能借备用电脑吗"],
        also=[f"{L}#Laptop does not power on", f"{LZ}#电脑开不了机", f"{S}#How to contact"],
    ),
    fact(
        "repair_shop",
        [f"{L}#Laptop hardware faults", f"{LZ}#笔记本电脑硬件故障"],
        [
            "Can I take my laptop to a repair shop myself?",
            "which laptop models does the company issue",
        ],
        ["电脑坏了能自己拿去外面修吗"],
    ),
    # Security
    fact(
        "suspicious_mail",
        [f"{PH}#I received a suspicious email", f"{PHZ}#收到可疑邮件"],
        [
            "I got a suspicious email, what do I do?",
            "how to report phishing",
            "weird message asking me to log in somewhere",
        ],
        ["收到可疑邮件怎么办", "怎么举报钓鱼邮件"],
        also=[f"{GZ}#钓鱼邮件"],
    ),
    fact(
        "clicked_link",
        [f"{PH}#I clicked a link or entered my password", f"{PHZ}#点开了钓鱼链接或输入了密码"],
        [
            "I clicked a link in a phishing email and typed my password",
            "entered my credentials on a fake page",
        ],
        ["我点了钓鱼链接还输了密码"],
        also=[f"{GZ}#钓鱼邮件"],
    ),
    fact(
        "ransomware",
        [
            f"{PH}#I opened an attachment, or the laptop behaves strangely",
            f"{PHZ}#打开了附件、电脑中毒、文件被加密",
        ],
        ["my files got renamed with strange extensions", "ransom note on my screen"],
        ["文件被加密了还有勒索信"],
    ),
    fact(
        "lost_device",
        [
            f"{PH}#Lost or stolen laptop or phone",
            f"{PHZ}#电脑或手机丢失、被盗",
            f"{B}#Leaving the company or losing the phone",
            f"{B}#个人设备使用规定（中文）",
        ],
        [
            "my laptop was stolen",
            "I left my work phone on the train",
            "how soon must I report a lost phone",
        ],
        ["手机丢了要多久内报告", "笔记本被偷了"],
    ),
    fact(
        "wrong_recipient",
        [f"{PH}#Data sent to the wrong recipient"],
        ["I emailed customer data to the wrong person", "sent a file to the wrong address"],
        ["把客户资料发错人了怎么办"],
    ),
    # Support desk
    fact(
        "desk_hours",
        [f"{S}#Service desk hours", f"{S}#IT 服务时间（中文）"],
        [
            "When is the service desk open?",
            "helpdesk opening hours",
            "is IT around on saturday",
            "support hrs?",
        ],
        ["服务台几点上班", "周六有人值班吗"],
    ),
    fact(
        "after_hours",
        [f"{S}#Service desk hours", f"{S}#IT 服务时间（中文）"],
        [
            "What is the P1 number at night?",
            "who do I call after hours for an outage",
            "out of hours hotline",
        ],
        ["晚上出了 P1 故障打什么电话", "下班后找谁"],
        also=[f"{PH}#I clicked a link or entered my password", f"{PHZ}#点开了钓鱼链接或输入了密码"],
    ),
    fact(
        "sla_times",
        [f"{S}#Priorities and response times", f"{S}#IT 服务时间（中文）"],
        [
            "How fast do you respond to a P3?",
            "response time for priority 2",
            "what's the resolution target for a P1",
        ],
        ["P3 多久响应", "P1 故障要多长时间解决"],
        also=[f"{GE}#P1", f"{GE}#SLA"],
    ),
    fact(
        "walk_in",
        [f"{S}#How to contact", f"{N}#First day", f"{N}#新员工 IT 指南（中文）"],
        ["Where is the IT walk-in desk?", "which floor is the help desk on"],
        ["IT 服务台在几楼"],
    ),
    fact(
        "first_day",
        [f"{N}#First day", f"{N}#新员工 IT 指南（中文）"],
        [
            "What do I need to do on my first day for IT?",
            "I'm new, where do I get my laptop",
            "new starter, how do I set up MFA",
        ],
        ["新员工第一天要做什么", "入职在哪领电脑"],
        also=[f"{N}#Before the first day"],
    ),
    fact(
        "security_training",
        [f"{N}#Useful to know"],
        [
            "How long do I have to finish the security awareness course?",
            "deadline for security training",
        ],
        ["安全意识培训多久内要完成"],
    ),
    # Access
    fact(
        "access_approver",
        [f"{A}#Who approves", f"{A}#权限申请（中文）"],
        [
            "Who approves my access request?",
            "who signs off on prod database access",
            "do I need my manager's OK for a shared folder",
        ],
        ["权限申请谁来审批", "生产库权限要谁批"],
    ),
    fact(
        "access_how",
        [f"{A}#", f"{A}#权限申请（中文）"],
        [
            "How can I get access to Grafana?",
            "how do I request permissions to a system",
            "need access to the finance share",
        ],
        ["怎么申请系统权限", "要 Jenkins 的权限怎么弄"],
        also=[f"{A}#Who approves", f"{N}#Before the first day", f"{N}#新员工 IT 指南（中文）"],
    ),
    fact(
        "access_time",
        [f"{A}#How long it takes", f"{A}#权限申请（中文）"],
        ["How long until my access is granted once approved?", "access fulfilment time"],
        ["权限审批通过后多久开通"],
    ),
    fact(
        "prod_access_limit",
        [f"{A}#Who approves", f"{A}#权限申请（中文）"],
        [
            "How long can production access last?",
            "max duration of admin access on a production server",
        ],
        ["生产环境权限最长多久"],
        also=[f"{SW}#Admin rights", f"{SW}#软件安装与许可证（中文）"],
    ),
    fact(
        "leavers_movers",
        [f"{A}#Leavers and movers"],
        ["What happens to my access when I move team?", "when is a leaver's access removed"],
        ["换部门后原来的权限会怎样"],
    ),
    fact(
        "access_review",
        [f"{A}#Quarterly access review"],
        ["How often do managers review access?", "quarterly access recertification"],
        ["权限多久复核一次"],
    ),
    # Software
    fact(
        "install_software",
        [f"{SW}#", f"{SW}#软件安装与许可证（中文）"],
        [
            "How do I install software on my laptop?",
            "I'm not an admin, how do I get an app",
            "where do I get programs for my Mac",
        ],
        ["怎么安装软件", "没有管理员权限怎么装软件"],
        also=[f"{SW}#Admin rights", f"{N}#First day", f"{N}#新员工 IT 指南（中文）"],
    ),
    fact(
        "new_software",
        [f"{SW}#Software not in the catalogue", f"{SW}#软件安装与许可证（中文）"],
        [
            "The tool I need isn't in the Software Center",
            "how long does security review of new software take",
        ],
        ["软件中心里没有的软件怎么申请"],
    ),
    fact(
        "licences",
        [f"{SW}#Licensed products", f"{SW}#软件安装与许可证（中文）"],
        [
            "How do I get a Visio licence?",
            "Tableau license approval",
            "will my unused license be taken away",
        ],
        ["Visio 许可证怎么申请", "许可证多久不用会被回收"],
    ),
    fact(
        "admin_rights",
        [f"{SW}#Admin rights", f"{SW}#软件安装与许可证（中文）"],
        ["Can I get local admin rights?", "temporary administrator access for developers"],
        ["能申请临时管理员权限吗"],
        also=[f"{SW}#", f"{A}#Who approves", f"{A}#权限申请（中文）"],
    ),
    # Personal devices, data
    fact(
        "byod_phone",
        [f"{B}#What is allowed", f"{B}#个人设备使用规定（中文）"],
        [
            "Can I read work email on my own phone?",
            "Slack on personal mobile allowed?",
            "can IT see my photos if I enrol my phone",
        ],
        ["个人手机可以装公司邮箱吗", "IT 能看到我手机里的照片吗"],
        also=[f"{B}#", f"{GE}#BYOD"],
    ),
    fact(
        "byod_laptop",
        [f"{B}#", f"{B}#What is not allowed", f"{B}#个人设备使用规定（中文）", f"{GE}#BYOD"],
        ["Can I use my own laptop on the VPN?", "personal notebook on the corp network?"],
        ["自己的笔记本能连 VPN 吗"],
        also=[f"{W}#", f"{W}#Cannot join CORP Wi-Fi", f"{W}#办公网络问题（中文）"],
    ),
    fact(
        "classification",
        [f"{F}#Classification levels", f"{F}#文件共享与数据分级（中文）"],
        [
            "What are the data classification levels?",
            "is customer data confidential?",
            "how are documents classified",
        ],
        ["数据分为几级"],
    ),
    fact(
        "share_external",
        [f"{F}#Where to store and share", f"{F}#文件共享与数据分级（中文）"],
        [
            "How do I share a file with someone outside the company?",
            "send documents to an external partner",
        ],
        ["怎么把文件分享给外部人员"],
    ),
    fact(
        "usb",
        [f"{F}#Where to store and share", f"{F}#文件共享与数据分级（中文）"],
        ["Why doesn't my USB stick work?", "can I use a thumb drive"],
        ["U 盘为什么用不了"],
        also=[f"{B}#What is not allowed", f"{B}#个人设备使用规定（中文）"],
    ),
    # Assets
    fact(
        "asset_tag",
        [f"{AS}#IT assets and inventory", f"{AS}#资产管理（中文）", f"{GE}#asset tag"],
        ["What does an asset tag look like?", "where's the LT number"],
        ["资产标签是什么格式"],
        also=[f"{L}#Laptop hardware faults", f"{LZ}#笔记本电脑硬件故障"],
    ),
    fact(
        "new_equipment",
        [f"{AS}#New equipment"],
        ["How do I request a new monitor?", "how often are laptops replaced"],
        ["笔记本几年换一次"],
    ),
    fact(
        "asset_move",
        [f"{AS}#Moving, lending and returning equipment", f"{AS}#资产管理（中文）"],
        [
            "I'm handing my laptop to a colleague, what do I do?",
            "what happens if I don't return equipment when I leave",
        ],
        ["设备转给同事需要登记吗"],
    ),
    fact(
        "annual_inventory",
        [f"{AS}#Annual inventory", f"{AS}#资产管理（中文）"],
        ["When is the yearly asset check?", "annual inventory confirmation"],
        ["资产盘点是什么时候"],
    ),
)
