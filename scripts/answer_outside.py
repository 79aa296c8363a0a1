"""Questions the shipped knowledge base does not answer, for scripts/make_answer_pairs.py.

Most are from outside IT (facilities, HR, travel, office life, trivia); the rest ask about IT
things the articles never say (another error code, a system no article covers, a number no
article gives), the hardest kind, since a passage on the same topic is always near. Each group
is one topic asked a few ways, in English and Chinese; a group stays in one split.
"""

from __future__ import annotations

#: (group, English questions, Chinese questions)
OUTSIDE: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    # Facilities and office life
    (
        "alarm_code",
        ("what's the code for the office alarm system?", "alarm panel pin for the front door"),
        ("办公室报警器的密码是多少",),
    ),
    (
        "meeting_room",
        ("How do I book a meeting room?", "reserve a conference room for thursday"),
        ("怎么预订会议室",),
    ),
    (
        "parking",
        ("Where can I park my car at the office?", "is there a parking permit for staff"),
        ("公司停车位怎么申请",),
    ),
    (
        "aircon",
        (
            "The air conditioning on the 4th floor is too cold",
            "who controls the office temperature",
        ),
        ("四楼空调太冷了找谁",),
    ),
    (
        "canteen",
        ("What time does the canteen open?", "is lunch served in the cafeteria today"),
        ("食堂几点开饭",),
    ),
    (
        "lost_umbrella",
        ("I left my umbrella in the lobby, where is lost and found?",),
        ("失物招领在哪里",),
    ),
    (
        "coffee",
        ("The coffee machine is broken again", "who refills the coffee beans"),
        ("咖啡机坏了找谁",),
    ),
    ("gym", ("Does the office have a gym?", "shower facilities for cyclists"), ("公司有健身房吗",)),
    ("mail_room", ("Where do I pick up a parcel delivered to the office?",), ("快递放在哪里领",)),
    (
        "building_hours",
        ("What time does the building lock at night?", "can I get in on Sunday"),
        ("大楼晚上几点关门",),
    ),
    (
        "fire_drill",
        ("When is the next fire drill?", "where is the fire assembly point"),
        ("消防演习是哪天",),
    ),
    ("cleaning", ("Who cleans the kitchen on our floor?",), ("茶水间谁负责打扫",)),
    (
        "light_bulb",
        ("The light above my desk flickers", "a ceiling lamp is broken in room 5B"),
        ("工位上方的灯一闪一闪的",),
    ),
    # HR and pay
    (
        "vacation_days",
        ("How many vacation days do I get per year?", "annual leave entitlement"),
        ("一年有几天年假", "年假怎么算"),
    ),
    ("payday", ("When is payday this month?", "salary date"), ("这个月几号发工资",)),
    (
        "sick_leave",
        ("How do I report sick leave?", "I'm ill today, who do I tell"),
        ("请病假要什么流程",),
    ),
    ("maternity", ("How long is parental leave?", "paternity leave policy"), ("产假有多少天",)),
    ("payslip", ("Where can I see my payslip?",), ("工资条在哪里看",)),
    (
        "bonus",
        ("When are bonuses paid?", "how is the annual bonus calculated"),
        ("年终奖什么时候发",),
    ),
    (
        "promotion",
        ("How does the promotion process work?", "when are performance reviews"),
        ("绩效考核什么时候开始",),
    ),
    ("referral", ("Is there a bonus for referring a friend?",), ("内推有奖金吗",)),
    (
        "overtime",
        ("Do we get paid for overtime?", "overtime compensation rules"),
        ("加班费怎么算",),
    ),
    (
        "pension",
        ("How much does the company contribute to the pension?",),
        ("公积金缴纳比例是多少",),
    ),
    (
        "health_insurance",
        ("Does our health insurance cover dental?", "add my spouse to medical insurance"),
        ("商业医疗保险包括牙科吗",),
    ),
    (
        "resignation",
        ("How many weeks notice do I have to give when resigning?",),
        ("辞职要提前多久说",),
    ),
    ("dress_code", ("Is there a dress code on Fridays?",), ("公司有着装要求吗",)),
    (
        "remote_days",
        ("How many days a week can I work from home?", "hybrid work policy"),
        ("每周可以在家办公几天",),
    ),
    (
        "training_budget",
        ("Can the company pay for my certification course?",),
        ("公司报销培训费用吗",),
    ),
    # Travel and expenses
    (
        "flight_booking",
        ("How do I book a business flight?", "which travel agency do we use"),
        ("出差机票怎么订",),
    ),
    (
        "hotel_limit",
        ("What's the hotel budget per night in Beijing?",),
        ("出差住酒店的标准是多少",),
    ),
    (
        "per_diem",
        ("What is the daily meal allowance on a business trip?",),
        ("出差餐补一天多少钱",),
    ),
    (
        "expense_claim",
        ("How do I submit an expense claim?", "reimbursement deadline for taxi receipts"),
        ("报销发票怎么提交", "打车费怎么报销"),
    ),
    (
        "visa",
        ("Does the company help with a visa for a conference in the US?",),
        ("出国开会签证公司帮忙办吗",),
    ),
    (
        "travel_insurance",
        ("Am I covered by travel insurance on a business trip?",),
        ("出差有没有意外保险",),
    ),
    ("corporate_card", ("How do I apply for a corporate credit card?",), ("公司信用卡怎么申请",)),
    # Trivia and small talk questions
    ("capital", ("What is the capital of Australia?",), ("澳大利亚的首都是哪里",)),
    (
        "weather",
        ("Will it rain tomorrow in Shanghai?", "what's the weather like this weekend"),
        ("明天上海会下雨吗",),
    ),
    ("recipe", ("How long do I boil an egg?", "recipe for dumplings"), ("饺子馅怎么调",)),
    ("football", ("Who won the World Cup in 2018?",), ("2018 年世界杯冠军是谁",)),
    ("stock_price", ("What's our share price today?",), ("公司股价今天多少",)),
    ("ceo", ("Who is the CEO of the company?",), ("我们公司 CEO 是谁",)),
    (
        "holiday_dates",
        ("When is the Spring Festival holiday this year?", "is Monday a public holiday"),
        ("今年春节放几天假",),
    ),
    (
        "team_event",
        ("When is the team-building trip?", "christmas party date"),
        ("年会是什么时候",),
    ),
    ("movie", ("Can you recommend a good movie?",), ("推荐一部好看的电影",)),
    ("math", ("What is 17 times 23?",), ("十七乘以二十三等于多少",)),
    ("translate", ("How do you say thank you in Japanese?",), ("日语的谢谢怎么说",)),
    # Words an article uses in another sense (a leaver is not on leave, a maintenance window
    # is not an office window)
    (
        "unpaid_leave",
        ("Can I take unpaid leave next month?", "how do I request wedding leave"),
        ("婚假怎么请",),
    ),
    (
        "holiday_approval",
        ("Who approves my holiday request?", "approval for a day off"),
        ("请假审批找谁",),
    ),
    (
        "vacation_rollover",
        ("Do unused vacation days roll over to next year?",),
        ("年假可以累积到明年吗",),
    ),
    (
        "salary_review",
        ("Who reviews my salary each year?", "when is the annual pay review"),
        ("每年调薪谁来评",),
    ),
    ("performance_bonus", ("When is the performance bonus paid out?",), ("绩效奖金什么时候发",)),
    ("movers", ("We are moving house, does the company pay the movers?",), ("搬家费公司报销吗",)),
    ("room_capacity", ("What is the capacity of the big meeting room?",), ("大会议室能坐多少人",)),
    ("window_cleaning", ("When are the office windows cleaned?",), ("办公室窗户什么时候擦",)),
    (
        "timesheet_deadline",
        ("What's the deadline for submitting timesheets?",),
        ("工时表截止日期是哪天",),
    ),
    ("gym_freeze", ("Can I freeze my gym membership while travelling?",), ("健身卡可以暂停吗",)),
    (
        "complaint_escalate",
        ("How do I escalate a complaint about my manager?",),
        ("怎么投诉我的领导",),
    ),
    (
        "travel_settlement",
        ("Who settles my travel advance after the trip?",),
        ("出差借款怎么结清",),
    ),
    ("tax_file", ("How do I file my personal tax return?",), ("个人所得税怎么申报",)),
    ("probation", ("How long is the probation period?",), ("试用期多长",)),
    (
        "address_change",
        ("How do I change my home address in the HR system?",),
        ("怎么修改人事系统里的家庭住址",),
    ),
    ("badge_photo", ("Can I get a new photo on my badge?",), ("工卡照片可以换吗",)),
    # IT topics the articles do not cover
    (
        "vpn_868",
        ("What does VPN error 868 mean?", "vpn error 868 fix"),
        ("VPN 报错 868 是什么意思",),
    ),
    (
        "mac_wifi_password",
        ("What is the password of the CORP-GUEST wifi today?",),
        ("今天访客无线的密码是什么",),
    ),
    (
        "grafana_password",
        ("What's the admin password for Grafana?",),
        ("Grafana 管理员密码是多少",),
    ),
    ("sap_tcode", ("Which SAP transaction posts a goods receipt?",), ("SAP 里入库用哪个事务码",)),
    (
        "excel_formula",
        ("How do I write a VLOOKUP in Excel?", "excel pivot table help"),
        ("Excel 的 VLOOKUP 怎么用",),
    ),
    ("phone_bill", ("Does the company pay my mobile phone bill?",), ("公司报销手机话费吗",)),
    (
        "monitor_brand",
        ("Which brand of monitor is the best for photo editing?",),
        ("修图用什么牌子的显示器好",),
    ),
    (
        "k8s_version",
        ("Which Kubernetes version do we run in production?",),
        ("生产环境用的是哪个版本的 Kubernetes",),
    ),
    ("jira_sprint", ("How do I start a sprint in Jira?",), ("Jira 里怎么开启一个迭代",)),
    ("kafka_retention", ("What is the Kafka topic retention period?",), ("Kafka 的消息保留多久",)),
    ("zoom_recording", ("Where are Zoom recordings stored?",), ("Zoom 会议录像存在哪里",)),
    ("home_internet", ("Will the company pay for my home internet?",), ("家里宽带费公司报销吗",)),
    (
        "printer_color_cost",
        ("How much does a colour page cost to print?",),
        ("彩色打印一张多少钱",),
    ),
    (
        "teams_background",
        ("How do I change my background in a Teams call?",),
        ("Teams 视频会议怎么换背景",),
    ),
    ("git_rebase", ("How do I squash commits with git rebase?",), ("git 怎么合并多个提交",)),
    (
        "oracle_license_cost",
        ("How much does an Oracle database licence cost?",),
        ("Oracle 数据库许可证多少钱",),
    ),
    (
        "backup_restore",
        ("How do I restore a deleted file from last week's server backup?",),
        ("服务器上删掉的文件怎么从备份恢复",),
    ),
    ("ssl_cert_buy", ("Which vendor do we buy SSL certificates from?",), ("SSL 证书从哪家买",)),
)
