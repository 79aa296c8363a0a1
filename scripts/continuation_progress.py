"""How a problem develops in its thread, for the continuation set's train split
(`make_continuation_set.py`): the messages a user sends after a report, with no "still", no
"also" and often no word of the report's own, that continue it all the same.

The generated pools taught the model that a short, unmarked problem statement in a thread is
new work, and it read the commonest follow-ups that way: the symptom that came next ("now it
boots to a black screen", "现在开机直接黑屏了"), the evidence pasted in ("here's the bounce:
550 5.7.1"), the part that was not said ("it's the Logitech one", "是三楼的"), what was
already tried ("I already changed my password", "权限我已经打开了") and the question about
this problem ("when do I get a loaner?", "回滚做完了吗？"). A thread's new problem was nearly
always marked ("also", "另外"), so the model had no unmarked pair to learn topic from.

How they were written: per topic (a device, an application, a request), in English and
Chinese separately, what a user reports first and then each kind of follow-up, in words
written for this file (none from the conversation benchmark's splits). Each thread here is a
topic's report, one to three of its follow-ups, and one or two reports of other topics,
unmarked or marked, as new: the model must tell them apart by what they are about. The folds
keep a topic together, so calibration sees topics it was not fitted on. Appended after the
generated threads with a random stream of their own, so the other rows do not move.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Topic:
    """One problem or request and the follow-ups it gets."""

    kind: str
    reports: Sequence[str]
    #: The next symptom, or the same one worse.
    progress: Sequence[str]
    #: What the screen, the log or the bounce says.
    evidence: Sequence[str]
    #: What was not said: make, model, place, account, scope.
    details: Sequence[str]
    #: What the user already did.
    tried: Sequence[str]
    #: A question about this record's progress or next step.
    asks: Sequence[str] = ()


T = Topic
EN: tuple[Topic, ...] = (
    T(
        "incident",
        ["my laptop won't turn on", "laptop dead this morning, won't power up"],
        [
            "now it boots to a black screen",
            "it came on for a second and died again",
            "the power light blinks orange now",
        ],
        ["it beeps three times when I press the button", "the screen says 'no bootable device'"],
        ["it's a ThinkPad X1, about two years old", "it's the work laptop, not my own"],
        ["I tried a different charger, nothing", "held the power button for 30s already"],
        ["do I need to bring it to the IT desk?", "can I get a loaner meanwhile?"],
    ),
    T(
        "incident",
        ["emails to our supplier keep bouncing", "mail to one partner domain bounces"],
        ["now internal mail is bouncing too", "it started happening to my colleague as well"],
        ["bounce message: 550 5.7.1 relay denied", "the NDR says 'recipient address rejected'"],
        ["the domain is acme-supply.com", "it's from the shared sales mailbox"],
        ["I checked the address twice, it's right", "sent it from webmail too, same bounce"],
        ["is anyone looking at the mail gateway?"],
    ),
    T(
        "incident",
        ["the VPN keeps dropping", "GlobalProtect disconnects all the time"],
        ["now it won't connect at all", "today it drops every two minutes instead of every hour"],
        ["the log shows 'gateway timeout' right before it drops", "it says error 809"],
        ["I'm at home on fibre", "on the Windows laptop, version 6.1"],
        ["reinstalled the client, no change", "already switched from wifi to cable"],
        ["any idea when this will be fixed?"],
    ),
    T(
        "incident",
        ["outlook crashes when I open it", "Outlook closes by itself on start-up"],
        ["now it won't even show the splash screen", "Word started doing the same"],
        ["event viewer shows a faulting module mso.dll", "it says 'Outlook is not responding'"],
        ["Office 365, the desktop app", "it's fine in the browser"],
        ["safe mode starts it fine", "I repaired Office from control panel already"],
    ),
    T(
        "incident",
        ["my keyboard has keys that don't work", "some keys on my keyboard do nothing"],
        ["now the whole keyboard stopped", "the space bar went too this afternoon"],
        ["device manager shows a yellow triangle on it", "it types 'jjjj' by itself sometimes"],
        ["it's the external Logitech one", "wireless, with the little USB receiver"],
        ["changed the batteries, same thing", "plugged it into another port"],
        ["can someone drop off a spare one?"],
    ),
    T(
        "incident",
        ["the printer on 3 is printing blank pages", "printer near finance prints nothing"],
        ["now it jams on every page", "it's showing paper jam but there's no paper stuck"],
        ["the panel says 'toner low, replace cartridge'", "error 49.4C02 on the display"],
        ["it's the big HP by the kitchen", "printer name PRN-3F-02"],
        ["turned it off and on twice", "took the tray out and put it back"],
    ),
    T(
        "incident",
        ["the wifi in the office is really slow", "wifi keeps cutting out on floor 5"],
        ["now I can't connect at all", "it's dropping video calls every few minutes now"],
        ["speed test says 0.8 Mbps down", "my laptop shows 'no internet, secured'"],
        ["it's the corp network, not guest", "near the windows on the east side"],
        ["forgot the network and rejoined", "rebooted my laptop, no better"],
        ["is it just my floor or everyone?"],
    ),
    T(
        "incident",
        ["I can't log in, it says my password expired", "login says my password is expired"],
        ["now it says my account is locked", "it locked me out after the third try"],
        [
            "the message is 'your password does not meet the requirements'",
            "it shows error AADSTS50126",
        ],
        ["my user is mlopez3", "this is on the SSO page, not Windows"],
        ["I've changed the password already", "I did the reset from the portal an hour ago"],
        ["how long does an unlock usually take?"],
    ),
    T(
        "incident",
        [
            "the monthly sales report shows the wrong totals",
            "the finance dashboard numbers are off since the deploy",
        ],
        ["now the regional numbers are wrong too", "today it shows zero for March"],
        [
            "the query log shows a divide by zero in the rollup",
            "the total says 1,204 instead of 12,040",
        ],
        ["it's the report in the finance workspace", "only the EU region is affected"],
        ["cleared the cache and refreshed", "I re-ran the export, same figures"],
        ["did the rollback go through? numbers still off", "will this be fixed before month end?"],
    ),
    T(
        "incident",
        ["disk on the build server is nearly full", "build-02 is at 95% disk"],
        ["now it's at 99% and builds are failing", "jobs started failing with no space left"],
        ["df says /var is 98% used", "the alert says 'disk usage critical'"],
        ["it's the linux build box in rack 4", "mostly the docker images folder"],
        ["deleted old artifacts already", "ran docker system prune, freed 3 GB"],
        ["it's down to 60% after cleaning the logs, thanks"],
    ),
    T(
        "incident",
        ["my second monitor isn't detected", "the external screen shows no signal"],
        ["now the laptop screen flickers too", "both screens went black when I docked"],
        ["display settings only shows one screen", "the monitor says 'no DP signal'"],
        ["it's a Dell 27 inch over USB-C", "through the docking station on my desk"],
        ["tried another cable", "updated the graphics driver"],
    ),
    T(
        "incident",
        ["Teams calls drop after a few minutes", "my Teams meetings keep disconnecting"],
        ["now I can't hear anyone at all", "video freezes and then the call ends"],
        ["Teams says 'your network connection is poor'", "the call health shows 40% packet loss"],
        ["it's the desktop app, not the web one", "happens on the headset and the speaker"],
        ["cleared the Teams cache", "signed out and in again"],
    ),
    T(
        "access",
        ["I need access to the Jenkins server", "please give me access to jenkins"],
        ["I still can't see the deploy jobs", "now it shows 403 on the pipeline page"],
        [
            "it says 'user is missing the Overall/Read permission'",
            "login works but the list is empty",
        ],
        ["my user is kchen", "developer role is enough"],
        ["I already asked my lead to approve it", "I logged out and back in"],
        ["who approves this usually?"],
    ),
    T(
        "access",
        [
            "can I get edit rights on the marketing SharePoint",
            "need write access to the marketing site",
        ],
        ["I can open it now but can't upload", "the upload button is greyed out"],
        ["it says 'you need permission to access this item'", "error: access denied, request sent"],
        ["it's the Campaigns library", "for the Q3 launch folder only"],
        ["I clicked request access already", "my manager Dana approved it this morning"],
        ["how long does approval normally take?"],
    ),
    T(
        "change",
        [
            "I need a change to bump the payments service to 2.4",
            "change request: upgrade the order database",
        ],
        [
            "the vendor says we also need the config flag",
            "the upgrade needs a restart of the queue",
        ],
        ["release notes say a schema migration runs first", "the diff is 14 files"],
        ["the window is Friday 22:00 to 23:00", "it's the prod cluster in eu-west"],
        ["we tested it on staging yesterday", "rollback is redeploying 2.3"],
        ["has the CAB looked at it yet?"],
    ),
    T(
        "incident",
        ["my phone doesn't get work emails anymore", "mail on my work phone stopped syncing"],
        ["now the calendar is empty too", "it asks for my password every few minutes"],
        ["the app says 'cannot connect to server'", "sync error 0x85010014"],
        ["iPhone 14, the Outlook app", "it's the company phone"],
        ["removed and added the account", "I already turned notifications on in settings"],
    ),
    T(
        "incident",
        ["the badge reader won't let me into the lab", "my badge stopped opening doors"],
        ["now it doesn't work on the front door either", "the reader beeps red twice"],
        ["the reader shows 'card not enrolled'", "the light goes red, then amber"],
        ["badge number 40213", "it's the lab on level 2"],
        ["I tried the other entrance", "reception reset it once already"],
    ),
    T(
        "incident",
        ["the shared drive is very slow", "opening files on the S drive takes forever"],
        ["now it times out when I open big files", "Excel froze while saving to it"],
        ["explorer shows 'not responding' for a minute", "copy speed shows 200 KB/s"],
        ["it's the finance share on fs02", "only the year-end folder"],
        ["remapped the drive", "tried from another laptop, same"],
    ),
    T(
        "incident",
        [
            "my photo in the company directory is wrong",
            "the directory shows someone else's photo on my profile",
        ],
        ["now it shows up wrong in Teams as well", "Slack picked up the wrong photo too"],
        ["it's still the photo from my first year", "the profile page says 'photo pending review'"],
        ["my name is Aiko Tanaka, sales", "it's in the HR directory, not Outlook"],
        ["I uploaded a new one in the portal", "cleared the browser cache"],
    ),
)

ZH: tuple[Topic, ...] = (
    T(
        "incident",
        ["我的笔记本开不了机", "电脑今天早上开不了机"],
        ["这会儿开机就是黑屏", "刚才亮了一下又灭了", "电源灯一直闪橙色"],
        ["开机的时候滴滴响三声", "屏幕上显示找不到启动设备"],
        ["是联想的，前年配的", "是公司配的那台，不是自己的"],
        ["换了个充电器也不行", "长按电源键30秒了，没用"],
        ["需要我拿到IT那边吗？", "能先借我一台备用机吗"],
    ),
    T(
        "incident",
        ["我的笔记本连不上公司Wi-Fi", "办公室无线网连不上"],
        ["现在有线也断了", "隔一会儿就掉一次，比早上还严重"],
        ["提示无法连接到这个网络", "显示已连接但无法上网"],
        ["我在三楼，电脑是Windows的", "在东边靠窗那一片"],
        ["忘记网络重新连过了", "重启过电脑了，还是不行"],
        ["是只有我这层吗？"],
    ),
    T(
        "incident",
        ["键盘有几个键按了没反应", "键盘上有些键失灵了"],
        ["现在整个键盘都没反应了", "下午空格键也坏了"],
        ["设备管理器里有个黄色感叹号", "有时候自己一直打出jjjj"],
        ["用的是罗技外接的那把", "无线的，插了个小接收器"],
        ["电池换过了，一样", "换了个USB口也不行"],
        ["能先送个备用键盘过来吗"],
    ),
    T(
        "incident",
        ["企业微信在手机上不弹通知", "企业微信消息没有提醒"],
        ["现在连消息都收不到了", "电脑上的也不提醒了"],
        ["App里提示网络连接不可用", "设置里显示通知已被系统限制"],
        ["华为手机，系统是最新的", "是公司发的那部手机"],
        ["通知权限在设置里已经开了", "卸载重装过了"],
    ),
    T(
        "incident",
        ["打印机打出来全是白纸", "三楼的打印机打印没有字"],
        ["现在直接卡纸了", "一直显示卡纸，但里面没有纸"],
        ["面板上显示碳粉不足", "屏幕上是错误代码49.4C02"],
        ["是茶水间旁边那台惠普", "打印机名字是PRN-3F-02"],
        ["关机重启了两次", "纸盒拿出来又放回去了"],
    ),
    T(
        "incident",
        ["邮件发给客户总是被退回", "给合作方发邮件老是退信"],
        ["现在发给公司内部也退了", "同事那边也开始这样了"],
        ["退信里写的是550 5.7.1 relay denied", "退信说收件人地址被拒绝"],
        ["对方域名是acme-supply.com", "是用销售的公共邮箱发的"],
        ["地址核对了两遍，没写错", "网页版发也一样退回"],
        ["邮件网关有人在看吗？"],
    ),
    T(
        "incident",
        ["VPN老是断", "在家连VPN一会儿就掉线"],
        ["现在完全连不上了", "今天两分钟就断一次"],
        ["日志里断之前有个gateway timeout", "提示错误809"],
        ["我在家用的是宽带", "Windows笔记本，客户端是6.1版本"],
        ["客户端重装过了，没变化", "从无线换成网线了，还是一样"],
        ["大概什么时候能修好？"],
    ),
    T(
        "incident",
        ["登录的时候提示密码过期", "系统说我的密码已经过期了"],
        ["现在提示账号被锁了", "试了三次就把我锁了"],
        ["提示新密码不符合复杂度要求", "页面上显示错误AADSTS50126"],
        ["我的账号是lijing02", "是单点登录页面，不是Windows登录"],
        ["我已经改过密码了", "一个小时前在自助门户重置过了"],
        ["解锁一般要多久？"],
    ),
    T(
        "incident",
        ["数据库那边的慢查询突然飙升了，订单服务超时", "订单库最近特别慢"],
        ["连接池重启了，还是慢", "现在下单接口直接报超时了"],
        ["慢日志里都是同一条全表扫描的SQL", "监控上P99延迟到了8秒"],
        ["是生产环境的订单主库", "只有华东那个集群"],
        ["已经把连接池重启了", "加了个索引，没什么改善"],
        ["DBA那边有人在跟吗？"],
    ),
    T(
        "incident",
        ["构建服务器的磁盘快满了", "build-02磁盘使用率95%"],
        ["现在99%了，构建开始失败", "任务报磁盘空间不足"],
        ["df显示/var用了98%", "告警说磁盘使用率严重"],
        ["是4号机柜那台Linux构建机", "主要是docker镜像目录"],
        ["旧的构建产物已经删了", "跑了docker system prune，腾出3G"],
        ["清理日志后降到60%了，谢谢"],
    ),
    T(
        "incident",
        ["外接显示器识别不到", "第二块屏幕显示无信号"],
        ["现在笔记本屏幕也开始闪了", "插上扩展坞两块屏都黑了"],
        ["显示设置里只有一块屏幕", "显示器上提示没有DP信号"],
        ["是戴尔27寸的，用Type-C接的", "接在桌上的扩展坞上"],
        ["换了根线", "显卡驱动更新过了"],
    ),
    T(
        "incident",
        ["月度销售报表的合计数不对", "发版之后财务看板的数字对不上"],
        ["现在各区域的数也错了", "今天三月份显示成0了"],
        ["查询日志里有个除零错误", "合计显示1204，应该是12040"],
        ["是财务空间里的那张报表", "只有欧洲区有问题"],
        ["清了缓存刷新过", "重新导出了一次，数字一样"],
        ["回滚做完了吗？", "月底前能修好吗？"],
    ),
    T(
        "access",
        ["我要申请Jenkins的权限", "麻烦开通一下jenkins账号"],
        ["还是看不到部署任务", "现在流水线页面报403"],
        ["提示缺少Overall/Read权限", "能登录但是列表是空的"],
        ["我的账号是chenk", "开发者权限就够了"],
        ["已经找组长审批了", "退出重新登录过了"],
        ["一般谁来审批？"],
    ),
    T(
        "access",
        ["申请代码仓库的权限", "想要 GitLab 上一个项目的权限"],
        ["能看到了但是推不上去", "clone的时候提示没有权限"],
        ["报错是 remote: HTTP Basic: Access denied", "push的时候提示403"],
        ["项目是 billing/api，要developer角色", "是支付组那个项目"],
        ["已经在系统里提过申请了", "主管已经同意了"],
    ),
    T(
        "change",
        ["我需要申请一个变更，升级订单服务的数据库", "提个变更：给支付服务升级到2.4"],
        ["厂商说还要改一个配置开关", "升级需要重启消息队列"],
        ["发布说明里写了会先跑数据迁移", "改动一共14个文件"],
        ["窗口安排在周六晚上11点", "是欧洲那边的生产集群"],
        ["昨天在预发环境测过了", "回滚就是重新部署2.3"],
        ["变更委员会看过了吗？"],
    ),
    T(
        "incident",
        ["门禁卡刷不开实验室的门", "工牌突然刷不开门了"],
        ["现在大门也刷不开了", "刷卡机响两声红灯"],
        ["读卡器显示卡未登记", "灯先红后黄"],
        ["工牌号是40213", "是二楼的实验室"],
        ["换了个门试也不行", "前台已经帮我重置过一次"],
    ),
    T(
        "incident",
        ["共享盘打开特别慢", "S盘上的文件打开要等很久"],
        ["现在大文件直接超时了", "往上面保存的时候Excel卡死了"],
        ["资源管理器未响应一分钟", "复制速度只有200KB/s"],
        ["是fs02上财务那个共享", "只有年终那个文件夹"],
        ["重新映射过盘符", "换了台电脑也一样"],
    ),
    T(
        "incident",
        ["Teams开会老是掉线", "开会的时候Teams总是断开"],
        ["现在完全听不到别人说话", "视频卡住然后会议就断了"],
        ["Teams提示网络连接不佳", "通话质量显示丢包40%"],
        ["用的是桌面版，不是网页版", "耳机和外放都一样"],
        ["清过Teams缓存了", "退出重新登录过"],
    ),
)

#: What a user puts before a thread's new problem, when anything (half the new rows have none).
MARKERS = {
    "en": ["also,", "another thing:", "separately,", "oh and", "unrelated, but", "btw"],
    "zh": ["另外，", "还有个事，", "对了，", "顺便说一下，", "还有，"],
}
#: Short reports of a device or app problem, sent bare in a request's thread: new work there
#: (a request's own follow-ups are about its system, not a broken device).
SHORT_PROBLEMS = {
    "en": [
        "my mouse is dead",
        "headset has no sound",
        "laptop won't charge",
        "wifi is down",
        "keyboard stopped working",
        "outlook keeps crashing",
        "the projector won't turn on",
        "webcam not working",
        "phone won't sync mail",
        "my docking station died",
    ],
    "zh": [
        "鼠标坏了",
        "耳机没声音",
        "电脑充不进电",
        "投影仪打不开",
        "网断了",
        "键盘失灵了",
        "Outlook一直崩溃",
        "摄像头用不了",
        "手机收不到邮件",
        "扩展坞没反应了",
    ],
}
#: Asks about how such a request or repair goes in general (who approves, how long it takes,
#: where the device goes), not about this record's progress: answered from the knowledge base on
#: the record's subject (`question`), where "has the CAB looked at it yet?" gets the record's
#: status. Labelled `status` before the continuation model had a `question` class, they taught
#: it to answer "who needs to approve that?" with the request's status.
PROCESS_ASKS = frozenset(
    {
        "do I need to bring it to the IT desk?",
        "how long does an unlock usually take?",
        "who approves this usually?",
        "how long does approval normally take?",
        "需要我拿到IT那边吗？",
        "解锁一般要多久？",
        "一般谁来审批？",
    }
)
#: Families of follow-ups: which pools they come from and the label they carry.
FAMILIES: tuple[tuple[str, Callable[[Topic], Sequence[str]], str], ...] = (
    ("progress", lambda t: t.progress, "update"),
    ("evidence", lambda t: t.evidence, "update"),
    ("context", lambda t: t.details, "update"),
    ("tried", lambda t: t.tried, "update"),
    ("asks", lambda t: t.asks, "status"),
)


def _variant(rng: random.Random, text: str, lang: str) -> str:
    """The message as people type it: sometimes lower case or without its final stop."""
    if lang == "en" and rng.random() < 0.3:
        text = text.lower()
    if rng.random() < 0.3:
        text = text.rstrip("。.!！")
    return text


def topic_row(
    rng: random.Random,
    lang: str,
    kind: str,
    record: str,
    message: str,
    minutes: float,
    label: str,
    family: str,
    *,
    domain: str,
    group: str,
) -> dict[str, object]:
    """One train row of a topic's thread (no question waiting): the same user nine times in
    ten, some time after the report. `group` is the row's template, one per topic, so the
    calibration folds see topics they were not fitted on."""
    return {
        "split": "train",
        "lang": lang,
        "kind": kind,
        "record": record,
        "question": "",
        "message": message,
        "same_user": rng.random() < 0.9,
        "minutes": round(minutes * rng.uniform(0.3, 3.0), 1),
        "label": label,
        "family": family,
        "domain": domain,
        "template": group,
    }


def _thread(
    rng: random.Random, lang: str, index: int, topic: Topic, topics: Sequence[Topic]
) -> list[dict[str, object]]:
    """One thread: the topic's report, one to three of its follow-ups, then new ones."""
    record = rng.choice(topic.reports)
    minutes = rng.choice([2.0, 10.0, 40.0, 180.0, 1500.0])

    def row(message: str, label: str, family: str) -> dict[str, object]:
        text = _variant(rng, message, lang)
        return topic_row(
            rng,
            lang,
            topic.kind,
            record,
            text,
            minutes,
            label,
            family,
            domain=f"{lang}-topic{index}",
            group=f"{lang}:progress:{index}",
        )

    rows = []
    usable = [f for f in FAMILIES if f[1](topic)]
    for family, pool, label in rng.sample(usable, k=min(len(usable), rng.randint(1, 3))):
        message = rng.choice(pool(topic))
        rows.append(row(message, "question" if message in PROCESS_ASKS else label, family))
    for _ in range(rng.choice([1, 2, 2])):
        other = rng.choice([t for t in topics if t is not topic])
        text = rng.choice(other.reports)
        if rng.random() < 0.4:
            lead = rng.choice(MARKERS[lang])
            text = f"{lead} {text}" if lang == "en" else lead + text
        rows.append(row(text, "new", "new_topic"))
    if topic.kind != "incident" and rng.random() < 0.7:
        rows.append(row(rng.choice(SHORT_PROBLEMS[lang]), "new", "new_topic"))
    return rows


def progress_rows(seed: int, threads_per_topic: int = 6) -> list[dict[str, object]]:
    """Train rows: each topic's threads with its follow-ups and other topics as new."""
    rng = random.Random(f"{seed}-progress")
    rows: list[dict[str, object]] = []
    for lang, topics in (("en", EN), ("zh", ZH)):
        for index, topic in enumerate(topics):
            # Requests get twice the threads: a bare problem after one is new work, and
            # the set's requests met few of them.
            for _ in range(threads_per_topic * (1 if topic.kind == "incident" else 2)):
                rows.extend(_thread(rng, lang, index, topic, topics))
    return rows
