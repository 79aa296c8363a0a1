"""Details that give a record its context, for the continuation set's train split
(`make_continuation_set.py`): what a user adds to a report or a request once it is filed, the
way people do in a chat thread, with no "still", no question and no "also".

The train author's pools held few of them (138 of 2,665 rows, a handful of phrasings per
domain), and the model read the rest as new work: a device's make and model, the app version or
client in use, where the thing is, who else is hit, when it began, what the screen says; for an
access request the account, environment or role and the reason or approval; for a change the
service, the time it may run, the rollback, the risk and the testing done. Said as a bare
fragment ("model: X", "prod, read-only"), as a sentence ("it's the X one if that matters",
"we tested it on staging"), with a lead ("fwiw", "btw", "for reference", "顺便说一下") or none.

How they were written: per record kind, slots of context a service-desk agent asks for, each
with its own phrase patterns and its own values (devices, applications, services, places,
names and times invented for this file, in English and Chinese); each thread of the train
split (its first row gives the record) gets one to three of its kind's details, and a few
threads of another kind's details are labelled as what they are there (a window beside an
incident is still an update of it: the model learns the relation, not the slot). None is a
phrasing of the held-out author's pools, which stay unread. The rows are appended after the
generated threads with a random stream of their own, so the other rows do not move.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

#: Values shared by the patterns below ({device}, {app}, ...), per language.
VALUES: dict[str, dict[str, Sequence[str]]] = {
    "en": {
        "device": ["HP EliteBook 840", "MacBook Pro 14", "Lenovo T14s", "Surface Pro 9",
                   "Dell XPS 13", "an old Latitude 5490", "the Acer loaner", "iPhone 13",
                   "Pixel 7", "Samsung 27in monitor", "Logitech dock", "the Jabra headset"],
        "app": ["Chrome 119", "the desktop client 4.2", "Office 365 build 2310", "macOS 14.1",
                "Windows 11 23H2", "the web version", "the iOS app", "Firefox ESR",
                "the new Outlook", "Edge", "client version 6.1.3", "the beta build"],
        "place": ["desk 3C-22", "the 5th floor by the windows", "room Atlas on 2",
                  "the Shenzhen office", "home, on fibre", "the hot desks near reception",
                  "building B, ground floor", "the training room", "bay 7 in the warehouse",
                  "the hotel in Berlin"],
        "scope": ["just me", "the whole finance team", "about 10 of us", "only on my account",
                  "everyone on floor 4", "only in the afternoon", "only on wifi, cable is fine",
                  "only with large files", "only for external recipients", "only one user"],
        "since": ["since Monday", "since the update last night", "since about 9am",
                  "for two days now", "since I got back from leave", "since the office move",
                  "after the password change", "since this morning's patch"],
        "message": ["'connection reset by peer'", "'license expired'", "code 0x80070005",
                    "'device not recognised'", "a blue screen with MEMORY_MANAGEMENT",
                    "'access denied'", "HTTP 502", "'certificate not trusted'",
                    "error 1603", "'no signal'"],
        "account": ["the prod account", "staging", "the analytics workspace", "the EU tenant",
                    "the shared finance mailbox", "the marketing project", "our team's repo",
                    "the sandbox org", "the reporting database", "the admin console"],
        "role": ["read-only is enough", "editor rights", "admin, if possible", "viewer access",
                 "write access to the one folder", "the standard developer role",
                 "just the reports, no edit", "owner, since I'm taking over the space"],
        "reason": ["the audit next month", "onboarding the new hires", "the Q3 forecast",
                   "a customer escalation", "covering for Lin while she's out",
                   "the migration project", "month-end close", "a board report",
                   "the security review", "my new role in ops"],
        "person": ["Anita", "my manager Tom", "Wei from finance", "the team lead, Sara",
                   "our director", "Kenji", "the data owner", "Olga in security"],
        "network": ["the home VPN", "the guest wifi", "the hotel wifi", "my phone's hotspot",
                    "the office cable", "4G", "the Berlin office network", "VPN from my flat"],
        "service": ["billing-api", "the search cluster", "auth-gateway", "the CRM database",
                    "orders-service", "the nightly ETL", "the public website", "redis-cache",
                    "the mail relay", "inventory-sync"],
        "window": ["21:00-23:00 tonight", "Saturday 01:00 to 03:00", "after 8pm any weekday",
                   "Sunday early morning", "next Wednesday 18:00-19:00",
                   "between 22:30 and midnight", "the maintenance slot on Thursday",
                   "lunchtime tomorrow, 12 to 1"],
        "rollback": ["redeploy the previous tag", "flip the feature flag back",
                     "restore last night's snapshot", "revert the config commit",
                     "point DNS back to the old host", "roll back the helm release"],
        "test": ["staging", "UAT", "the perf environment", "a canary box",
                 "two pilot users", "the dev cluster"],
        "deadline": ["Monday", "end of day", "tomorrow morning", "next week", "the 15th",
                     "Thursday", "before the sprint starts", "this afternoon"],
    },
    "zh": {
        "device": ["联想 T14", "MacBook Air", "华为 MateBook", "戴尔 7440", "小新 Pro",
                   "公司发的 iPhone", "那台旧的惠普", "三星显示器", "罗技扩展坞", "备用机"],
        "app": ["Chrome 浏览器", "最新版客户端", "Windows 11", "网页版", "手机 App",
                "Office 2021", "旧版本的客户端", "macOS 最新系统", "Edge 浏览器", "测试版"],
        "place": ["三楼 A 区 12 号工位", "五楼靠窗那边", "二楼大会议室", "深圳办公室",
                  "家里", "前台旁边的共享工位", "B 栋一楼", "培训室", "仓库 7 号区",
                  "出差的酒店"],
        "scope": ["只有我一个人", "整个财务部都这样", "我们组十几个人", "只有我的账号",
                  "四楼所有人", "只在下午出现", "只有连无线的时候，插网线没事", "只有大文件",
                  "只有发给外部的", "只有一个同事"],
        "since": ["从周一开始", "昨晚更新之后", "早上九点左右开始", "已经两天了",
                  "休假回来就这样", "搬工位之后", "改了密码以后", "今天早上打完补丁后"],
        "message": ["“连接被重置”", "“许可证已过期”", "错误代码 0x80070005", "“无法识别设备”",
                    "蓝屏", "“拒绝访问”", "502 错误", "“证书不受信任”", "错误 1603",
                    "“无信号”"],
        "account": ["生产环境的账号", "测试环境", "数据分析的空间", "欧洲区的租户",
                    "财务共享邮箱", "市场部的项目", "我们组的代码仓库", "沙箱环境",
                    "报表数据库", "管理后台"],
        "role": ["只读就够了", "要编辑权限", "最好是管理员", "能看就行", "只要那个文件夹的写权限",
                 "普通开发者角色", "只看报表，不用改", "负责人权限，我接手这个空间了"],
        "reason": ["下个月的审计", "带新人入职", "三季度预测", "客户投诉处理",
                   "小林休假我替她", "迁移项目", "月底结账", "给董事会的报告",
                   "安全检查", "我调岗到运维了"],
        "person": ["王经理", "我们主管", "财务的小李", "组长张伟", "部门总监", "数据负责人",
                   "安全部的陈工", "老板"],
        "network": ["家里的 VPN", "访客无线网", "酒店的无线网", "手机热点", "公司有线网", "4G",
                    "公寓里连的 VPN"],
        "service": ["计费接口", "搜索集群", "认证网关", "客户管理数据库", "订单服务",
                    "夜间同步任务", "官网", "缓存服务", "邮件网关", "库存同步"],
        "window": ["今晚九点到十一点", "周六凌晨一点到三点", "工作日晚上八点以后",
                   "周日一早", "下周三 18:00-19:00", "晚上 10 点半到 12 点",
                   "周四的维护时段", "明天中午 12 点到 1 点"],
        "rollback": ["重新部署上一个版本", "把开关关掉就行", "用昨晚的快照恢复",
                     "回退那次配置提交", "把域名指回老机器", "回滚发布"],
        "test": ["预发环境", "UAT", "性能环境", "灰度机器", "两个试点用户", "开发集群"],
        "deadline": ["周一", "今天下班前", "明早", "下周", "15 号", "周四", "迭代开始前",
                     "今天下午"],
    },
}  # fmt: skip

#: Per record kind, the context a user adds: phrase patterns over `VALUES`.
PATTERNS: dict[str, dict[str, Sequence[str]]] = {
    "en": {
        "incident": [
            "it's a {device}", "model is {device}", "{device}, about two years old",
            "it's the {device} if that matters", "on {app}", "I'm using {app}",
            "running {app} btw", "fwiw this is on {app}", "it's at {place}", "location: {place}",
            "I'm sitting at {place}", "affects {scope}", "seems to be {scope}",
            "as far as I can tell it's {scope}", "started {since}", "it's been like this {since}",
            "the screen says {message}", "error text is {message}", "it pops up {message}",
            "for reference: {device}, {app}", "{device} on {app}", "{place}, {device}",
            "I'm on {network} if that matters", "fwiw I'm connected through {network}",
            "this is over {network}",
        ],
        "access": [
            "{account}", "for {account}", "it's {account}", "{role}", "{account}, {role}",
            "reason: {reason}", "it's for {reason}", "need it for {reason}",
            "{person} approved it", "approval from {person} is in the email",
            "{person} ok'd it yesterday", "cc {person}, who approved", "only need it until Friday",
            "it's temporary, a month or so", "{role}, for {reason}",
            "need it by {deadline}", "{deadline} at the latest, it's for {reason}",
            "kind of urgent, {person} starts {deadline}", "no rush, {deadline} is fine",
        ],
        "change": [
            "service is {service}", "it's {service}", "this is for {service}",
            "{window} would be best", "we'd like {window}", "window: {window}",
            "rollback plan: {rollback}", "if it goes wrong we {rollback}",
            "rollback is simple, we {rollback}", "low risk, tested on {test}",
            "tested on {test} already", "no downtime expected", "about 5 minutes of downtime",
            "impact is limited to {service}", "{service}, {window}",
        ],
        "alarm": [
            "host is {service}", "it's {service} again", "the alert text says {message}",
            "{scope}", "started {since}", "dashboard shows {message}",
        ],
    },
    "zh": {
        "incident": [
            "型号是{device}", "是{device}", "{device}，用了两年了", "我用的是{device}",
            "用的{app}", "是在{app}上", "系统是{app}", "在{place}", "位置：{place}",
            "我坐在{place}", "{scope}", "好像{scope}", "{since}", "{since}就这样了",
            "提示{message}", "报的是{message}", "弹出{message}", "补充一下，{device}，{app}",
            "是这台{device}", "供参考：{place}", "我用的是{network}，不知道有没有关系",
            "顺便说下我连的是{network}",
        ],
        "access": [
            "{account}", "是{account}的", "{role}", "{account}，{role}", "原因是{reason}",
            "用途：{reason}", "因为{reason}", "{person}批过了", "{person}已经同意了",
            "审批邮件{person}发了", "只用到周五", "临时用一个月左右", "{role}，{reason}要用",
            "{deadline}之前要用", "比较急，{deadline}就要", "{person}{deadline}入职，麻烦快点",
            "不急，{deadline}前弄好就行",
        ],
        "change": [
            "服务是{service}", "是{service}", "涉及{service}", "{window}最好", "希望在{window}",
            "窗口：{window}", "回滚方案：{rollback}", "出问题就{rollback}",
            "回滚很简单，{rollback}", "风险很低，{test}测过了", "已经在{test}测过了",
            "不会停机", "大概停五分钟",
            "只影响{service}", "{service}，{window}",
        ],
        "alarm": [
            "主机是{service}", "又是{service}", "告警写的是{message}", "{scope}", "{since}",
        ],
    },
}  # fmt: skip

#: The same values in a message of its own: another problem or request, self-contained (a
#: thing and what is wrong with it or wanted of it). Beside the details above, they keep the
#: model from reading every mention of a device, an account or a service as context. No time
#: is named in them: a time beside a record is context of it (a window), and times said only in
#: new rows taught the model that "一晚上" (overnight) starts something new.
NEW_PATTERNS: dict[str, Sequence[str]] = {
    "en": [
        "my {device} won't turn on", "the {device} keeps restarting", "{app} crashes on start",
        "can't log in to {account}", "I need {role} on {account}", "please give me {account}",
        "please restart {service}", "we need to upgrade {service}",
        "{service} is returning {message}", "the printer at {place} is out of toner",
        "the aircon at {place} is broken", "can I get a new {device}?",
        "how do I set up {app}?", "my {device} screen is cracked", "need a parking spot at {place}",
        "{app} won't install, it says {message}", "request to decommission {service}",
    ],
    "zh": [
        "我的{device}开不了机", "{device}一直重启", "{app}一打开就闪退", "登不上{account}",
        "帮我开通{account}的权限", "申请{account}，{role}", "麻烦重启一下{service}",
        "{service}要升级", "{service}报{message}", "{place}的打印机没墨了",
        "{place}空调坏了", "能换一台新的{device}吗？", "{app}怎么安装？", "{device}屏幕碎了",
        "{app}装不上，提示{message}", "申请下线{service}",
    ],
}  # fmt: skip

#: Retry reports on an incident: what was tried, then that it did not help (or a bare "no
#: change"), as typed. The train author's retry pools were a few per domain, and a report of
#: a try with a symptom reads like a new problem unless the model has seen many.
TRIES: dict[str, Sequence[str]] = {
    "en": ["restarted it", "rebooted", "logged out and in again", "cleared the cache",
           "reinstalled the app", "tried another browser", "swapped the cable",
           "plugged it into another port", "ran the updates", "turned wifi off and on",
           "tried from home", "reset my password", "power cycled the dock",
           "followed the steps in the guide", "updated the driver"],
    "zh": ["重启了", "重启过", "退出重新登录了", "清了缓存", "重装了", "换了个浏览器",
           "换了根线", "换了个接口", "装了更新", "把无线关了再开", "回家试了", "改了密码",
           "把扩展坞断电重插了", "按指南操作了一遍", "更新了驱动"],
}  # fmt: skip
#: What a user tries on an access or account request before reporting back.
ACCOUNT_TRIES: dict[str, Sequence[str]] = {
    "en": ["used the reset link", "set a new password", "signed out of every session",
           "tried the temporary password", "approved the MFA prompt", "waited an hour",
           "cleared the saved credentials", "logged in through the portal",
           "accepted the invite email", "re-enrolled my authenticator"],
    "zh": ["点了重置链接", "设了新密码", "把所有会话都退出了", "用了临时密码", "在手机上批准了验证",
           "等了一个小时", "清掉了保存的密码", "从门户登录了", "点了邀请邮件", "重新绑定了验证器"],
}  # fmt: skip
RETRY_PATTERNS: dict[str, Sequence[str]] = {
    "en": ["{t}, no change", "{t} and it's the same", "{t}, didn't help", "{t}, no luck",
           "{t} but same thing", "already {t}, nothing", "{t} twice, still happening",
           "{t}... nope", "{t}, same error", "{t}, it lasted five minutes then back to it",
           "I {t}, still no good"],
    "zh": ["{t}，没用", "{t}，还是一样", "{t}也不行", "{t}，没变化", "{t}，还是老样子",
           "已经{t}，没反应", "{t}两次了，还是这样", "{t}，好了五分钟又不行了", "{t}，照旧报错",
           "{t}还是不好使"],
}  # fmt: skip

LEADS: dict[str, Sequence[str]] = {
    "en": ["", "", "", "fwiw ", "for reference, ", "to add: ", "fyi: ", "in case it helps, "],
    "zh": ["", "", "", "补充：", "补充一点，", "说明一下，", "供参考，"],
}


#: Answers when the bot asked a change for two fields at once ("still need: service, window"):
#: either may come first, alone. The window answers are `continuation_more_phrasings`'.
SERVICE_ANSWERS: dict[str, Sequence[str]] = {
    "en": ["{service}", "it's {service}", "service: {service}", "the service is {service}",
           "{service} is the one", "on {service}"],
    "zh": ["{service}", "是{service}", "服务：{service}", "服务是{service}", "{service}那个",
           "涉及的是{service}"],
}  # fmt: skip
BOTH_ASKED = "service,window"


def train_threads(rows: Sequence[dict[str, object]]) -> list[dict[str, object]]:
    """The first row of each train thread (one record and the bot's question, or none), in
    the set's order: what a family that adds rows per thread starts from."""
    seen: set[tuple[str, str]] = set()
    firsts: list[dict[str, object]] = []
    for row in rows:
        key = (str(row["record"]), str(row["question"]))
        if row["split"] == "train" and key not in seen:
            seen.add(key)
            firsts.append(row)
    return firsts


def _fill(rng: random.Random, pattern: str, lang: str) -> str:
    values = VALUES[lang]
    return pattern.format(**{k: rng.choice(v) for k, v in values.items()})


def context_rows(
    rows: Sequence[dict[str, object]], overlap: Callable[[str, str], float], seed: int = 7
) -> list[dict[str, object]]:
    """For the train split's threads where the bot waits for no answer (each thread's first row
    gives the record; where it waits, a bare value is the answer): one to three details of
    the record's kind, and for one thread in six a detail of another kind's (a window beside
    an incident, a model beside a change: still about the record); and for most of them a new
    problem or request made of the same values (`NEW_PATTERNS`), kept only where it shares
    little with the record (`overlap`)."""
    rng = random.Random(f"{seed}-train-context")
    added: list[dict[str, object]] = []
    for base in train_threads(rows):
        if base["question"]:  # where the bot waits for an answer, a bare value is that answer
            if base["kind"] == "change" and base["question"] in ("service", "window"):
                added.extend(_both_asked(rng, base, overlap))
            if base["question"] == "window":
                added.extend(_window_answers(rng, base))
            continue
        lang, kind = str(base["lang"]), str(base["kind"])
        kinds = PATTERNS[lang]
        own = kinds.get(kind, kinds["incident"])
        picks = [("own", p) for p in rng.sample(list(own), k=rng.choice([1, 1, 2, 2, 3]))]
        if rng.random() < 1 / 6:
            other = rng.choice([k for k in kinds if k != kind])
            picks.append(("other", rng.choice(list(kinds[other]))))
        picks.append(("new", rng.choice(list(NEW_PATTERNS[lang]))))
        if kind in ("incident", "access"):
            picks.append(("retry", rng.choice(list(RETRY_PATTERNS[lang]))))
        for source, pattern in picks:
            if source == "retry":
                tries = TRIES if kind == "incident" else ACCOUNT_TRIES
                core = pattern.format(t=rng.choice(list(tries[lang])))
            else:
                core = _fill(rng, pattern, lang)
            if source == "new" and overlap(core, str(base["record"])) > 0.2:
                continue  # possibly about the record's own thing: not a clean "new"
            message = rng.choice(list(LEADS[lang])) + core if source in ("own", "other") else core
            if lang == "en" and rng.random() < 0.3:
                message = message.lower()
            added.append(
                {
                    **base,
                    "message": message,
                    "same_user": True,
                    "minutes": round(rng.uniform(0.5, 3000.0), 1),
                    "label": "new" if source == "new" else "update",
                    "family": {"new": "new_context", "retry": "retry"}.get(source, "detail"),
                    "template": f"{lang}:detail_context_{source}:{pattern}",
                }
            )
    return added


def _both_asked(
    rng: random.Random, base: dict[str, object], overlap: Callable[[str, str], float]
) -> list[dict[str, object]]:
    """The thread again with both a service and a window asked for: a window answer, a service
    answer and a new request."""
    from continuation_more_phrasings import WINDOW_ANSWERS

    lang = str(base["lang"])
    patterns, windows = WINDOW_ANSWERS[lang]
    window_pattern = rng.choice(list(patterns))
    service_pattern = rng.choice(list(SERVICE_ANSWERS[lang]))
    new_pattern = rng.choice(list(NEW_PATTERNS[lang]))
    picks = [
        ("window", window_pattern, window_pattern.format(v=rng.choice(list(windows))), "answer"),
        ("service", service_pattern, _fill(rng, service_pattern, lang), "answer"),
    ]
    new = _fill(rng, new_pattern, lang)
    if overlap(new, str(base["record"])) <= 0.2:
        picks.append(("new", new_pattern, new, "new"))
    return [
        {
            **base,
            "question": BOTH_ASKED,
            "message": message,
            "same_user": True,
            "minutes": round(rng.uniform(0.5, 600.0), 1),
            "label": label,
            "family": "new_context" if label == "new" else "answer",
            "template": f"{lang}:both_asked_{source}:{pattern}",
        }
        for source, pattern, message, label in picks
    ]


def _window_answers(rng: random.Random, base: dict[str, object]) -> list[dict[str, object]]:
    """Two answers to "still need: window" with this file's times (digits and words, spaced
    or not), in `continuation_more_phrasings`' answer patterns."""
    from continuation_more_phrasings import WINDOW_ANSWERS

    lang = str(base["lang"])
    patterns = list(WINDOW_ANSWERS[lang][0])
    rows = []
    for pattern in rng.sample(patterns, k=2):
        rows.append(
            {
                **base,
                "message": pattern.format(v=rng.choice(list(VALUES[lang]["window"]))),
                "same_user": True,
                "minutes": round(rng.uniform(0.5, 600.0), 1),
                "label": "answer",
                "family": "answer",
                "template": f"{lang}:window_context:{pattern}",
            }
        )
    return rows
