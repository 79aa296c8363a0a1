"""Correction stories for `benchmarks/org_agreement_story.py`: a kind of message the built-in
brain routes to one controller while the organisation wants another.

Each story: the controller people move such messages to (`target`), three users' own
messages they correct (`taught`), and twelve paraphrases of a fourth user in other words,
English and Chinese (`paraphrases`). The paraphrases were written before the matching was
read. `TUNE` stories may be looked at while changing the mechanism; `HELD_OUT` stories are
only ever measured (a figure on them is a figure on wordings nobody tuned for). `FRESH`
stories were written later by someone who had not read the matching code, and measured once.
`STRANGER` stories live in `data/org_stories_stranger.json` (that file is their only source):
written by a tester who read neither the matching code nor the other stories' rows.
`FRESH2` and `FRESH2_HOLD` live in `data/org_stories_fresh2.json`, written before the matching
code was read, half of them Chinese or mixed; each story also holds `must_not`: messages with
similar words about a different problem, which the lesson must not move. `FRESH2` (the file's
"tune" half) may be looked at; `FRESH2_HOLD` is measured only, its totals printed and never its
rows (the benchmark hides them). `FRESH3` (`data/org_stories_fresh3.json`, five stories of
organisation-specific routes with look-alikes, half Chinese) was written on 2026-12-07 before it
was ever run, by a session that had read the matching code but tuned nothing on it; it is
measured only (totals), like `FRESH2_HOLD`. `FRESH4` (`data/org_stories_fresh4.json`, four
stories with six look-alikes each) was written the same day to be looked at: after `FRESH3`'s
look-alikes moved 7 of 20 in its totals, a set whose look-alikes may be read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

STRANGER_FILE = Path(__file__).with_name("data") / "org_stories_stranger.json"
FRESH2_FILE = Path(__file__).with_name("data") / "org_stories_fresh2.json"
FRESH3_FILE = Path(__file__).with_name("data") / "org_stories_fresh3.json"
FRESH4_FILE = Path(__file__).with_name("data") / "org_stories_fresh4.json"


@dataclass(frozen=True, slots=True)
class Story:
    name: str
    target: str
    taught: tuple[str, str, str]
    paraphrases: tuple[str, ...]
    must_not: tuple[str, ...] = ()


TUNE = (
    Story(
        "expense reimbursement",
        "ticket",
        (
            "my expense reimbursement from the march trip still hasn't been paid",
            "when will I get reimbursed for the conference hotel I paid myself",
            "travel expense claim submitted three weeks ago, no money yet",
        ),
        (
            "the refund for my business travel costs never showed up",
            "I filed my expenses in april and nothing has been paid back",
            "still waiting on payback for the taxi receipts I submitted",
            "where is my reimbursement for the client dinner",
            "my out-of-pocket costs from the offsite are not refunded yet",
            "expense report approved but the payment is missing",
            "how long until my travel claim gets paid out",
            "nobody has paid me back for the flights I booked for work",
            "差旅报销还没到账",
            "我上个月提交的报销单一直没有打款",
            "出差的费用什么时候能报销下来",
            "报销审批通过了但是钱还没收到",
        ),
    ),
    Story(
        "build pipeline",
        "alarm",
        (
            "the jenkins build for the payments repo fails at the unit test stage",
            "our CI pipeline breaks on npm install since this morning",
            "gitlab pipeline red on main, compile error in the api module",
        ),
        (
            "the continuous integration job keeps failing on my merge request",
            "build is broken after the latest commit, can someone look at the log",
            "github actions workflow exits with code 1 during the test step",
            "maven build can't resolve a dependency in our ci run",
            "my pull request checks are failing with a linker error",
            "the nightly build of the mobile app crashed while compiling",
            "why does the pipeline fail at the docker build step",
            "tests pass locally but the CI runner reports failures",
            "流水线构建失败了，单元测试那一步报错",
            "合并请求的CI一直跑不过",
            "jenkins 编译报错，帮忙看下日志",
            "主干分支的构建挂了",
        ),
    ),
    Story(
        "peripheral request",
        "change",
        (
            "I'd like to order a second monitor for my desk",
            "can I get a new ergonomic keyboard and mouse",
            "requesting a docking station for my laptop",
        ),
        (
            "please send me an extra screen for working from home",
            "need a headset for calls, where do I request one",
            "could I have a standing desk converter",
            "I want to request a larger external display",
            "ordering a usb-c hub for my workstation",
            "can the team get two more webcams",
            "I'd like a replacement laptop bag and charger",
            "how do I get a wireless mouse issued to me",
            "想申请一个外接显示器",
            "我需要领一副耳机开会用",
            "申请一台扩展坞",
            "能给我配一个人体工学键盘吗",
        ),
    ),
)

HELD_OUT = (
    Story(
        "certificate renewal",
        "alarm",
        (
            "the TLS certificate on the customer portal expires next week",
            "ssl cert for api.example.com needs renewing before friday",
            "our wildcard certificate is about to run out, please replace it",
        ),
        (
            "the https certificate of the intranet site is close to its expiry date",
            "please renew the cert on the payment gateway",
            "certificate for the vpn endpoint runs out in ten days",
            "we need a new ssl certificate installed on the load balancer",
            "browser warns the partner site certificate will lapse soon",
            "schedule the certificate rotation for the mail server",
            "replace the expiring TLS cert on the login page",
            "the signing certificate of our app is expiring this month",
            "门户网站的证书下周到期，需要续期",
            "请更换负载均衡上的SSL证书",
            "接口域名的证书快过期了",
            "帮忙续签一下内网的https证书",
        ),
    ),
    Story(
        "shared mailbox access",
        "incident",
        (
            "please add me to the finance shared mailbox",
            "I can't open the support@ team inbox, I need to be given rights",
            "grant me send-as on the hr shared mailbox",
        ),
        (
            "I need permission to read the sales team's shared inbox",
            "how do I get into the invoices mailbox our team uses",
            "add my colleague to the recruiting shared mail account",
            "can I have delegate rights on the ops group mailbox",
            "I should be a member of the helpdesk shared email",
            "please give me full access to the legal department mailbox",
            "the shared calendar and inbox of procurement are not visible to me",
            "request access to the billing@ mailbox",
            "请把我加到财务部的共享邮箱",
            "我需要共享邮箱的访问权限",
            "申请开通客服公共邮箱的权限",
            "看不到团队的公共邮箱，请授权",
        ),
    ),
    Story(
        "slow query",
        "consultation",
        (
            "this SQL report query takes four minutes, how can I make it faster",
            "my select with three joins is really slow on the orders table",
            "the nightly aggregation query times out, can someone help optimise it",
        ),
        (
            "how do I speed up a query that scans the whole customers table",
            "which index would help my group by on transactions",
            "the view I wrote in postgres is painfully slow",
            "query plan shows a sequential scan, how to fix it",
            "my stored procedure runs for ages on large inputs",
            "help me tune a slow left join between two big tables",
            "the dashboard's sql takes too long to return rows",
            "is there a faster way to write this subquery",
            "这个SQL查询太慢了，怎么优化",
            "报表的查询语句执行要好几分钟",
            "帮我看看这条联表查询为什么这么慢",
            "数据库查询超时，需要加索引吗",
        ),
    ),
    Story(
        "new hire onboarding",
        "access",
        (
            "a new engineer starts on monday and needs all her accounts set up",
            "onboarding for our new analyst: email, vpn and jira please",
            "please prepare logins for the intern joining next week",
        ),
        (
            "we have a new starter in finance, can you create his accounts",
            "set up everything a new team member needs to log in on day one",
            "my new hire has no credentials yet, she starts tomorrow",
            "provision the usual tools for a contractor joining the data team",
            "a graduate joins us next month, what do we need to request for access",
            "create a user for the new sales rep and add him to our groups",
            "new colleague arriving, please get his laptop login and mailbox ready",
            "can you open accounts for the two people we hired",
            "新同事下周一入职，请帮忙开通账号",
            "实习生入职需要开通邮箱和VPN",
            "新员工的系统权限怎么申请",
            "请为新入职的分析师创建登录账号",
        ),
    ),
    Story(
        "printer supplies",
        "change",
        (
            "the printer on the 3rd floor is out of toner, can we get a new cartridge",
            "we need more paper and toner for the office printer",
            "please order a replacement ink cartridge for the plotter",
        ),
        (
            "toner is empty in the marketing printer, please send a new one",
            "can someone restock the printer paper in meeting room b",
            "the copier needs a new drum and black toner",
            "request for printer consumables for the finance office",
            "we ran out of cartridges for the label printer",
            "the colour printer shows low cyan, please replace it",
            "who orders toner for the shared printers",
            "need a spare toner box for the reception printer",
            "三楼打印机没有墨粉了，请更换",
            "需要给办公室打印机补充纸张和硒鼓",
            "彩色打印机墨盒用完了",
            "申请一个新的打印机碳粉盒",
        ),
    ),
    Story(
        "storage quota increase",
        "change",
        (
            "please increase the disk quota of the analytics share to 2 TB",
            "our team drive is full, we need more storage allocated",
            "can we get the database volume extended by 500 GB",
        ),
        (
            "request more space on the shared project folder",
            "the s3 bucket quota for our team needs raising",
            "we'd like to expand the file server allocation for design",
            "my home directory hit its limit, can it be enlarged",
            "increase the storage size of the reporting vm",
            "add capacity to the backup volume before it fills",
            "could the sharepoint site storage limit be raised",
            "extend the persistent volume of the kafka cluster",
            "请把分析组的共享盘配额扩大到2T",
            "团队网盘空间不够了，申请扩容",
            "数据库磁盘需要扩容500G",
            "申请增加文件服务器的存储空间",
        ),
    ),
)


FRESH = (
    Story(
        "parking permit",
        "ticket",
        (
            "my parking permit for the office garage expired, how do I renew it",
            "I got a new car and need the plate on my parking pass updated",
            "could I get a spot in the underground car park from next month",
        ),
        (
            "the barrier at the staff car park doesn't recognise my pass anymore",
            "who handles applications for employee parking spaces",
            "I need a temporary parking sticker while my usual car is in the garage",
            "my parking badge was lost, can I have a replacement",
            "is there a waiting list for a reserved parking bay",
            "please change the registration number linked to my parking access",
            "I was fined for parking in my own assigned spot, the permit shows the old plate",
            "can visitors from my team get a day pass for the car park",
            "停车证过期了，怎么续办",
            "换了新车，车牌要登记到停车系统里",
            "想申请公司地下停车场的固定车位",
            "停车卡丢了，能补办一张吗",
        ),
    ),
    Story(
        "expense tool errors",
        "ticket",
        (
            "concur throws an error every time I try to attach a receipt",
            "the expense app crashes when I press submit on my report",
            "can't log any expenses today, the expenses portal shows a blank page",
        ),
        (
            "uploading a receipt photo to the expense system fails with 'unexpected error'",
            "the travel and expense website keeps timing out when saving a claim",
            "my expense report is stuck in draft, the submit button does nothing",
            "mileage entries disappear after I save them in the expenses tool",
            "the currency conversion in the claims app gives an error message",
            "since the update the expense mobile app won't open",
            "getting a 500 error from the reimbursement portal",
            "the expense platform rejects every pdf I attach",
            "报销系统上传发票一直报错",
            "费用报销网页打开是空白的",
            "提交报销单的时候系统崩溃了",
            "报销App更新后打不开了",
        ),
    ),
    Story(
        "meeting room av",
        "alarm",
        (
            "the projector in meeting room 4B shows no signal from my laptop",
            "the video conference camera in the boardroom isn't working",
            "nobody on the call can hear us, the room microphone in Orion seems dead",
        ),
        (
            "the screen in the big conference room stays black when I plug in hdmi",
            "the speakerphone on the third floor meeting room only crackles",
            "room display won't share my screen wirelessly",
            "the zoom room touch panel is frozen and the meeting can't start",
            "remote attendees see a frozen picture from the room camera",
            "the TV in the huddle space says no input whatever cable we use",
            "echo on every call from meeting room Atlas, the audio is unusable",
            "the ceiling projector in the training room flickers and turns off",
            "会议室投影仪连不上电脑",
            "大会议室的视频会议摄像头没有画面",
            "会议室麦克风没声音，对方听不到",
            "会议室的大屏无法投屏",
        ),
    ),
    Story(
        "licence renewal",
        "change",
        (
            "our adobe creative cloud licences run out at the end of the month, please renew",
            "the jetbrains subscription for the backend team expires next week",
            "we need to extend the tableau licence before it lapses in june",
        ),
        (
            "the annual figma plan is about to expire, can we renew it",
            "please prolong our visio seats for another year",
            "the antivirus licence on the design laptops is ending soon",
            "our team's miro subscription needs renewing before friday",
            "autocad warns that the licence expires in 10 days",
            "can procurement extend the microsoft project licences we have",
            "the statistics software licence (spss) is due for renewal",
            "renew the five postman enterprise seats for QA please",
            "Adobe 授权月底到期，需要续费",
            "团队的 JetBrains 许可证下周过期了",
            "请帮忙续订一年的 Tableau 许可",
            "软件授权快到期了，麻烦安排续期",
        ),
    ),
    Story(
        "guest wifi",
        "access",
        (
            "I have a customer visiting tomorrow, can I get a guest wifi code for them",
            "the auditors sitting with us for two weeks keep asking for a wifi password",
            "a partner is coming in for a workshop and will need to get online here",
        ),
        (
            "please create wireless vouchers for the ten workshop attendees on thursday",
            "a supplier is on site and can't get online, they need a guest password",
            "can the interviewer candidates use our wifi, who issues the codes",
            "I need a week-long guest network account for a consultant",
            "the wifi voucher I got for my visitor already expired",
            "what's the guest SSID password for today's partner meeting",
            "set up internet access for the trainers coming on monday",
            "our contractor's laptop needs to join the visitor wireless",
            "明天有客户来访，需要访客WiFi账号",
            "外部审计要在办公室上网两周，请开通访客网络",
            "给来面试的人申请一个临时无线密码",
            "访客WiFi的验证码过期了，能再发一个吗",
        ),
    ),
    Story(
        "phishing report",
        "alarm",
        (
            "I received a suspicious email pretending to be from our CEO asking for gift cards",
            "got a message with a fake microsoft login link, I think it's phishing",
            "someone sent me an invoice attachment from an unknown sender that looks like a scam",
        ),
        (
            "an email asked me to confirm my password on a strange website",
            "I clicked a link in a dodgy mail before I noticed the sender address was wrong",
            "several colleagues got the same fraudulent 'payroll update' email",
            "there's a text message claiming to be IT support asking for my MFA code",
            "a vendor's account seems hacked, they are emailing us odd payment requests",
            "this mail says my mailbox is full and to log in via a link, legit?",
            "a fake delivery notice with a zip file landed in my inbox",
            "someone is impersonating our finance director by email",
            "收到一封冒充老板的邮件，让买购物卡",
            "邮件里有个假的登录链接，怀疑是钓鱼邮件",
            "点开了一个可疑邮件的附件，怎么办",
            "好几个同事都收到了诈骗邮件",
        ),
    ),
)


def load_stories(path: Path, split: str | None = None) -> tuple[Story, ...]:
    """Stories kept as JSON data (a list of {name, target, taught, paraphrases[, must_not,
    split]}), so a set written by someone else is data only, with no Python to review; `split`
    keeps the rows of that split only."""
    rows = json.loads(path.read_text(encoding="utf-8"))
    return tuple(
        Story(
            str(row["name"]),
            str(row["target"]),
            (str(row["taught"][0]), str(row["taught"][1]), str(row["taught"][2])),
            tuple(str(text) for text in row["paraphrases"]),
            tuple(str(text) for text in row.get("must_not", ())),
        )
        for row in rows
        if split is None or row.get("split") == split
    )


STRANGER = load_stories(STRANGER_FILE)
FRESH2 = load_stories(FRESH2_FILE, "tune")
FRESH2_HOLD = load_stories(FRESH2_FILE, "hold")
FRESH3 = load_stories(FRESH3_FILE, "hold")
FRESH4 = load_stories(FRESH4_FILE, "tune")
