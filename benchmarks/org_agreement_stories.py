"""Correction stories for `benchmarks/org_agreement_story.py`: a kind of message the built-in
brain routes to one controller while the organisation wants another.

Each story: the controller people move such messages to (`target`), three users' own
messages they correct (`taught`), and twelve paraphrases of a fourth user in other words,
English and Chinese (`paraphrases`). The paraphrases were written before the matching was
read. `TUNE` stories may be looked at while changing the mechanism; `HELD_OUT` stories are
only ever measured (a figure on them is a figure on wordings nobody tuned for).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Story:
    name: str
    target: str
    taught: tuple[str, str, str]
    paraphrases: tuple[str, ...]


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
