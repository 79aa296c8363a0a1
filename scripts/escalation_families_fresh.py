"""A fourth held-out escalation split ("holdout_fresh"), written before its author read the
escalation model, its rule and cue lists, or any of its errors, and never fitted or tuned on.

It asks the security and outage families the way people type them in Slack: short and long,
English and Chinese, in progress ("they are asking me for the code right now"), beside the
look-alikes that must not page (a finished incident, a training e-mail or drill, a question
about policy, one person's ordinary problem in the same words). `build_escalation_set.py`
writes these rows with split "holdout_fresh"; `benchmarks/escalation.py` reports it beside the
tuned splits. Add new wordings to a training family, never here: once a split's errors have
been read and acted on, it stops being a yardstick (write a new one instead).
"""

from __future__ import annotations

#: (kind, escalate, wordings)
FRESH: tuple[tuple[str, bool, tuple[str, ...]], ...] = (
    (
        "impersonation",
        True,
        (
            "someone on the phone says he's from IT and wants the 6 digit code I just got",
            "guy calling me claims to be helpdesk, he wants me to read out the number from my "
            "authenticator",
            "I'm on a call with 'Microsoft support' and they want remote control of my laptop, "
            "is this legit??",
            "caller says he's the CFO's assistant and needs my login to fix payroll, he's still "
            "on the line",
            "they are asking me for the code right now",
            "a person phoned pretending to be from our security team and I already told them my "
            "employee ID and password",
            "hold on, there's a man on my desk phone asking me to install AnyDesk so 'IT' can "
            "clean a virus",
            "got a WhatsApp voice call from someone using the CEO's photo, asking me to buy gift "
            "cards urgently",
            "someone's asking me for my MFA code on the phone right now",
            "caller wants my one-time passcode, says he's IT, what do I do",
            "有人打电话说是IT部门的，让我把手机收到的验证码告诉他，他现在还在线上",
            "一个自称是财务总监的人打电话来，要我马上把登录密码发给他",
            "电话那头的人说是微软客服，要我装远程软件，现在正在等我操作",
            "有个陌生号码冒充我们老板，在微信上让我立刻转账",
            "有人在电话里要我的验证码",
            "our accounts payable mailbox is sending out emails to suppliers telling them our bank "
            "account changed - nobody here wrote those",
            "a vendor just called asking why we emailed them new wire instructions, we didn't",
            "several customers got invoices from my address with a different IBAN, I never sent "
            "them",
            "someone is replying to supplier threads from finance@ with fake payment details",
            "a mailbox is sending forged payment-change requests to vendors",
            "vendors are getting fake bank change emails from us",
            "payment-change emails to suppliers from our domain, not written by any of us",
            "供应商说收到了我们公司邮箱发的更改收款账户的邮件，但我们没人发过",
            "有人用我的邮箱给客户发了假的付款通知",
            "my phone keeps buzzing with sign-in approvals I didn't ask for, like 30 of them",
            "getting endless Duo pushes at 2am, I haven't tried to log in",
            "I accidentally tapped approve on one of the random login prompts that keep popping up",
            "Authenticator keeps asking me to approve a sign-in from Brazil, I'm in Berlin",
            "approve prompts won't stop and I'm not signing in",
            "手机一直弹出登录确认请求，不是我本人在登录，已经几十次了",
            "不小心点了批准，那个登录请求不是我发起的",
        ),
    ),
    (
        "data_leaving",
        True,
        (
            "I sent the full client list spreadsheet to the wrong Gmail address",
            "customer data was e-mailed to a wrong external address",
            "just realised the payroll export went to an outside recipient with a similar name",
            "the HR folder with everyone's salaries has an 'anyone with the link' share and it's "
            "posted on a public forum",
            "our customer database dump is sitting in a public S3 bucket, I can open it without "
            "logging in",
            "someone shared the board deck with a public link on Twitter",
            "I pasted the production database password into a public GitHub issue",
            "an intern uploaded patient records to a personal Dropbox and shared it",
            "auto-forward rule on the sales mailbox is sending everything to an external address "
            "nobody recognises",
            "the export of 40k customer emails went to the support address of a company we don't "
            "work with",
            "sent customer records to the wrong outside person",
            "我把客户名单发到了一个外部的错误邮箱",
            "工资表的共享链接设成了所有人可见，已经被转发到外面了",
            "有同事把包含客户身份证号的表格发到了公开群里",
        ),
    ),
    (
        "company_outage",
        True,
        (
            "nobody in the company can log in, SSO is dead",
            "email is down for the whole organisation",
            "every office lost internet at the same time",
            "the VPN is refusing everyone, all remote staff are locked out",
            "Teams and Outlook are both down for all of us across every site",
            "the ERP is down company-wide and the warehouses can't ship anything",
            "全公司的邮件都发不出去了",
            "所有人都登录不了系统，整个公司都停了",
            "各个办公室的网络同时断了，没人能上网",
            "公司所有的电话都打不通了，客服也接不到电话",
            "全公司断网了",
        ),
    ),
    (
        "post_mortem",
        False,
        (
            "Post-mortem for last Tuesday's email outage is in Confluence, please review",
            "the vishing attempt I reported yesterday was handled by security, nothing else needed",
            "INC-4412 resolved: the misdirected customer export was recalled and the recipient "
            "confirmed deletion",
            "Update: the forged vendor emails from last month - bank confirmed no payments were "
            "made, case closed",
            "the company-wide VPN outage this morning is over, everything is back",
            "MFA push spam issue from last week was fixed when they reset my account, thanks",
            "上周的全公司邮件故障已经恢复了，复盘报告已发",
            "昨天那个冒充IT的电话已经交给安全团队处理完毕",
            "the public link on the HR folder was removed on Friday and the audit found no access",
            "Retro notes: SSO went down for everyone for 20 min on Monday, root cause a cert "
            "expiry",
            "Heads up: the scam call campaign pretending to be IT was covered in today's "
            "all-hands, no action needed",
            "we closed the ticket about the leaked spreadsheet, legal signed off",
            "已处理：误发给外部的客户文件已撤回，对方确认删除",
            "The status page says the Slack outage is resolved, can you confirm it's ok to post "
            "again?",
        ),
    ),
    (
        "phishing_exercise",
        False,
        (
            "Is the 'urgent wire transfer' email from security awareness part of this month's "
            "phishing training?",
            "reminder: mandatory vishing awareness course due Friday",
            "we're running a simulated MFA fatigue exercise next week, please don't report the "
            "pushes",
            "This is the planned DR test: email will be unavailable company-wide between 22:00 and "
            "23:00 Saturday",
            "安全意识培训：如何识别冒充供应商的诈骗邮件",
            "下周会有一次钓鱼邮件演练，请大家注意",
            "I got the phishing test email from KnowBe4 and clicked report, is that all I need to "
            "do?",
            "Question for the newsletter: can you explain what MFA fatigue attacks are?",
        ),
    ),
    (
        "data_policy_question",
        False,
        (
            "what's the policy for sending customer data to external partners?",
            "are we allowed to share Google Drive files with 'anyone with the link'?",
            "if someone calls claiming to be IT, what should I do?",
            "how should I verify a supplier's request to change bank details?",
            "what do I do if I get too many MFA prompts?",
            "Can I email an export of my team's contacts to my personal address for working from "
            "home?",
            "外发客户数据需要什么审批？",
            "如果有人冒充领导要求转账，应该怎么处理？",
            "公司的数据分类政策在哪里可以找到？",
            "How long does it take to get a public sharing link approved for the press kit?",
            "Last quarter's outage report shows three company-wide incidents; can I get the raw "
            "data?",
        ),
    ),
    (
        "single_user_mail",
        False,
        (
            "my own Outlook won't open, everyone else seems fine",
            "I didn't get my MFA code SMS, can you resend?",
            "I need to change the bank details for my own expense reimbursement",
            "the shared link to the marketing brochure is public on purpose, can you make it "
            "shorter?",
            "My authenticator app got deleted when I changed phones, need to re-enroll",
            "Can you send me the export of last quarter's tickets as CSV?",
            "the wifi in the 3rd floor meeting room is slow",
            "我的邮箱打不开了，别人都正常",
            "新手机需要重新绑定验证器",
            "the printer in HR is down",
            "I emailed a draft to the wrong colleague in my own team, can I recall it?",
            "I was asked for the code to the server room door, who approves that?",
            "the supplier portal is down just for me",
            "Outlook calendar invites aren't syncing on my phone",
            "vendor onboarding form: where do I put the IBAN?",
            "我不小心把会议纪要发给了另一个部门的同事",
            "please reset my password, I forgot it after vacation",
        ),
    ),
)
