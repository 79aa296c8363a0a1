"""Write brain/data/speech_acts.jsonl: messages labelled with what they ask for.

`question` asks for information (how, what, where, whether something is allowed, "can I bring
a guest?"); `problem` reports something failing or wrong ("the lift is stuck again", "why
can't I log in"); `work` asks for something to be done or provided ("please reset my
password", "can I get a monitor?", "帮我订个会议室"). A message of several clauses takes the
act of its first ("could I get a new chair, this one is broken" is work; "the printer is
jammed, can someone come" is a problem).

Rows are phrase patterns filled with topics from IT, facilities, HR, travel, finance and
office life, in English and Chinese. The `train` split's patterns and topics were written
first; the `holdout` split was written after them and before any model was fitted, with its
own patterns and topics (no pattern shared), and is never fitted or tuned on. `template`
names the pattern, so cross-validation keeps one pattern's rows in one fold.

Run: .venv/bin/python scripts/make_speech_act_set.py [--fit]; `--fit` then fits the
speech-act model (`brain.chain.speech_act`) on the train split, with the MiniLM embedder and
without, and ships both beside the data (`brain/data/speech-<key>.npz`).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "brain" / "data" / "speech_acts.jsonl"
PER_PATTERN = 4

# -- topics ----------------------------------------------------------------------------------
# noun phrases that can fail (problem), things one can order or have done (work), and
# subjects one asks about (question), per split.
TRAIN_TOPICS = {
    "thing_en": [
        "my laptop",
        "the printer on the third floor",
        "the office wifi",
        "the coffee machine",
        "the air conditioning in meeting room 4B",
        "my badge",
        "the payroll portal",
        "the lift",
        "the expense tool",
        "my headset",
        "the VPN",
        "outlook",
        "the projector in the boardroom",
        "the car park barrier",
        "the microwave in the kitchen",
        "the timesheet system",
        "my second monitor",
        "the shared drive",
        "the door to the server room",
        "teams",
    ],
    "thing_zh": [
        "我的电脑",
        "三楼的打印机",
        "办公室的无线网",
        "咖啡机",
        "4B 会议室的空调",
        "我的工牌",
        "报销系统",
        "电梯",
        "考勤系统",
        "耳机",
        "VPN",
        "邮箱",
        "大会议室的投影仪",
        "停车场道闸",
        "茶水间的微波炉",
        "工资单页面",
        "显示器",
        "共享盘",
        "门禁",
        "企业微信",
    ],
    "action_en": [
        "reset my password",
        "book the training room for Thursday",
        "order a new desk chair",
        "add me to the finance mailing list",
        "replace the broken blinds at my desk",
        "set up a laptop for the new joiner",
        "give me access to the HR shared drive",
        "send a cleaner to the kitchen on 5F",
        "renew my parking permit",
        "install Visio on my machine",
        "update my bank details for payroll",
        "arrange a taxi to the airport for Monday",
        "move my desk to the quiet zone",
        "unlock my account",
        "print 50 copies of the handbook",
        "create a guest wifi account",
        "issue me a new badge",
        "get me a second monitor",
        "change my cost centre",
        "extend my contract end date in the HR system",
    ],
    "action_zh": [
        "重置一下密码",
        "订一下周四的培训室",
        "申请一把新椅子",
        "把我加到财务的邮件组",
        "换一下我工位的百叶窗",
        "给新同事准备一台电脑",
        "开通 HR 共享盘的权限",
        "派人打扫一下五楼茶水间",
        "续一下停车证",
        "装一个 Visio",
        "更新工资卡信息",
        "叫一辆周一去机场的车",
        "把我的工位换到安静区",
        "解锁我的账号",
        "打印 50 份员工手册",
        "开一个访客 wifi 账号",
        "补办工牌",
        "再配一台显示器",
        "改一下我的成本中心",
        "在 HR 系统里延长我的合同日期",
    ],
    "subject_en": [
        "the travel policy",
        "annual leave carry-over",
        "the dress code",
        "expense limits for client dinners",
        "setting up MFA on my phone",
        "the parking rules",
        "working from abroad",
        "booking a meeting room",
        "the password policy",
        "the parental leave policy",
        "bringing visitors into the office",
        "the gym subsidy",
        "claiming mileage",
        "the VPN client on a Mac",
        "the holiday calendar",
        "the fire drill",
        "the pension scheme",
        "the laptop refresh cycle",
        "lost property",
        "the guest wifi",
    ],
    "subject_zh": [
        "差旅政策",
        "年假结转",
        "着装要求",
        "请客户吃饭的报销标准",
        "手机上设置 MFA",
        "停车规定",
        "在国外远程办公",
        "预订会议室",
        "密码策略",
        "育儿假",
        "带访客进办公室",
        "健身补贴",
        "里程报销",
        "Mac 上的 VPN 客户端",
        "节假日安排",
        "消防演习",
        "企业年金",
        "电脑更换周期",
        "失物招领",
        "访客 wifi",
    ],
    "item_en": [
        "a new keyboard",
        "a standing desk",
        "a laptop stand",
        "a parking space",
        "a bigger monitor",
        "a locker",
        "a headset",
        "business cards",
        "a company phone",
        "a footrest",
    ],
    "item_zh": [
        "一个新键盘",
        "一张升降桌",
        "一个笔记本支架",
        "一个车位",
        "一台大一点的显示器",
        "一个储物柜",
        "一副耳机",
        "名片",
        "一部工作手机",
        "一个脚踏",
    ],
}
HOLDOUT_TOPICS = {
    "thing_en": [
        "the badge reader at the side entrance",
        "the heating on the 2nd floor",
        "the team calendar",
        "the vending machine",
        "the scanner by reception",
        "the HR portal",
        "my docking station",
        "the shower in the basement",
        "the booking app",
        "the sales dashboard",
    ],
    "thing_zh": [
        "侧门的刷卡机",
        "二楼的暖气",
        "团队日历",
        "自动售货机",
        "前台的扫描仪",
        "HR 门户",
        "扩展坞",
        "地下室的淋浴",
        "订餐小程序",
        "销售看板",
    ],
    "action_en": [
        "fix the wobbly table in room 3A",
        "order toner for the 4F printer",
        "book a hotel in Berlin for me",
        "add Sam to the on-call rota",
        "refund my conference fee",
        "set up a mailbox for the events team",
        "change my surname in the directory",
        "get the broken window on 6F looked at",
        "cancel my lunch order for tomorrow",
        "grant Priya read access to the budget sheet",
    ],
    "action_zh": [
        "修一下 3A 会议室那张晃的桌子",
        "给四楼打印机订点墨盒",
        "帮我订一间柏林的酒店",
        "把小王加到值班表",
        "退一下我的会议费",
        "给活动组建一个邮箱",
        "在通讯录里改一下我的姓",
        "找人看看六楼坏掉的窗户",
        "取消我明天的午餐预订",
        "给 Priya 开预算表的只读权限",
    ],
    "subject_en": [
        "sick leave",
        "the relocation allowance",
        "the referral bonus",
        "the quiet hours on 3F",
        "shredding confidential paper",
        "the hybrid work rules",
        "the team offsite budget",
        "the onboarding checklist",
        "eye test vouchers",
        "printing in colour",
    ],
    "subject_zh": [
        "病假",
        "搬迁补贴",
        "内推奖金",
        "三楼的安静时段",
        "销毁保密文件",
        "混合办公规定",
        "团建预算",
        "入职清单",
        "配眼镜补贴",
        "彩色打印",
    ],
    "item_en": [
        "a second charger",
        "an ergonomic chair",
        "a webcam",
        "a desk lamp",
        "a mobile hotspot",
    ],
    "item_zh": ["一个备用充电器", "一把人体工学椅", "一个摄像头", "一盏台灯", "一个随身 wifi"],
}

# -- patterns --------------------------------------------------------------------------------
TRAIN_PATTERNS = {
    "problem": [
        ("en", "{thing_en} is not working"),
        ("en", "{thing_en} stopped working this morning"),
        ("en", "{thing_en} is broken again"),
        ("en", "something is wrong with {thing_en}"),
        ("en", "{thing_en} keeps failing on me"),
        ("en", "hi, {thing_en} has been down since 9"),
        ("en", "can't get {thing_en} to work, tried twice"),
        ("en", "there's an issue with {thing_en}"),
        ("en", "{thing_en} is really slow today"),
        ("en", "why doesn't {thing_en} work?"),
        ("en", "{thing_en} is acting up, any idea what's going on?"),
        ("en", "also {thing_en} is dead"),
        ("en", "ugh {thing_en} again..."),
        ("en", "{thing_en} gives me an error every time"),
        ("zh", "{thing_zh}坏了"),
        ("zh", "{thing_zh}又不行了"),
        ("zh", "{thing_zh}用不了"),
        ("zh", "{thing_zh}从早上开始就有问题"),
        ("zh", "{thing_zh}一直报错"),
        ("zh", "{thing_zh}怎么又坏了"),
        ("zh", "{thing_zh}特别慢"),
        ("zh", "{thing_zh}打不开，怎么办"),
        ("zh", "{thing_zh}出故障了"),
        ("zh", "{thing_zh}没反应了"),
        ("zh", "为什么{thing_zh}用不了？"),
        ("zh", "还有，{thing_zh}也坏了"),
    ],
    "work": [
        ("en", "please {action_en}"),
        ("en", "could you {action_en}?"),
        ("en", "can someone {action_en}"),
        ("en", "I need you to {action_en}"),
        ("en", "would you be able to {action_en} today"),
        ("en", "hey, can you {action_en} please"),
        ("en", "{action_en}, thanks"),
        ("en", "I'd like to request {item_en}"),
        ("en", "can I get {item_en}?"),
        ("en", "I need {item_en} for my desk"),
        ("en", "could I have {item_en}"),
        ("en", "also could somebody {action_en}?"),
        ("en", "requesting {item_en}, manager approved"),
        ("en", "is it possible to {action_en} for me"),
        ("zh", "帮我{action_zh}"),
        ("zh", "麻烦{action_zh}"),
        ("zh", "请{action_zh}，谢谢"),
        ("zh", "能不能帮我{action_zh}？"),
        ("zh", "可以帮忙{action_zh}吗"),
        ("zh", "我需要{item_zh}"),
        ("zh", "申请{item_zh}"),
        ("zh", "想要{item_zh}"),
        ("zh", "给我{action_zh}吧"),
        ("zh", "另外，帮我{action_zh}"),
        ("zh", "今天之内能{action_zh}吗"),
    ],
    "question": [
        ("en", "what is {subject_en}?"),
        ("en", "how does {subject_en} work"),
        ("en", "where can I find the rules on {subject_en}"),
        ("en", "who do I ask about {subject_en}?"),
        ("en", "is there a document about {subject_en}"),
        ("en", "quick question about {subject_en}"),
        ("en", "what are the rules for {subject_en}?"),
        ("en", "can you explain {subject_en} to me"),
        ("en", "I was wondering about {subject_en}"),
        ("en", "does anyone know how {subject_en} works?"),
        ("en", "how do I find out about {subject_en}"),
        ("en", "also, what's the deal with {subject_en}?"),
        ("en", "where is the page on {subject_en}"),
        ("en", "has {subject_en} changed this year?"),
        ("zh", "{subject_zh}是怎么规定的？"),
        ("zh", "请问{subject_zh}怎么弄"),
        ("zh", "{subject_zh}在哪里能查到"),
        ("zh", "关于{subject_zh}，找谁咨询"),
        ("zh", "有没有{subject_zh}的说明文档"),
        ("zh", "{subject_zh}是什么意思"),
        ("zh", "想问一下{subject_zh}"),
        ("zh", "{subject_zh}今年有变化吗？"),
        ("zh", "{subject_zh}的流程是什么"),
        ("zh", "另外问下，{subject_zh}怎么算"),
        ("zh", "谁知道{subject_zh}吗"),
    ],
}

#: Patterns added after the first fit, from the kinds of wording its out-of-fold errors on the
#: train split lacked (the holdout split was not looked at).
MORE_TRAIN_PATTERNS = {
    "problem": [
        ("en", "{thing_en} won't load"),
        ("en", "my issue: {thing_en} crashed twice already"),
        ("en", "{thing_en} is down for me, is it just me?"),
        ("en", "{thing_en} isn't responding"),
        ("en", "looks like {thing_en} is broken"),
        ("en", "{thing_en} froze and now nothing happens"),
        ("en", "{thing_en} throws an error when I try to use it"),
        ("en", "I can't use {thing_en}"),
        ("en", "{thing_en} doesn't work anymore, what now?"),
        ("en", "why is {thing_en} so slow?"),
        ("en", "for some reason {thing_en} stopped working"),
        ("en", "{thing_en} failed again"),
        ("en", "{thing_en} is making a weird noise and then cuts out"),
        ("en", "it seems {thing_en} is out of service"),
        ("zh", "{thing_zh}连不上"),
        ("zh", "{thing_zh}坏掉了，没法用"),
        ("zh", "{thing_zh}登录不了"),
        ("zh", "{thing_zh}卡死了"),
        ("zh", "{thing_zh}是不是挂了？"),
        ("zh", "{thing_zh}有毛病"),
        ("zh", "{thing_zh}一点反应都没有"),
        ("zh", "{thing_zh}突然不好使了"),
        ("zh", "{thing_zh}又出问题了，咋回事"),
        ("zh", "{thing_zh}老是断"),
        ("zh", "我这边{thing_zh}不能用了"),
        ("zh", "{thing_zh}故障，影响工作了"),
    ],
    "work": [
        ("en", "can you please {action_en} asap"),
        ("en", "pls {action_en}"),
        ("en", "I'd like you to {action_en}"),
        ("en", "we need someone to {action_en}"),
        ("en", "would it be possible to {action_en}?"),
        ("en", "could someone {action_en} by Friday"),
        ("en", "please could you {action_en}"),
        ("en", "I want {item_en}"),
        ("en", "can we get {item_en} for the team?"),
        ("en", "may I have {item_en} please"),
        ("en", "I'm asking for {item_en}"),
        ("en", "{item_en} please, mine is gone"),
        ("en", "can you {action_en}? manager already approved"),
        ("en", "need to {action_en} today"),
        ("zh", "请帮忙{action_zh}"),
        ("zh", "麻烦你{action_zh}，谢谢"),
        ("zh", "帮忙{action_zh}一下"),
        ("zh", "能否{action_zh}"),
        ("zh", "我想申请{item_zh}"),
        ("zh", "需要{item_zh}，能安排吗"),
        ("zh", "可以给我{item_zh}吗"),
        ("zh", "请尽快{action_zh}"),
        ("zh", "我要{item_zh}"),
        ("zh", "领导批了，请{action_zh}"),
        ("zh", "再要{item_zh}"),
        ("zh", "能不能再给我{item_zh}"),
    ],
    "question": [
        ("en", "how do I learn more about {subject_en}?"),
        ("en", "what's the policy on {subject_en}"),
        ("en", "is there anything written about {subject_en}?"),
        ("en", "who handles {subject_en}?"),
        ("en", "any info on {subject_en}?"),
        ("en", "what should I know about {subject_en}"),
        ("en", "can anyone tell me about {subject_en}"),
        ("en", "where do I read up on {subject_en}"),
        ("en", "what does the handbook say about {subject_en}?"),
        ("en", "is {subject_en} the same for contractors?"),
        ("en", "how is {subject_en} decided"),
        ("en", "I have a question on {subject_en}"),
        ("en", "do you know anything about {subject_en}?"),
        ("en", "which team owns {subject_en}?"),
        ("zh", "{subject_zh}有什么要求"),
        ("zh", "问一下{subject_zh}的规定"),
        ("zh", "{subject_zh}找哪个部门"),
        ("zh", "{subject_zh}怎么算的？"),
        ("zh", "{subject_zh}外包同事也适用吗"),
        ("zh", "请问{subject_zh}在哪看"),
        ("zh", "{subject_zh}具体是什么"),
        ("zh", "{subject_zh}能介绍一下吗"),
        ("zh", "谁负责{subject_zh}"),
        ("zh", "{subject_zh}有规定吗？"),
        ("zh", "我想了解一下{subject_zh}"),
        ("zh", "{subject_zh}要注意什么"),
        # how to get something is a question, not a request for it ("How can I get access
        # to Grafana?" was filed by the first fit: a tune conversation of the benchmark)
        ("en", "how can I get {item_en}?"),
        ("en", "how do I go about getting {item_en}"),
        ("en", "what's the process to get {item_en}?"),
        ("en", "how do I {action_en}?"),
        ("en", "how can I {action_en} myself"),
        ("zh", "怎么申请{item_zh}？"),
        ("zh", "{item_zh}要怎么申请"),
        ("zh", "如何{action_zh}？"),
        ("zh", "自己怎么{action_zh}"),
    ],
}
HOLDOUT_PATTERNS = {
    "problem": [
        ("en", "heads up: {thing_en} is out of order"),
        ("en", "{thing_en} just died on me"),
        ("en", "not sure who to tell but {thing_en} isn't working properly"),
        ("en", "{thing_en} is playing up again, third time this week"),
        ("en", "anyone else having trouble with {thing_en}?"),
        ("zh", "{thing_zh}好像出毛病了"),
        ("zh", "{thing_zh}今天完全没法用"),
        ("zh", "{thing_zh}又罢工了"),
        ("zh", "跟大家说一下，{thing_zh}坏掉了"),
        ("zh", "{thing_zh}老是出错，烦死了"),
    ],
    "work": [
        ("en", "when you get a chance, {action_en}"),
        ("en", "mind if I ask you to {action_en}?"),
        ("en", "need someone to {action_en} before Friday"),
        ("en", "{item_en} would help a lot, can you sort it"),
        ("en", "any chance you could {action_en}"),
        ("zh", "有空的话{action_zh}"),
        ("zh", "拜托{action_zh}"),
        ("zh", "周五前需要{action_zh}"),
        ("zh", "想申请{item_zh}，领导批了"),
        ("zh", "辛苦{action_zh}"),
    ],
    "question": [
        ("en", "curious how {subject_en} is handled here"),
        ("en", "is {subject_en} written down anywhere?"),
        ("en", "what's our stance on {subject_en}"),
        ("en", "could someone point me to info on {subject_en}"),
        ("en", "do we have a policy covering {subject_en}"),
        ("zh", "咱们公司{subject_zh}是什么标准"),
        ("zh", "{subject_zh}有相关规定吗"),
        ("zh", "打听一下{subject_zh}"),
        ("zh", "{subject_zh}哪里有写"),
        ("zh", "{subject_zh}一般怎么处理"),
    ],
}


#: A second held-out split ("fresh"), written after the first holdout's accuracy had been read
#: while choosing the embedding's weight: other topics (travel, legal, events, the back office)
#: and patterns again, measured once, at the end.
FRESH_TOPICS = {
    "thing_en": [
        "the travel booking site",
        "the contract approval workflow",
        "the kitchen dishwasher",
        "the meeting room screen",
        "the NAV report",
        "the event registration form",
        "the water dispenser",
        "the reimbursement page",
        "the e-signature tool",
        "the bike rack lock",
    ],
    "thing_zh": [
        "差旅预订网站",
        "合同审批流程",
        "洗碗机",
        "会议室的屏幕",
        "净值报表",
        "活动报名表",
        "饮水机",
        "报销页面",
        "电子签章",
        "自行车棚的锁",
    ],
    "action_en": [
        "book me a train to Lyon on the 14th",
        "send the NDA to legal for review",
        "reserve 20 seats for the town hall",
        "top up my travel card",
        "order lunch for the workshop",
        "raise a purchase order for the new chairs",
        "add the auditors to the data room",
        "collect the old laptops from 2F",
        "translate this notice into Chinese",
        "re-run yesterday's NAV report",
    ],
    "action_zh": [
        "订一张 14 号去里昂的火车票",
        "把保密协议发给法务审一下",
        "给全员大会留 20 个座位",
        "充一下差旅卡",
        "给研讨会订午餐",
        "给新椅子下个采购单",
        "把审计加到资料室",
        "把二楼的旧电脑收走",
        "把这个通知翻译成中文",
        "重跑一下昨天的净值报表",
    ],
    "subject_en": [
        "per diem rates abroad",
        "signing contracts on behalf of the company",
        "the christmas party",
        "business class eligibility",
        "keeping client files",
        "the cut-off time for redemptions",
        "bringing kids to the office",
        "the second-job rule",
        "company car tax",
        "conference budgets",
    ],
    "subject_zh": [
        "境外出差补贴标准",
        "代表公司签合同",
        "年会",
        "商务舱资格",
        "客户档案保存",
        "赎回截止时间",
        "带孩子来办公室",
        "兼职规定",
        "公司车辆的税",
        "参会预算",
    ],
    "item_en": [
        "a travel adapter",
        "a visitor pass",
        "a mini fridge",
        "a name plate",
        "a phone stand",
    ],
    "item_zh": ["一个旅行转换插头", "一张访客证", "一台小冰箱", "一个桌牌", "一个手机支架"],
}
FRESH_PATTERNS = {
    "problem": [
        ("en", "FYI {thing_en} has stopped working"),
        ("en", "{thing_en} keeps timing out"),
        ("en", "I think {thing_en} is broken, nothing happens"),
        ("en", "{thing_en}: still not fixed"),
        ("en", "help, {thing_en} went down"),
        ("zh", "{thing_zh}不工作了"),
        ("zh", "{thing_zh}一直转圈"),
        ("zh", "{thing_zh}挂了"),
        ("zh", "反馈一下：{thing_zh}有故障"),
        ("zh", "{thing_zh}又失灵了"),
    ],
    "work": [
        ("en", "would you kindly {action_en}"),
        ("en", "I'm requesting that you {action_en}"),
        ("en", "do me a favour and {action_en}"),
        ("en", "could I ask for {item_en}?"),
        ("en", "request: {item_en}"),
        ("zh", "劳驾{action_zh}"),
        ("zh", "能麻烦{action_zh}不"),
        ("zh", "申请一下：{item_zh}"),
        ("zh", "需要你们{action_zh}"),
        ("zh", "帮个忙，{action_zh}"),
    ],
    "question": [
        ("en", "what are we supposed to do about {subject_en}?"),
        ("en", "how strict is {subject_en}"),
        ("en", "anyone know the rule for {subject_en}"),
        ("en", "where are the guidelines for {subject_en}?"),
        ("en", "need some info: {subject_en}"),
        ("zh", "{subject_zh}是按什么执行的"),
        ("zh", "有人知道{subject_zh}吗？"),
        ("zh", "{subject_zh}的标准在哪"),
        ("zh", "关于{subject_zh}有什么说法"),
        ("zh", "{subject_zh}怎么规定的呀"),
    ],
}


# Chinese requests for work said bare, with no 帮我 / 请 / 麻烦 before them
# ("发布一下支付网关的补丁", "支付网关要做一次配置变更"): the first fits read them
# as questions. Written after that was seen through `brain ask`, with work of every
# kind (releases and restarts, office and HR chores); none is a held-out or fresh
# pattern or topic.
BARE_WORK_TOPICS = {
    "work_zh": [
        "发布一下支付网关的补丁",
        "升级一下订单系统的数据库",
        "重启一下测试环境",
        "把报销系统迁到新服务器",
        "给大会议室换一台投影仪",
        "调整一下下周的值班表",
        "更新一下部门通讯录",
        "清理一下共享盘里的旧文件",
        "续一下官网的证书",
        "给新同事开个邮箱",
        "把我的工位换到靠窗那边",
        "订一下明天的培训室",
        "把客户名单导出来",
        "回滚一下昨晚的发布",
        "扩容一下日志集群的磁盘",
        "装一下 Visio",
    ],
    "system_zh": [
        "支付网关",
        "订单系统",
        "报销系统",
        "官网",
        "考勤系统",
        "测试环境",
        "日志集群",
        "CRM",
    ],
}
BARE_WORK_PATTERNS = {
    "work": [
        ("zh", "{work_zh}"),
        ("zh", "{work_zh}，谢谢"),
        ("zh", "今晚{work_zh}"),
        ("zh", "周末要{work_zh}"),
        ("zh", "{work_zh}，越快越好"),
        ("zh", "这周内{work_zh}"),
        ("zh", "需要{work_zh}"),
        ("zh", "{system_zh}要做一次配置变更"),
        ("zh", "{system_zh}需要升级一下"),
        ("zh", "{system_zh}今晚要发版"),
        ("zh", "{system_zh}要加一台服务器"),
        ("zh", "给{system_zh}做个变更"),
    ],
}


# Things wanted for someone else, the person named first ("the new accountant needs a
# laptop"): the first fits read an English message opening with "the …" as a problem report,
# since most of their problems open that way, so "the new analyst needs a laptop" was a
# problem and its list of things was never split. Beside them, a fault of that person's thing
# is still a problem ("the new accountant's laptop won't turn on"). English only: Chinese
# ("新来的分析师需要电脑") was read as work already, and Chinese rows of this frame tipped
# Chinese problem reports ("昨晚的对账批处理任务失败了") to work. Written after that was seen
# through `brain ask`; no held-out or fresh pattern or topic.
FOR_SOMEONE_TOPICS = {
    "someone_en": [
        "the new accountant",
        "the summer student",
        "the temp in finance",
        "our new joiner",
        "the new product manager",
        "the graduate starting next week",
        "the consultant from the audit firm",
        "the new receptionist",
        "the new hire in legal",
        "my new team member",
    ],
}
FOR_SOMEONE_THINGS = {
    "en": [
        "a laptop",
        "a second screen",
        "an ergonomic chair",
        "a desk phone",
        "a security token",
        "a Salesforce account",
        "access to the finance share",
        "a VPN account",
        "a parking permit",
        "an email address",
    ],
}
FOR_SOMEONE_PATTERNS = {
    "work": [
        ("en", "{someone_en} needs [thing]"),
        ("en", "{someone_en} will need [thing]"),
        ("en", "{someone_en} starting monday needs [thing]"),
        ("en", "{someone_en} is going to need [thing] on day one"),
        ("en", "{someone_en} needs [thing] before they start"),
    ],
    "problem": [
        ("en", "{someone_en}'s laptop won't turn on"),
        ("en", "{someone_en} can't log in to anything"),
    ],
}


def _with_things(rows: list[dict[str, str]], rng: random.Random) -> list[dict[str, str]]:
    """Each row's "[thing]" filled with one of the things wanted, in the row's language."""
    return [
        {**r, "text": r["text"].replace("[thing]", rng.choice(FOR_SOMEONE_THINGS[r["lang"]]))}
        for r in rows
    ]


def _rows(patterns, topics, split: str, rng: random.Random) -> list[dict[str, str]]:
    rows = []
    for label, entries in patterns.items():
        for number, (lang, pattern) in enumerate(entries):
            slot = pattern.split("{", 1)[1].split("}", 1)[0]
            for topic in rng.sample(topics[slot], PER_PATTERN):
                text = pattern.replace("{" + slot + "}", topic)
                rows.append({
                    "text": text[0].upper() + text[1:] if rng.random() < 0.3 else text,
                    "label": label, "lang": lang, "split": split,
                    "template": f"{split}-{label}-{number}",
                })  # fmt: skip
    return rows


def fit() -> None:
    """Fit the model on the train split (with and without the embedder) and ship both."""
    from brain.chain.speech_act import SHIPPED_NAME, fit_model, labelled_rows
    from core.config import load_settings
    from core.model_files import ship_fits
    from core.text.embedder import get_dense_embedder

    rows = labelled_rows("train")
    embedder = get_dense_embedder(load_settings())
    embed = embedder.embed if embedder is not None else None
    for model, path in ship_fits("brain.data", SHIPPED_NAME, lambda e: fit_model(rows, e), embed):
        print(f"wrote {path.name} (embedding: {model.with_embedding})")


def main() -> None:
    rng = random.Random(39)
    rows = _rows(TRAIN_PATTERNS, TRAIN_TOPICS, "train", rng)
    more = _rows(MORE_TRAIN_PATTERNS, TRAIN_TOPICS, "train", random.Random(40))
    rows += [{**r, "template": r["template"].replace("train", "train2")} for r in more]
    bare = _rows(BARE_WORK_PATTERNS, BARE_WORK_TOPICS, "train", random.Random(42))
    rows += [{**r, "template": r["template"].replace("train", "train3")} for r in bare]
    wanted = _rows(FOR_SOMEONE_PATTERNS, FOR_SOMEONE_TOPICS, "train", random.Random(43))
    wanted = _with_things(wanted, random.Random(44))
    rows += [{**r, "template": r["template"].replace("train", "train4")} for r in wanted]
    rows += _rows(HOLDOUT_PATTERNS, HOLDOUT_TOPICS, "holdout", rng)
    rows += _rows(FRESH_PATTERNS, FRESH_TOPICS, "fresh", random.Random(41))
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    print(f"wrote {len(rows)} rows to {OUT}")


if __name__ == "__main__":
    main()
    if "--fit" in sys.argv[1:]:
        fit()
