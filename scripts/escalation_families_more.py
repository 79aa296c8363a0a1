# ruff: noqa: E501
"""More paraphrase families of the escalation set (second round), written by hand.

Every wording here is a training row (split "train"): the held-out split of the first round
(`escalation_families.FAMILIES`, every fourth wording) stays exactly as it was, so it remains
the yardstick nothing is fitted or tuned on. The must-page kinds broaden what a security event
or an outage looks like (secrets in public places, MFA codes given away, SIM swaps, ransom
notes, customer data e-mailed out, payments down for everyone, a production database
unreachable); the hard negatives are what the rules used to page for on bare words (a handled
antivirus notice, a stolen laptop being replaced, a routine upgrade called critical, questions
about security policy).
"""

from __future__ import annotations

#: (kind, escalate, wordings), as in `escalation_families.FAMILIES`.
MORE_FAMILIES: list[tuple[str, bool, list[str]]] = [
    (
        "security",
        True,
        [
            "heads up: the signing key for our mobile app is sitting in a public GitHub issue someone opened",
            "I just saw our prod AWS credentials in a public pastebin",
            "the service account password is visible on our public wiki page",
            "a developer pasted the live database password into a Stack Overflow question",
            "our S3 bucket with the deploy tokens is world-readable",
            "the slack bot token is in a public repo, committed this morning",
            "生产数据库的密码被贴到了公开的论坛上",
            "有人把 AccessKey 放进了开源仓库，现在谁都能看到",
            "公共 gist 里有我们支付接口的私钥",
            "我们的 GitLab 公开项目里能看到 root 密码",
        ],
    ),
    (
        "security",
        True,
        [
            "someone texted pretending to be IT and I sent them the six digit code I got by sms",
            "I gave my MFA code to a person on Teams who said they were from the help desk",
            "a recruiter on LinkedIn asked for the verification code to 'confirm my identity' and I shared it",
            "I approved an MFA push that I did not trigger, then another, then a third one",
            "read the number from my authenticator app to a caller claiming to be from security",
            "forwarded my one-time passcode to an email that said it was from the bank",
            "有人冒充IT在微信上问我要验证码，我发给他了",
            "我把手机收到的验证码告诉了一个自称银行客服的人",
            "刚才接到电话，对方说是安全部门，我把动态口令念给他了",
            "连续收到好几个登录确认推送，我不小心点了同意",
        ],
    ),
    (
        "security",
        True,
        [
            "my phone lost signal and the carrier says my SIM was swapped to a new device, now I'm getting password reset emails",
            "the CFO's phone number was ported to another carrier without her asking and her MFA now goes there",
            "my mobile number was moved to another SIM, I didn't request it, and my bank app logged me out",
            "我的手机卡被人补办了，现在收不到验证码，邮箱也收到了改密码的通知",
            "手机突然没信号，运营商说号码被转移到另一张SIM卡上了，工作账号的验证码都发到那边",
        ],
    ),
    (
        "security",
        True,
        [
            "there's a text file named HOW_TO_RECOVER_FILES in every folder on the finance share and nothing opens",
            "my screen shows a message saying my files are encrypted and I must pay in bitcoin within 48 hours",
            "the file server shows a ransom demand and all the spreadsheets have a .crypt extension",
            "a pop-up says pay to get your data back, and my documents won't open anymore",
            "共享盘每个文件夹里都多了一个勒索说明，文件都打不开了",
            "电脑屏幕上写着文件已经加密，要支付比特币才能解密",
            "服务器上的文件后缀全变成了 .locked，还有一个要求付款的提示",
        ],
    ),
    (
        "security",
        True,
        [
            "I emailed the full customer list with phone numbers and addresses to my personal gmail by mistake",
            "our intern attached the client export to an email that went to another client",
            "the customer data file was sent to a supplier who should not have it",
            "accidentally cc'd an outside agency on the email with the patient records",
            "a colleague uploaded the employee salary spreadsheet to a public file sharing link",
            "我把客户名单发到了外部合作方的邮箱",
            "同事误把员工工资表发给了供应商",
            "客户的身份证号和电话被发到了一个外部群里",
            "不小心把用户数据导出文件共享给了第三方公司",
        ],
    ),
    (
        "outage",
        True,
        [
            "nobody can pay: the payment service is down for every customer",
            "all card transactions are declined at every store since 11am",
            "the payments API returns errors for every merchant",
            "checkout fails for all customers, not a single order went through in 20 minutes",
            "支付服务挂了，所有用户都无法付款",
            "全部门店的收银系统都不能刷卡了",
            "所有订单支付都失败，支付接口一直报错",
            "线上支付全部失败，没有一笔交易成功",
        ],
    ),
    (
        "outage",
        True,
        [
            "the production database is unreachable, every service that uses it is failing",
            "prod postgres refuses connections and the apps are all throwing errors",
            "we cannot connect to the primary database in production, the failover did not happen",
            "the main prod DB is not responding and all customer requests time out",
            "生产数据库连不上了，所有服务都报错",
            "线上主库无法访问，所有应用都起不来",
            "生产环境的数据库没有响应，全部请求超时",
        ],
    ),
    (
        "security",
        True,
        [
            "I logged into a fake Microsoft page from a shared-document email and entered my password and code",
            "the link in the parcel-delivery text took me to a copy of our login page and I typed my credentials",
            "entered my VPN password on a site I reached from an email, the domain was one letter off",
            "我在邮件链接打开的仿冒登录页上输入了工号和密码",
            "短信里的链接打开一个和公司OA一模一样的页面，我在上面输入了账号密码",
        ],
    ),
    (
        "security",
        True,
        [
            "I opened the macro-enabled invoice and now Defender says a trojan is active and blocking isn't working",
            "ran a setup file from a download site and now there's an unknown process sending traffic",
            "antivirus is popping up every minute saying ransomware behaviour was detected on my pc right now",
            "我打开了邮件附件里的宏，现在杀毒软件一直弹窗说有木马",
            "运行了一个下载的破解软件，现在电脑上有陌生进程在跑",
        ],
    ),
    (
        "security",
        True,
        [
            "there are two new global admin accounts in our tenant that nobody on the team created",
            "someone is logged into the admin portal from an IP we don't own, and it's not any of us",
            "an intruder got into the build server, there are unknown ssh keys in authorized_keys",
            "我们的后台多出了两个陌生的管理员账号，没人创建过",
            "服务器上发现了不认识的 root 登录，不是我们团队的人",
        ],
    ),
    (
        "security",
        True,
        [
            "my work laptop was stolen from the car, it has the client files on it and it wasn't encrypted",
            "lost my phone in a taxi, it's still logged in to email and the VPN app",
            "工作笔记本在高铁上被偷了，里面有客户资料",
            "U盘丢了，里面存着员工的个人信息",
        ],
    ),
    (
        "av_handled",
        False,
        [
            "FYI Defender quarantined a file in my downloads, it has been removed, no action needed",
            "antivirus alert: threat was quarantined and removed automatically, scan summary attached",
            "virus scan summary: scanned files 20312, infected files 0, engine version updated",
            "the endpoint agent blocked a suspicious download, it was blocked before it ran",
            "杀毒软件提示已隔离一个可疑文件，已经处理好了",
            "病毒已清除，扫描完成，无需处理",
            "possible virus on my laptop last week, IT already cleaned it, please close the ticket",
            "quarantine notification: the attachment was removed by the mail filter",
        ],
    ),
    (
        "lost_replaced",
        False,
        [
            "my laptop was stolen last week, I already reported it to security, I need a replacement",
            "please provide a temporary laptop, mine was stolen, police report attached",
            "phone stolen on holiday, can you send a replacement phone and a new sim",
            "lost my badge, please issue a replacement",
            "my token was lost, please replace the token",
            "the stolen laptop was found at the station, please cancel the ticket",
            "电脑上周被偷了，已经上报，请给我配一台新电脑",
            "工牌丢了，麻烦补办一张",
            "手机丢了，已经补办了手机卡，请帮我重新绑定动态口令",
        ],
    ),
    (
        "routine_critical",
        False,
        [
            "highly critical upgrade: please install the new version of the software center client",
            "critical security patch for chrome is available, please update when you can",
            "important: upgrade your office version, it is a critical update",
            "version upgrade request, importance high, the vendor says the update is critical",
            "critical: please renew the ssl certificate on the intranet before it expires next month",
            "紧急升级：请安装最新版本的客户端",
            "重要安全更新，请大家本周内升级浏览器",
            "critical windows update pending on my laptop, it asks to restart",
        ],
    ),
    (
        "policy_question",
        False,
        [
            "what should we do if someone leaks an API key?",
            "how do I report a phishing email I received but did not click?",
            "is there a policy about sharing MFA codes with colleagues?",
            "who do I contact if my laptop is stolen?",
            "what is SIM swapping and how do we protect against it?",
            "what is our process if ransomware hits a file server?",
            "how do we rotate a secret that was committed to git?",
            "如果验证码被别人知道了应该怎么办？",
            "公司对客户数据外发有什么规定？",
            "收到钓鱼邮件但是没有点开，需要上报吗？",
            "what counts as a data breach under our policy?",
        ],
    ),
    (
        "received_not_acted",
        False,
        [
            "got a phishing email pretending to be HR, I did not click anything, forwarding it to you",
            "I received a suspicious text asking for my code, I didn't answer",
            "a caller asked for my verification code, I did not give it and hung up",
            "收到一封可疑邮件，我没有点开，转给你们看看",
            "there's a scam email going around about payroll, just so you know",
        ],
    ),
    (
        "routine_urgent",
        False,
        [
            "urgent: please unlock my account, I entered the wrong password too many times",
            "URGENT - need admin rights on my laptop today to install the VPN client",
            "asap: my pin code on the desk phone stopped working",
            "high importance: please reset the password for the shared mailbox",
            "紧急！邮箱密码过期了，请帮我重置",
            "critical: cannot open the expenses app on my phone, password says incorrect",
            "urgent attention needed: the client cannot log in to our portal with his account, release tomorrow",
            "blocker: the test environment is not working and we have a release today, please investigate",
        ],
    ),
    (
        "single_user",
        False,
        [
            "the database report I run every monday is slow for me today",
            "cannot connect to the dev database from my laptop",
            "my connection to the reporting db keeps dropping",
            "我的电脑连不上测试数据库",
            "one customer says they can't pay with their card, the others are fine",
            "a single order failed at checkout for one client, can you check",
        ],
    ),
    (
        "change_window",
        False,
        [
            "scheduled downtime request: update of the prod oracle environment on friday, application downtime two hours",
            "notification of maintenance: license upgrade on the database servers saturday night",
            "planned outage of the payment gateway for the upgrade on sunday, please approve",
            "生产数据库计划停机升级，周六晚上两小时，请审批",
        ],
    ),
]
