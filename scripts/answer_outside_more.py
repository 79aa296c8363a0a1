"""More questions the shipped knowledge base does not answer, for scripts/make_answer_pairs.py,
all in the `train` split (the held-out topics of `answer_outside.py` stay as they were, so the
holdout still measures topics no fitted model has seen).

Written as people ask a help-desk bot, without the verifier's rules in view: facilities and
office life, HR, travel, money matters outside IT, personal devices and accounts at home,
other companies' products, small talk and trivia, and questions whose words meet an article
of the knowledge base but which ask something it does not say (a number, a name, a place or a
case the article never gives). None repeats a topic of `answer_outside.py`.
"""

from __future__ import annotations

#: (group, English questions, Chinese questions)
OUTSIDE_MORE: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    # Facilities and office life
    (
        "desk_booking",
        ("how do I reserve a hot desk for tomorrow?", "can I book the same desk every Monday"),
        ("明天想订一个工位怎么操作", "共享工位可以长期预订吗"),
    ),
    (
        "locker",
        ("Where do I get a locker key?", "my locker won't open, who has the spare key"),
        ("储物柜钥匙去哪里领",),
    ),
    (
        "water_leak",
        ("There's water dripping from the ceiling near the pantry", "leak in the 6th floor toilet"),
        ("茶水间天花板在漏水", "六楼厕所漏水了找谁"),
    ),
    (
        "lift_broken",
        ("the lift on the east side is stuck again", "who do I call when the elevator is out"),
        ("东边电梯又坏了",),
    ),
    (
        "visitor_badge",
        ("How do I register a visitor coming on Friday?", "my guest needs a temporary pass"),
        ("访客来公司怎么登记", "客户来访要办临时通行证吗"),
    ),
    (
        "shuttle_bus",
        (
            "What time does the company shuttle leave from the metro?",
            "is there a bus to the campus",
        ),
        ("班车几点从地铁站发车",),
    ),
    (
        "bike_storage",
        ("Is there somewhere safe to leave my bike?", "bicycle racks at the office?"),
        ("自行车可以停在哪里",),
    ),
    (
        "mother_room",
        ("Is there a nursing room in the building?", "where can I pump milk at work"),
        ("公司有母婴室吗",),
    ),
    (
        "first_aid",
        ("Where is the first aid kit?", "someone cut their hand, where are the plasters"),
        ("急救箱在哪里",),
    ),
    (
        "noise",
        ("the construction noise next door is unbearable, who can I complain to",),
        ("隔壁装修太吵了能投诉吗",),
    ),
    (
        "office_plants",
        ("Who waters the plants in the office?", "can I bring a plant for my desk"),
        ("办公室的绿植谁浇水",),
    ),
    (
        "office_move",
        ("When is our team moving to the new floor?", "seating plan for the new office"),
        ("我们部门什么时候搬到新楼层",),
    ),
    (
        "smoking_area",
        ("Where is the smoking area?", "can I vape on the balcony"),
        ("吸烟区在哪里",),
    ),
    (
        "pantry_fridge",
        ("When is the fridge in the kitchen cleared out?", "someone keeps taking my yoghurt"),
        ("冰箱里的东西多久清理一次",),
    ),
    (
        "stationery",
        ("Where can I get pens and notebooks?", "we ran out of sticky notes"),
        ("办公用品在哪里领", "便利贴用完了去哪拿"),
    ),
    (
        "ergonomic_chair",
        ("Can I get a standing desk?", "my chair is broken and hurts my back"),
        ("能申请升降桌吗", "椅子坏了腰疼"),
    ),
    (
        "keys_lost",
        ("I lost my office door key", "locked out of my office room"),
        ("办公室钥匙丢了",),
    ),
    (
        "badge_forgot",
        ("I forgot my access card at home, how do I get in?",),
        ("工卡忘带了怎么进门",),
    ),
    (
        "pest",
        ("I saw a mouse in the kitchen", "there are ants near the coffee corner"),
        ("厨房里有老鼠",),
    ),
    (
        "heating",
        ("It's freezing in the meeting rooms, is the heating on?",),
        ("暖气什么时候开",),
    ),
    (
        "evacuation",
        ("Where is the assembly point if we evacuate?", "emergency exit on floor 9"),
        ("紧急疏散集合点在哪",),
    ),
    (
        "microwave",
        ("How many microwaves are there on the 3rd floor?",),
        ("三楼有微波炉吗",),
    ),
    (
        "vending",
        ("The vending machine ate my coins",),
        ("自动售货机吞了我的钱",),
    ),
    (
        "room_projector_booking",
        ("Can I borrow the portable speaker for the town hall?", "who has the event microphone"),
        ("全员大会的话筒找谁借",),
    ),
    # HR and people matters
    (
        "wedding_leave",
        ("How many days off do I get for my wedding?", "marriage leave"),
        ("婚假有几天",),
    ),
    (
        "bereavement",
        ("My grandmother passed away, how many days can I take?", "compassionate leave"),
        ("丧假怎么请",),
    ),
    (
        "employment_certificate",
        ("I need an employment certificate for my bank loan", "proof of income letter"),
        ("开在职证明找谁", "收入证明怎么开"),
    ),
    (
        "hr_contact",
        ("Who is my HR business partner?", "how do I reach the HR team"),
        ("我的 HRBP 是谁",),
    ),
    (
        "org_chart",
        ("Who does the marketing team report to?", "where's the org chart"),
        ("组织架构图在哪里看",),
    ),
    (
        "internal_transfer",
        ("Can I apply for a job in another department?", "internal job postings"),
        ("可以内部转岗吗",),
    ),
    (
        "notice_period",
        ("How long is my notice period?", "how many weeks notice do I have to give"),
        ("离职要提前多久通知",),
    ),
    (
        "annual_checkup",
        ("When is the annual health check?", "which hospital for the company medical exam"),
        ("年度体检什么时候", "体检去哪家医院"),
    ),
    (
        "childcare",
        ("Does the company subsidise childcare?",),
        ("公司有托儿补贴吗",),
    ),
    (
        "meal_card",
        ("How do I top up my meal card?", "lunch subsidy amount"),
        ("饭卡怎么充值", "午餐补贴多少钱"),
    ),
    (
        "mentor",
        ("Can I get a mentor?", "is there a mentoring programme for new managers"),
        ("有导师计划吗",),
    ),
    (
        "performance_form",
        ("Where do I write my self-assessment?", "deadline for the year-end review form"),
        ("年终自评表在哪里填",),
    ),
    (
        "holiday_gift",
        ("Do we get a mooncake gift this year?",),
        ("今年中秋发月饼吗",),
    ),
    (
        "labour_contract",
        ("When does my labour contract renew?", "where is a copy of my employment contract"),
        ("劳动合同什么时候续签",),
    ),
    (
        "social_security",
        ("Which city is my social insurance paid in?",),
        ("社保在哪个城市缴纳",),
    ),
    (
        "harassment",
        ("How do I report harassment confidentially?",),
        ("遇到骚扰怎么匿名举报",),
    ),
    (
        "volunteer_day",
        ("Do we get a paid volunteering day?",),
        ("公益假有几天",),
    ),
    (
        "language_course",
        ("Is there an English class for staff?",),
        ("公司有英语培训课吗",),
    ),
    (
        "salary_account",
        ("I changed banks, how do I update where my salary goes?",),
        ("工资卡换了怎么改",),
    ),
    (
        "hiring_status",
        ("What's the status of the candidate I interviewed?", "how do I submit interview feedback"),
        ("面试反馈在哪里填",),
    ),
    # Travel and expenses
    (
        "train_ticket",
        ("Can I take first class on the high-speed train?", "who books train tickets for trips"),
        ("出差高铁能坐一等座吗",),
    ),
    (
        "taxi_receipt",
        ("Can I claim a taxi home after working late?", "didi receipts for overtime"),
        ("加班打车可以报销吗",),
    ),
    (
        "mileage",
        ("What's the mileage rate if I drive my own car?",),
        ("开私家车出差怎么补贴",),
    ),
    (
        "travel_approval",
        ("Who approves a business trip abroad?", "do I need approval before booking a trip"),
        ("出差要谁审批",),
    ),
    (
        "lost_luggage",
        ("The airline lost my suitcase on a business trip",),
        ("出差行李丢了怎么办",),
    ),
    (
        "airport_lounge",
        ("Do we get lounge access at the airport?",),
        ("机场贵宾厅能用吗",),
    ),
    (
        "invoice_title",
        ("What company name goes on the fapiao?", "tax number for invoices"),
        ("发票抬头写什么", "开发票的税号是多少"),
    ),
    (
        "foreign_currency",
        ("Can I get cash in euros before my trip?",),
        ("出国前能预支外币吗",),
    ),
    (
        "conference_fee",
        ("Will the company pay my conference registration?",),
        ("参加行业会议的报名费能报吗",),
    ),
    # Money matters outside IT
    (
        "reimbursement_status",
        ("When will my reimbursement be paid?", "my expense refund hasn't come yet"),
        ("报销款什么时候到账",),
    ),
    (
        "purchase_order",
        ("How do I raise a purchase order for a supplier?",),
        ("采购订单怎么提",),
    ),
    (
        "vendor_payment",
        ("A supplier asks when we will pay their invoice",),
        ("供应商问发票什么时候付款",),
    ),
    (
        "budget_owner",
        ("Who owns the marketing budget?",),
        ("市场部的预算谁负责",),
    ),
    (
        "loan_rate",
        ("What interest rate does our personal loan product charge?", "APR of the consumer loan"),
        ("我们的消费贷利率是多少",),
    ),
    # Personal devices and accounts at home, other companies' products
    (
        "home_router",
        ("My home router keeps restarting", "how do I change the wifi name on my home router"),
        ("家里的路由器老是重启",),
    ),
    (
        "gmail_password",
        ("I forgot my personal Gmail password",),
        ("个人 Gmail 密码忘了",),
    ),
    (
        "apple_id",
        ("My Apple ID is locked, how do I unlock it?",),
        ("苹果 ID 被锁了怎么办",),
    ),
    (
        "wechat_ban",
        ("my wechat account got banned", "how do I recover old WeChat messages"),
        ("微信被封号了", "微信聊天记录怎么恢复"),
    ),
    (
        "alipay",
        ("Alipay says my payment failed at the supermarket",),
        ("支付宝付款失败",),
    ),
    (
        "netflix",
        ("Netflix won't play on my TV", "best VPN for streaming football abroad"),
        ("在国外看球用什么翻墙软件好",),
    ),
    (
        "kid_tablet",
        ("My son's tablet is locked with a PIN he forgot",),
        ("孩子的平板密码忘了",),
    ),
    (
        "phone_photos",
        ("How do I recover deleted photos on my own iPhone?",),
        ("自己手机里删掉的照片怎么找回",),
    ),
    (
        "personal_pc",
        (
            "Which laptop should I buy for my daughter's university?",
            "is a MacBook Air good for gaming",
        ),
        ("给孩子买什么电脑好",),
    ),
    (
        "smart_tv",
        ("How do I connect my smart TV to the internet?",),
        ("家里智能电视怎么联网",),
    ),
    (
        "spotify",
        ("How do I cancel my Spotify subscription?",),
        ("怎么取消视频会员自动续费",),
    ),
    (
        "phone_plan",
        ("Which mobile carrier has the best data plan?",),
        ("哪家运营商流量套餐便宜",),
    ),
    (
        "salesforce_report",
        ("How do I build a dashboard in Salesforce?",),
        ("Salesforce 里怎么建报表",),
    ),
    (
        "figma",
        ("How do I share a Figma prototype?",),
        ("Figma 原型怎么分享",),
    ),
    (
        "notion",
        ("Can I use Notion templates for my team wiki?",),
        ("Notion 模板怎么用",),
    ),
    (
        "aws_pricing",
        ("How much does an m5.large instance cost on AWS?",),
        ("阿里云服务器一个月多少钱",),
    ),
    (
        "photoshop_layers",
        ("How do I merge layers in Photoshop?",),
        ("PS 怎么合并图层",),
    ),
    (
        "word_toc",
        ("How do I add a table of contents in Word?", "powerpoint animation help"),
        ("Word 怎么自动生成目录",),
    ),
    (
        "linkedin",
        ("Can I post about my project on LinkedIn?",),
        ("领英上能写公司项目吗",),
    ),
    # Small talk, trivia, general knowledge
    (
        "joke",
        ("tell me a joke", "say something funny"),
        ("讲个笑话",),
    ),
    (
        "lunch_idea",
        ("what should I eat for lunch today?", "any good noodle places nearby"),
        ("中午吃什么好",),
    ),
    (
        "history_fact",
        ("When did the Great Wall get built?",),
        ("长城是什么时候修的",),
    ),
    (
        "exchange_rate",
        ("What's the dollar to yuan exchange rate today?",),
        ("今天美元兑人民币汇率多少",),
    ),
    (
        "time_zone",
        ("What time is it in New York now?",),
        ("现在纽约几点",),
    ),
    (
        "birthday_song",
        ("Can you write a birthday message for my colleague?",),
        ("帮我写一段同事生日祝福",),
    ),
    (
        "chatbot_identity",
        ("Are you a human or a robot?", "what's your favourite colour"),
        ("你是真人吗",),
    ),
    (
        "traffic",
        ("Is there traffic on the ring road now?",),
        ("现在中环堵不堵",),
    ),
    (
        "marathon",
        ("Is the company sponsoring the city marathon?",),
        ("公司有组织跑马拉松吗",),
    ),
    (
        "book_club",
        ("Is there a book club at work?",),
        ("公司有读书会吗",),
    ),
    # Words of an article, a question it does not answer
    (
        "vpn_pool_range",
        ("Which IP range does the VPN pool hand out?", "how many users can be on the VPN at once"),
        ("VPN 地址池是哪个网段", "VPN 最多能同时连多少人"),
    ),
    (
        "vpn_linux",
        ("Is there a VPN client for Ubuntu?", "how do I set up the VPN on Linux"),
        ("Linux 上怎么装 VPN 客户端",),
    ),
    (
        "password_expiry",
        ("How many days until my password expires?", "how often are we forced to change passwords"),
        ("密码多久要强制修改一次",),
    ),
    (
        "yubikey",
        ("Can I use a YubiKey instead of the authenticator app?",),
        ("能用硬件密钥代替手机验证器吗",),
    ),
    (
        "out_of_office",
        ("How do I set an out-of-office reply in Outlook?", "automatic reply while on holiday"),
        ("Outlook 怎么设置自动回复",),
    ),
    (
        "email_signature",
        ("Where do I get the official email signature with the logo?",),
        ("公司统一的邮件签名在哪里下载",),
    ),
    (
        "distribution_list",
        ("How do I create a distribution list for my project?", "add people to a mailing group"),
        ("怎么建一个邮件群组",),
    ),
    (
        "email_recall_time",
        ("How long are emails in Deleted Items kept before they vanish for good?",),
        ("已删除邮件会保留多少天",),
    ),
    (
        "print_duplex",
        ("How do I print double-sided on the FollowMe queue?", "print on A3 paper"),
        ("怎么双面打印", "A3 纸在哪台打印机能打"),
    ),
    (
        "scan_to_email",
        ("Can the printer scan straight to my email?", "where do scanned documents go"),
        ("打印机扫描件怎么发到邮箱",),
    ),
    (
        "print_quota",
        ("Is there a monthly page limit for printing?",),
        ("每个月打印有张数限制吗",),
    ),
    (
        "laptop_specs",
        (
            "How much RAM does the standard ThinkPad have?",
            "what processor is in the company MacBook",
        ),
        ("公司配的笔记本内存多大",),
    ),
    (
        "webcam",
        ("my webcam shows a black picture in Teams", "camera not detected on my laptop"),
        ("笔记本摄像头黑屏",),
    ),
    (
        "screen_mirroring",
        ("How do I show my laptop screen on the meeting room TV?",),
        ("会议室电视怎么投屏",),
    ),
    (
        "headset",
        ("Which headset is recommended for calls?", "my bluetooth earbuds keep disconnecting"),
        ("蓝牙耳机老是断开",),
    ),
    (
        "keyboard_layout",
        ("how do I switch my keyboard to US layout", "add Chinese pinyin input on Windows"),
        ("电脑怎么添加拼音输入法",),
    ),
    (
        "wifi_car_park",
        ("Is there Wi-Fi in the underground car park?", "wifi on the company shuttle"),
        ("地下车库有没有无线信号",),
    ),
    (
        "guest_voucher_price",
        ("How many guest vouchers can I print per day for a workshop?",),
        ("一天最多能申请多少张访客上网券",),
    ),
    (
        "cab_chair",
        ("Who chairs the CAB?", "what's the phone number of the change manager on duty"),
        ("CAB 主席是谁",),
    ),
    (
        "release_train",
        (
            "What version of the payment service is live right now?",
            "when is the next release of the mobile app",
        ),
        ("手机 App 下一个版本什么时候发布",),
    ),
    (
        "oncall_rota",
        ("Who is on call for the database team this week?", "where is the on-call rota"),
        ("这周 DBA 谁值班",),
    ),
    (
        "grafana_silence",
        ("How do I silence a Grafana alert over the weekend?", "mute an alertmanager rule"),
        ("告警怎么静默一个周末",),
    ),
    (
        "disk_vendor",
        ("Which storage vendor do we use for the SAN?",),
        ("存储阵列是哪家厂商的",),
    ),
    (
        "controlm_license",
        ("How do I get a Control-M account to build my own jobs?", "Control-M training course"),
        ("Control-M 培训在哪里报名",),
    ),
    (
        "batch_owner",
        ("Who owns the SETTLE_EOD_RECON job?",),
        ("SETTLE_EOD_RECON 作业的负责人是谁",),
    ),
    (
        "java_version",
        ("Which Java version should new services use?", "is Go allowed for new microservices"),
        ("新服务用哪个 Java 版本",),
    ),
    (
        "code_review_tool",
        ("Which tool do we use for code review, Gerrit or GitLab?",),
        ("代码评审用什么工具",),
    ),
    (
        "fx_settlement",
        ("Which exchange rate is used to settle USD transactions?", "HKD clearing bank"),
        ("美元交易用哪个汇率结算",),
    ),
    (
        "loan_limit",
        ("What's the maximum loan amount a customer can borrow?",),
        ("客户最多能贷多少钱",),
    ),
    (
        "ticket_export",
        ("Can I export all my tickets to Excel?", "monthly report of tickets by team"),
        ("工单能导出成 Excel 吗",),
    ),
    (
        "ticket_satisfaction",
        ("Where do I rate the help desk after a ticket?",),
        ("工单满意度评价在哪里",),
    ),
    (
        "sharepoint_quota",
        ("How big can a SharePoint team site get?", "OneDrive storage limit"),
        ("OneDrive 空间有多大",),
    ),
    (
        "slack_emoji",
        ("How do I add a custom emoji to Slack?", "slack status that says on leave"),
        ("Slack 怎么添加自定义表情",),
    ),
    (
        "intranet_news",
        ("Where do I post news on the intranet homepage?",),
        ("内网首页的新闻怎么发布",),
    ),
    (
        "phishing_test_results",
        ("Did I pass the last phishing simulation?", "who runs the fake phishing campaigns"),
        ("钓鱼演练的结果在哪看",),
    ),
    (
        "security_training_language",
        ("Is the security awareness course available in Japanese?",),
        ("安全意识培训有日语版吗",),
    ),
    (
        "cctv_footage",
        ("Can I see the CCTV footage of the lobby from yesterday?",),
        ("能调一下大堂昨天的监控录像吗",),
    ),
    (
        "db_password_rotation",
        ("How often are the database service account passwords rotated?",),
        ("数据库服务账号密码多久轮换一次",),
    ),
)
