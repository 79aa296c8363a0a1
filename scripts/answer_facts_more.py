"""More ways of asking facts of `answer_facts.py` and `answer_facts_ops.py`, for
scripts/make_answer_pairs.py: (English, Chinese) questions added to a fact of the `train`
split (a held-out fact keeps its phrasings, so the holdout is what it was).

Written as people ask, without the verifier's rules in view: words the article does not use,
a situation instead of a question, terse fragments, polite long forms.
"""

from __future__ import annotations

#: fact name -> (English questions, Chinese questions)
MORE_PHRASINGS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "vpn691_meaning": (
        ("remote access keeps saying 691 when I log in, what is it telling me?",),
        ("远程连接一直提示 691 是啥意思",),
    ),
    "vpn691_causes": (
        ("new password, now the tunnel won't accept me, what's going on",),
        ("刚改完密码 VPN 就进不去了，原因是什么",),
    ),
    "vpn809": (
        ("working from a café and the VPN can't find the server",),
        ("在咖啡店连 VPN 一直连不到服务器",),
    ),
    "vpn_dns": (
        ("tunnel says connected but the wiki won't open",),
        ("VPN 显示已连接，公司内部网页还是打不开",),
    ),
    "vpn_slow": (
        ("my VPN disconnects all the time when I work from home",),
        ("在家用 VPN 特别卡",),
    ),
    "lockout": (
        ("typed my password wrong a bunch of times and now I can't get in, how long do I wait?",),
        ("密码输错太多次进不去了，要等多久",),
    ),
    "mfa_new_phone": (
        ("switching phones next week, what happens to my two-factor login?",),
        ("换手机以后验证器要怎么迁过去",),
    ),
    "outlook_prompt": (
        ("mail keeps popping up a sign-in box even though my password is right",),
        ("邮箱客户端老是让我重新登录",),
    ),
    "mailbox_quota": (
        ("I'm getting warnings my inbox is almost out of space",),
        ("收到邮箱空间快满的提醒怎么办",),
    ),
    "attachment_limit": (
        ("can't send a 40 MB presentation by email, how do I get it to them?",),
        ("大文件用邮件发不出去",),
    ),
    "external_mail": (
        ("a vendor says they emailed me but I never got it",),
        ("客户说给我发了邮件但我没收到",),
    ),
    "outlook_crash": (
        ("outlook freezes every time I open it",),
        ("Outlook 打开就卡死",),
    ),
    "wifi_slow": (
        ("wifi shows connected but pages won't load in our corner of the floor",),
        ("无线信号满格但是网页打不开",),
    ),
    "wired_port": (
        ("plugged a cable into the wall socket and get no network",),
        ("插网线没反应",),
    ),
    "guest_wifi": (
        ("a client visiting us needs internet, which network do I give them?",),
        ("来访客户要上网连哪个",),
    ),
    "badge_print": (
        ("I tap my card on the printer and nothing happens",),
        ("在打印机上刷卡没反应",),
    ),
    "toner_jam": (
        ("the printer says replace drum, who handles that?",),
        ("打印机提示换硒鼓找谁",),
    ),
    "add_printer": (
        ("how do I set up printing on my new laptop",),
        ("新电脑怎么连打印机",),
    ),
    "no_power": (
        ("pressed the power button and the laptop does nothing",),
        ("电脑按开机键没有任何反应",),
    ),
    "battery": (
        ("the laptop case is bulging near the trackpad, is that dangerous?",),
        ("笔记本电池充不进电",),
    ),
    "bsod": (
        ("my PC crashes to a blue error screen several times a day",),
        ("电脑经常死机蓝屏怎么办",),
    ),
    "spill_damage": (
        ("knocked a glass of water over my keyboard",),
        ("水洒到笔记本键盘上了",),
    ),
    "loan_laptop": (
        ("will I get a replacement machine while mine is in for repair?",),
        ("电脑送修期间有备用机吗",),
    ),
    "suspicious_mail": (
        ("got a weird email with an invoice attachment I wasn't expecting",),
        ("收到一封奇怪的邮件让我点链接登录",),
    ),
    "clicked_link": (
        ("I think I gave my login to a fake Microsoft page",),
        ("我在假网站上输入了账号密码",),
    ),
    "ransomware": (
        ("all my documents have a .locked extension and there's a note asking for bitcoin",),
        ("电脑里的文件全被加密了",),
    ),
    "wrong_recipient": (
        ("accidentally emailed a client's contract to the wrong company",),
        ("合同发错邮箱了",),
    ),
    "desk_hours": (
        ("what hours can I reach IT on a weekday?",),
        ("IT 工作日几点下班",),
    ),
    "sla_times": (
        ("how quickly will someone pick up a priority 1 issue?",),
        ("P2 的问题多久有人响应",),
    ),
    "walk_in": (
        ("where can I drop by in person for IT help?",),
        ("线下 IT 服务台在哪",),
    ),
    "first_day": (
        ("starting Monday, what IT stuff should I do when I arrive?",),
        ("下周一入职，IT 方面要准备什么",),
    ),
    "access_approver": (
        ("whose approval do I need for a shared mailbox?",),
        ("共享邮箱权限谁审批",),
    ),
    "access_how": (
        ("I need to get into the finance shared folder, how do I ask for that?",),
        ("想开通一个系统的账号怎么申请",),
    ),
    "access_time": (
        ("my manager approved my request, when will it actually work?",),
        ("领导批了以后多久能用",),
    ),
    "leavers_movers": (
        ("I changed teams, will I keep my old permissions?",),
        ("调岗以后旧权限还保留吗",),
    ),
    "install_software": (
        ("I want to install Notepad++ but I don't have admin rights",),
        ("电脑上想装个软件没有权限",),
    ),
    "licences": (
        ("need Acrobat Pro to edit PDFs, how do I get it?",),
        ("Acrobat 许可证怎么申请",),
    ),
    "admin_rights": (
        ("as a developer can I get admin on my laptop for a day?",),
        ("开发要装环境能给管理员权限吗",),
    ),
    "share_external": (
        ("how should I send a big document to a partner company?",),
        ("给合作方发文件用什么方式",),
    ),
    "usb": (
        ("my flash drive isn't recognised on my work laptop",),
        ("公司电脑插 U 盘没反应",),
    ),
    "cab_meeting": (
        ("on which weekdays is the change board held?",),
        ("变更委员会什么时候开会",),
    ),
    "normal_change_lead": (
        ("how many days before the window do I have to file a normal change?",),
        ("普通变更需要提前多少天",),
    ),
    "emergency_change": (
        ("prod is down and we need a fix now, how do we get the change approved?",),
        ("线上故障要紧急修复，变更怎么走",),
    ),
    "freeze": (
        ("are deployments allowed over the new year?",),
        ("年底封网是哪几天",),
    ),
    "windows": (
        ("what time of night can we make changes during the week?",),
        ("工作日变更窗口是几点",),
    ),
    "rollback_how": (
        ("the release broke things, how do we go back to the previous version?",),
        ("上线出问题了怎么回退",),
    ),
    "disk_threshold": (
        ("how full does a filesystem get before we're alerted?",),
        ("磁盘满到多少会报警",),
    ),
    "cpu_diag": (
        ("a java app is eating all the CPU, how do I find out why?",),
        ("Java 应用 CPU 飙高怎么查",),
    ),
    "api_diag": (
        ("lots of 504 errors from the gateway, where do I start?",),
        ("接口大量 504 怎么排查",),
    ),
    "batch_rerun": (
        ("the SETTLE posting job died halfway, can I just restart it?",),
        ("清算入账作业挂了能重跑吗",),
    ),
    "batch_deadline": (
        ("what's the latest the end-of-day settlement batch can finish?",),
        ("日终批处理最晚几点完成",),
    ),
    "script_rules": (
        ("where should an ops script get its database password from?",),
        ("运维脚本的密码不能写死，那放哪",),
    ),
    "disb_resend": (
        ("customer didn't get the payout, should I just pay it again?",),
        ("客户没收到放款，可以再放一次吗",),
    ),
    "cutoff": (
        ("what time is the daily clearing cut-off?",),
        ("清算截止时间是几点",),
    ),
    "ticket_format": (
        ("how many digits does an INC number have?",),
        ("INC 单号有几位",),
    ),
    "ticket_autoclose": (
        ("my ticket is marked resolved, how long before it closes by itself?",),
        ("工单已解决多久会自动关闭",),
    ),
    "urge": (
        ("my ticket is overdue, can I chase it every day?",),
        ("工单超时了能催吗",),
    ),
}
