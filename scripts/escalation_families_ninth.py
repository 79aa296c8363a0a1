"""A ninth round of escalation training rows, written by hand (one per situation, not from
templates): a question asked while the attacker is still there ("she's still on the phone, is
this normal?") pages, a question about how to tell pages no one; a failure named only by its
scope ("nobody on the third and fourth floors can ...", "两个厂区都...") pages, the same for one
person does not. They are the kinds the looked-at splits and a dev set still missed after the
live contrast (p 0.06-0.80). All rows are training rows, none near a held-out row
(`build_escalation_set.py` drops those).
"""

from __future__ import annotations

ASKED_LIVE = (
    "the 'IT guy' on Teams wants me to read him the number in my authenticator app, he's "
    "waiting, is that normal?",
    "someone from 'payroll' is on the phone asking me to confirm my bank login so my salary "
    "isn't delayed, should I?",
    "a 'delivery driver' at reception says he must plug a USB stick into a PC to print the "
    "waybill, he's there now, ok?",
    "our 'MD' is messaging me on WhatsApp to send the vendor list with contacts to his personal "
    "email right away, legit?",
    "a woman saying she's from the auditors is asking me on the phone for the VPN password "
    "for the audit, can I give it?",
    "I'm on a call with 'Apple support' who wants me to approve a sign-in on my work phone, "
    "is that ok??",
    "the 'supplier' is insisting on the phone that we pay the invoice to a new account today, "
    "she's still holding, real?",
    "someone on LinkedIn claiming to be our new CISO wants me to run a script on my laptop "
    "now, should I do it?",
    "自称是运维的人在钉钉上让我现在把服务器的root密码发给他，他在等，这正常吗？",
    "有个说是审计的人正在打电话要我们财务系统的账号密码，可以给吗？",
    "前台有个自称送快递的人，说要把U盘插到电脑上打单，他现在就在那，让他插吗？",
    "一个自称是董事长秘书的人让我马上把客户联系表发到她的私人邮箱，是真的吗？",
    "对方说是苹果客服，电话里让我在工作手机上点同意登录，他还没挂，要点吗？",
    "供应商的人在电话里一直催我们今天把货款打到新账户，人还在线上，这靠谱吗？",
    "有人在领英上自称新来的安全总监，让我现在在电脑上运行一个脚本，要照做吗？",
    "自称人事的人正在微信上让我提供网银登录信息，说不然工资发不了，要给吗？",
)
ASKED_NOT = (
    "how do I check whether a caller who says they're from IT is real?",
    "is it normal for the helpdesk to ask for my authenticator code when they reset my phone?",
    "what should I do if someone at reception asks to plug in a USB stick?",
    "is the 'new benefits portal' email from HR last month legit? I haven't opened it",
    "如何确认打电话来的人真的是IT部门的？",
    "IT重置手机的时候会要验证码吗？正常吗？",
    "如果前台有人要插U盘应该怎么处理？",
    "上个月人事发的新福利平台邮件是真的吗？我还没点开",
    # One's own code not arriving is a request for help, not someone after the code.
    "我的手机收不到短信验证码了，能帮我看看吗",
    "验证码一直收不到，能不能换个方式让我登录",
    "my phone stopped getting the login codes, can someone call me to sort it",
    "the authenticator app on my new phone shows no codes, can you help me move it",
)
SCOPE_LIVE = (
    "Nobody on the third and fourth floors can reach any internal site",
    "Our three warehouses have all lost the connection to the ERP, pickers are standing around",
    "Every employee's SSO login is failing since 8:40, whole company blocked",
    "Remote workers across the company can't connect at all this morning",
    "All the meeting rooms in the building lost their video system at once, every call dropped",
    "Both data centres report the storage cluster offline, every service depending on it is "
    "erroring",
    "Call centre agents in all shifts can't take calls, the phone platform is dead",
    "The company-wide shared drive has vanished for everyone",
    "三楼和四楼所有人都打不开内网",
    "三个仓库都连不上ERP了，拣货员都停下来了",
    "全公司的单点登录从八点四十开始都失败，所有人都进不去",
    "所有在家办公的同事今天上午都连不上公司网络",
    "整栋楼的会议室视频系统同时坏了，所有会议都断了",
    "两个机房的存储集群都离线了，依赖它的服务全部报错",
    "客服中心所有班次都接不了电话，电话平台整个挂了",
    "全员共享盘突然对所有人都不见了",
)
SCOPE_NOT = (
    "I can't reach the intranet from my desk but my neighbours can",
    "the video system in meeting room 2B is broken, the others work",
    "my SSO login fails since this morning, colleagues are fine",
    "只有我这台电脑打不开内网，旁边的同事都可以",
    "2B会议室的视频系统坏了，其他会议室正常",
    "我的单点登录今天早上开始失败，同事都正常",
)


#: Requests for a password, a code or an account for someone else: routine work, not someone
#: after credentials (a request for a visitor's temporary Wi-Fi password paged at p 0.75 once
#: the questions above were learned).
REQUESTS = (
    "can you set up a guest wifi login for our visitors tomorrow",
    "need a temporary password for the new intern's account",
    "please create a VPN account for the auditor starting Monday",
    "what's the wifi password for the training room this week?",
    "帮访客开一个临时的无线网络账号",
    "能给外包同事申请一个VPN临时账号吗",
    "请帮我重置一下打印机管理员密码",
    "给下周来培训的讲师开通访客Wi-Fi",
    "新同事的邮箱初始密码怎么领取？",
    "会议室的无线密码这周换了吗？",
    "帮来参观的客户要一个访客无线网络的密码",
    "新来的实习生需要申请一个临时的系统账号和密码",
    "下午有供应商来开会，麻烦给他们开个临时上网账号",
    "请给来培训的同学申请几个临时Wi-Fi账号",
)


def families() -> list[tuple[str, bool, list[str]]]:
    """(kind, escalate, wordings) of the ninth round."""
    return [
        ("impersonation", True, list(ASKED_LIVE)),
        ("policy_question", False, list(ASKED_NOT)),
        ("company_outage", True, list(SCOPE_LIVE)),
        ("single_user", False, list(SCOPE_NOT)),
        ("routine_request", False, list(REQUESTS)),
    ]
