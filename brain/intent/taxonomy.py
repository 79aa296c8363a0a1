"""The intent taxonomy as data: fine-grained intents, their broad parents and stand-alone intents.

Seed 002 distinguishes broad ("generic") intents such as ``incident`` from fine-grained
("specific") ones such as ``network_vpn``; the vote lets a confident fine-grained keyword hit
refine a weak broad result. Here a *generic* intent is a broad intent that has fine-grained
children, a *specific* intent is one that has a broad parent, and the rest (greeting, complaint,
escalation, ...) are stand-alone.

``group`` names the built-in controller domain that usually takes the intent (``conversation``,
``escalation`` and ``other`` are not controllers). It is a hint for routing, not a routing table:
the controller set is open.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "GENERIC_INTENTS",
    "INTENTS",
    "INTENT_NAMES",
    "OTHER",
    "SPECIFIC_INTENTS",
    "IntentSpec",
    "intent_group",
    "spec",
]

OTHER = "other"


@dataclass(frozen=True, slots=True)
class IntentSpec:
    """One intent: its broad parent (None for broad and stand-alone ones) and its cues."""

    name: str
    parent: str | None
    group: str
    description: str
    keywords: tuple[str, ...]
    examples: tuple[str, ...]


def _i(
    name: str,
    parent: str | None,
    group: str,
    description: str,
    keywords: str,
    examples: tuple[str, ...],
) -> IntentSpec:
    words = tuple(word.strip() for word in keywords.split("|") if word.strip())
    return IntentSpec(name, parent, group, description, words, examples)


INTENTS: tuple[IntentSpec, ...] = (
    # --- consultation ---------------------------------------------------------------------
    _i(
        "query",
        None,
        "consultation",
        "A general question that asks for information.",
        "question|ask|wonder|咨询|请问|问一下|想了解",
        (
            "I have a question about the office network",
            "quick question about our IT setup",
            "请问一下公司的 IT 服务有哪些",
            "想咨询一个问题",
        ),
    ),
    _i(
        "how_to",
        "query",
        "consultation",
        "Asks how to do something or what a policy says.",
        "how do i|how to|how can i|how long|where can i|are we allowed|policy|guide|instructions|"
        "steps to|怎么|如何|怎样|在哪里|流程|政策|规定|制度|步骤|教程|多长时间|允许|截止时间",
        (
            "how do I set up the VPN on my Mac",
            "what is the policy for working from home",
            "where can I find the expense guide",
            "how to connect to the office wifi",
            "如何申请年假",
            "怎么配置邮箱客户端",
            "报销流程是什么",
            "公司的密码策略是怎样的",
        ),
    ),
    _i(
        "definition",
        "query",
        "consultation",
        "Asks what a term, acronym or piece of jargon means.",
        "what is|what does|meaning of|means|stands for|define|definition|explain|"
        "difference between|是什么|什么是|什么意思|什么叫|含义|定义|区别|是一个意思|解释一下",
        (
            "what is an SLA",
            "what does RPO stand for",
            "what's the meaning of settlement T+1",
            "什么是滚仓",
            "滚仓是什么意思",
            "头寸的定义是什么",
        ),
    ),
    # --- access -----------------------------------------------------------------------------
    _i(
        "request",
        None,
        "access",
        "A general service request that asks IT to provide or set up something.",
        "request|need|please provide|apply|申请|需要|帮我开通|开通",
        (
            "I need a new monitor for my desk",
            "can you set up a shared mailbox for the team",
            "please provide a second keyboard",
            "我需要申请一个新的服务",
            "帮我开通一下",
        ),
    ),
    _i(
        "access_request",
        "request",
        "access",
        "Asks for a permission, role, group membership or access to a system or folder.",
        "access|permission|role|grant|read-only|write access|admin rights|add me to|"
        "权限|访问|授权|开通权限|加入群组|只读",
        (
            "please grant me read access to the finance share",
            "I need admin rights on the build server",
            "add me to the grafana editors group",
            "can I get access to the prod database",
            "申请 Jira 项目的访问权限",
            "帮我开通 GitLab 仓库的写权限",
            "我需要财务共享盘的只读权限",
        ),
    ),
    _i(
        "password_reset",
        "request",
        "access",
        "Asks to reset or change a forgotten or expired password.",
        "password reset|reset my password|forgot my password|forgot password|password expired|"
        "change my password|重置密码|忘记密码|密码过期|改密码|修改密码",
        (
            "I forgot my password, please reset it",
            "my password expired and I can't log in",
            "reset my AD password please",
            "how do I change my password",
            "忘记密码了，帮我重置一下",
            "域账号密码过期了",
            "邮箱密码要重置",
        ),
    ),
    _i(
        "software_install",
        "request",
        "access",
        "Asks to install or license a piece of software.",
        "install|installation|license|licence|software|安装|软件|许可证|授权码|装一下",
        (
            "please install Visual Studio on my laptop",
            "I need a license for Adobe Acrobat",
            "can you install Python 3.12 for me",
            "need Office installed on the new PC",
            "帮我安装一下 Photoshop",
            "申请 Navicat 软件许可证",
            "电脑上需要装 VS Code",
        ),
    ),
    _i(
        "account_lockout",
        "request",
        "access",
        "Reports a locked, disabled or blocked user account.",
        "locked out|account locked|account is locked|disabled account|account disabled|"
        "unlock|账号锁定|账户锁定|账号被锁|被锁定|解锁|账号被禁用",
        (
            "my account is locked after too many attempts",
            "I'm locked out of Windows",
            "please unlock my AD account",
            "账号被锁了，登录不了",
            "域账户被锁定了请帮忙解锁",
            "我的账号被禁用了",
        ),
    ),
    # --- incident ---------------------------------------------------------------------------
    _i(
        "incident",
        None,
        "incident",
        "Something an employee uses is broken or not working.",
        "not working|broken|doesn't work|does not work|can't|cannot|error|issue|problem|crash|"
        "stuck|fails|故障|坏了|打不开|无法使用|报错|出问题|崩溃|死机|卡住|用不了|不能用",
        (
            "my laptop keeps crashing",
            "Teams is not working for me",
            "the app shows an error when I open it",
            "something is broken with my setup",
            "电脑坏了",
            "系统打不开了",
            "软件一直报错",
            "电脑死机了，怎么办",
        ),
    ),
    _i(
        "network_vpn",
        "incident",
        "incident",
        "VPN, Wi-Fi, network or internet connectivity problem.",
        "vpn|wifi|wi-fi|network|internet|no connection|can't connect|cannot connect|"
        "disconnects|dns|proxy|断网|网络|连不上|连接不上|网速|内网|无线|掉线",
        (
            "VPN keeps disconnecting",
            "can't connect to the office wifi",
            "the internet is very slow on floor 3",
            "VPN error 691 when I log in",
            "VPN 连不上，报错 691",
            "公司网络断了",
            "内网访问不了",
            "无线网总是掉线",
        ),
    ),
    _i(
        "hardware_fault",
        "incident",
        "incident",
        "A physical device fault: laptop, screen, keyboard, dock, phone.",
        "laptop|screen|monitor|keyboard|mouse|battery|dock|blue screen|bsod|won't boot|"
        "won't turn on|hardware|headset|no sound|audio|fan|overheating|dial tone|desk phone|"
        "屏幕|显示器|键盘|鼠标|电池|蓝屏|开不了机|硬件|黑屏|耳机|没有声音|没声音|风扇|很烫|座机|"
        "拨号音|很卡|特别卡|卡顿",
        (
            "my laptop won't turn on",
            "the screen flickers and goes black",
            "keyboard keys are not responding",
            "blue screen every morning",
            "电脑蓝屏了",
            "显示器没有信号",
            "笔记本开不了机",
            "鼠标键盘都没反应",
        ),
    ),
    _i(
        "email_issue",
        "incident",
        "incident",
        "Problem sending, receiving or syncing email or calendars.",
        "email|emails|e-mail|outlook|mailbox|inbox|calendar|exchange|mail|bounce|bounced|"
        "bounce back|邮件|邮箱|收不到|发不出|日历|退信",
        (
            "Outlook won't sync my inbox",
            "I can't send emails since this morning",
            "my mailbox is full",
            "calendar invites are not arriving",
            "邮箱收不到邮件",
            "Outlook 发不出去邮件",
            "邮件一直卡在发件箱",
        ),
    ),
    _i(
        "printer_issue",
        "incident",
        "incident",
        "Printer, scanner or print queue problem.",
        "printer|print|printing|scanner|toner|paper jam|打印机|打印|扫描仪|卡纸|墨盒",
        (
            "the printer on floor 2 is jammed",
            "I can't print to the HP printer",
            "the scanner doesn't send to email",
            "打印机卡纸了",
            "打印不了文件",
            "扫描仪用不了",
        ),
    ),
    _i(
        "security_incident",
        "incident",
        "incident",
        "A security event: phishing, malware, ransomware, data leak or a compromised account.",
        "phishing|malware|virus|ransomware|trojan|hacked|compromised|data leak|breach|"
        "suspicious link|suspicious login|keylogger|"
        "钓鱼|病毒|中毒|勒索|木马|被盗|盗号|泄露|入侵|可疑链接|异常登录",
        (
            "I clicked a link in a phishing email",
            "my laptop may have malware",
            "I think my account has been compromised",
            "ransomware encrypted our shared drive",
            "我点开了钓鱼邮件链接",
            "电脑中毒了",
            "账号被盗了",
            "怀疑客户数据泄露",
        ),
    ),
    # --- alarm ------------------------------------------------------------------------------
    _i(
        "alert",
        None,
        "alarm",
        "A monitoring alert or alarm, or a question about one.",
        "alert|alarm|firing|monitoring|threshold|error rate|latency|p99|"
        "告警|报警|监控|阈值|错误率|延迟",
        (
            "[FIRING:1] HighErrorRate service=payments",
            "alert: latency p99 above 2s on checkout",
            "why is this alarm firing",
            "error rate on api-gateway is at 12%",
            "监控告警：接口错误率超过 5%",
            "收到一个报警，帮忙看看",
        ),
    ),
    _i(
        "job_failure",
        "alert",
        "alarm",
        "A batch job, cron job, pipeline or scheduled task failed.",
        "job failed|cron|batch|pipeline failed|scheduled task|exit code|etl|airflow|"
        "任务失败|跑批|批处理|定时任务|作业失败",
        (
            "the nightly ETL job failed with exit code 1",
            "cron job backup-db did not run",
            "Airflow DAG settlement_daily failed",
            "跑批任务失败了",
            "定时任务没有执行",
            "日终批处理作业失败",
        ),
    ),
    _i(
        "resource_alert",
        "alert",
        "alarm",
        "A resource alert: disk, CPU, memory or capacity running out on a host.",
        "disk full|disk usage|cpu|memory|oom|out of memory|load average|capacity|"
        "磁盘|内存|负载|使用率|空间不足",
        (
            "disk usage on db-01 is at 95%",
            "CPU at 100% on web-prod-3",
            "pod killed with OOM",
            "db-01 磁盘空间不足",
            "服务器内存使用率超过 90%",
            "CPU 负载很高",
        ),
    ),
    # --- ticket -----------------------------------------------------------------------------
    _i(
        "ticket",
        None,
        "ticket",
        "About an existing ticket or work order.",
        "ticket|work order|工单|单号",
        (
            "about my ticket",
            "regarding the work order I opened",
            "关于我的工单",
            "那个工单",
        ),
    ),
    _i(
        "ticket_status",
        "ticket",
        "ticket",
        "Asks for the status or progress of an existing ticket.",
        "status of|ticket status|any update|any news|progress|what's the status|where is it at|"
        "my open tickets|open tickets|who is working on|"
        "进度|状态|处理到哪|怎么样了|有进展吗|谁在跟|没人理|有人跟进",
        (
            "what's the status of ticket INC-10234",
            "any update on my request 2025060300011279027",
            "is there progress on #10086",
            "工单 10086 的进度怎么样了",
            "我的单子处理到哪一步了",
            "查一下工单状态",
        ),
    ),
    _i(
        "ticket_action",
        "ticket",
        "ticket",
        "Asks to act on an existing ticket: process, urge, close, reopen, comment.",
        "process ticket|close ticket|reopen|urge|expedite|follow up on|comment on|add a note|"
        "put a note|mark it as resolved|as resolved|priority of|reassign|nudge|"
        "催办|催一下|催催|提醒一下|关闭工单|关单|关掉|重新打开|重开|处理工单|加急|优先级",
        (
            "process ticket 2025060300011279027",
            "please close ticket INC-10234",
            "reopen #10086, the issue is back",
            "can you expedite REQ-5521",
            "催一下工单 10086",
            "把这个工单关掉",
            "工单重新打开",
        ),
    ),
    # --- change -----------------------------------------------------------------------------
    _i(
        "change",
        None,
        "change",
        "A change to production systems or infrastructure.",
        "change|maintenance window|变更|维护窗口|调整",
        (
            "we need to make a change to the load balancer",
            "planned maintenance on the database",
            "下周有一个变更",
            "需要调整一下配置",
        ),
    ),
    _i(
        "change_request",
        "change",
        "change",
        "Asks to raise or approve a change request, including capacity changes.",
        "change request|cr|rfc|approve the change|scale up|scale out|capacity|firewall rule|"
        "变更申请|变更单|扩容|缩容|防火墙策略|审批变更",
        (
            "raise a change request to add a firewall rule",
            "please approve CHG-2041",
            "we need to scale out the kafka cluster",
            "提交一个扩容的变更申请",
            "申请开通防火墙策略",
            "变更单需要审批",
        ),
    ),
    _i(
        "release",
        "change",
        "change",
        "A deployment or release to an environment.",
        "release|deploy|deployment|go live|rollout|ship|上线|发布|部署|发版",
        (
            "we want to deploy payments v2.3 to production tonight",
            "schedule the release for Friday",
            "go-live checklist for the new portal",
            "今晚发布订单服务",
            "新版本上线申请",
            "部署到生产环境",
        ),
    ),
    _i(
        "rollback",
        "change",
        "change",
        "Asks to roll back or revert a deployment or change.",
        "rollback|roll back|revert|undo the deploy|回滚|回退|撤回发布",
        (
            "roll back the last deploy of checkout",
            "revert release 2.3.1, it broke login",
            "we need an emergency rollback",
            "回滚昨晚的发布",
            "版本回退到上一个",
        ),
    ),
    _i(
        "asset",
        None,
        "change",
        "About company assets and inventory in general.",
        "asset|inventory|equipment|资产|设备|盘点",
        (
            "question about company equipment",
            "inventory of IT assets",
            "资产盘点",
            "公司设备的问题",
        ),
    ),
    _i(
        "asset_query",
        "asset",
        "change",
        "Asks who holds an asset, its tag, warranty, or to assign, return or retire one.",
        "asset tag|serial number|warranty|who has|assigned to|return my laptop|retire|"
        "资产编号|序列号|保修|领用|归还|报废|借用",
        (
            "who is laptop LT-12345 assigned to",
            "check the warranty of asset PC-20931",
            "I want to return my old laptop",
            "查询资产编号 LT-12345",
            "申请领用一台笔记本",
            "旧电脑报废流程",
        ),
    ),
    # --- coding -----------------------------------------------------------------------------
    _i(
        "code_help",
        None,
        "coding",
        "Asks to write, explain or fix code, a script or a stack trace.",
        "code|script|function|python|java|bash|regex|stack trace|traceback|exception|bug|"
        "compile|代码|脚本|函数|报异常|堆栈|编译",
        (
            "write a python script to rotate logs",
            "why does this function throw NullPointerException",
            "explain this traceback",
            "help me write a regex for order ids",
            "帮我写一个 shell 脚本",
            "这段代码为什么报错",
        ),
    ),
    _i(
        "code_review",
        "code_help",
        "coding",
        "Asks to review code, a pull or merge request.",
        "review|code review|pull request|merge request|pr|mr|"
        "代码评审|代码审查|帮我看看代码|review 一下",
        (
            "can you review my pull request",
            "code review for MR !482",
            "please look over this diff",
            "帮我 review 一下这段代码",
            "代码评审一下这个 MR",
        ),
    ),
    _i(
        "sql",
        "code_help",
        "coding",
        "Asks to write, explain or fix a SQL query or a database error.",
        "sql|select|join|ora-|mysql|postgres|stored procedure|查询语句|存储过程|索引|慢查询",
        (
            "write a SQL query to count orders per day",
            "why is this join so slow",
            "ORA-00942 table or view does not exist",
            "帮我写个 SQL 统计每天的订单",
            "这条慢查询怎么优化",
        ),
    ),
    # --- conversation -----------------------------------------------------------------------
    _i(
        "complaint",
        None,
        "conversation",
        "Complains about the service, a delay or the bot.",
        "complain|complaint|unacceptable|terrible|ridiculous|still not fixed|so slow|"
        "投诉|不满|太慢了|还没解决|什么破|太差",
        (
            "this is unacceptable, nobody has helped me for days",
            "your service is terrible",
            "still not fixed after a week",
            "我要投诉，三天了还没解决",
            "服务太差了",
        ),
    ),
    _i(
        "greeting",
        None,
        "conversation",
        "A greeting or small talk with no request.",
        "hello|hi|hey|good morning|thanks|thank you|你好|您好|早上好|谢谢|在吗",
        (
            "hi there",
            "hello",
            "hey, good morning!",
            "thanks a lot",
            "你好",
            "在吗",
            "谢谢",
        ),
    ),
    _i(
        "feedback",
        None,
        "conversation",
        "Gives feedback or a suggestion about the bot or the service.",
        "feedback|suggestion|suggest|great job|well done|建议|反馈|点赞|做得好",
        (
            "some feedback: the bot answered quickly",
            "a suggestion for the service desk",
            "great job on the new portal",
            "给个建议",
            "反馈一下使用体验",
        ),
    ),
    # --- escalation -------------------------------------------------------------------------
    _i(
        "escalation",
        None,
        "escalation",
        "Asks to escalate to on-call, a manager or a higher support tier.",
        "escalate|escalation|on-call|oncall|page someone|升级处理|上报给|找领导|值班",
        (
            "please escalate this to on-call",
            "page the on-call engineer",
            "I want this escalated to your manager",
            "请升级处理",
            "帮我上报给值班人员",
        ),
    ),
    _i(
        "human_handoff",
        None,
        "escalation",
        "Asks to talk to a human instead of the bot.",
        "human|real person|talk to someone|agent|not a bot|人工|转人工|真人|客服",
        (
            "let me talk to a human",
            "I want a real person",
            "connect me with an agent",
            "转人工",
            "我要找真人",
        ),
    ),
    _i(
        OTHER,
        None,
        "other",
        "Nothing in this list fits.",
        "",
        (),
    ),
)

_BY_NAME: dict[str, IntentSpec] = {item.name: item for item in INTENTS}
INTENT_NAMES: frozenset[str] = frozenset(_BY_NAME)
#: Broad intents that have fine-grained children (seed 002's GENERIC_INTENTS).
GENERIC_INTENTS: frozenset[str] = frozenset(i.parent for i in INTENTS if i.parent)
#: Fine-grained intents (seed 002's SPECIFIC_INTENTS).
SPECIFIC_INTENTS: frozenset[str] = frozenset(i.name for i in INTENTS if i.parent)


def spec(name: str) -> IntentSpec:
    """The spec of an intent name (KeyError for unknown names)."""
    return _BY_NAME[name]


def intent_group(name: str) -> str:
    """The group of an intent, "other" for unknown names."""
    item = _BY_NAME.get(name)
    return item.group if item else "other"
