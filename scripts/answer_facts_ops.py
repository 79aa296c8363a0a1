"""Facts of the shipped knowledge base on changes, releases, alarms, batch jobs, code,
settlement and tickets (the rest are in scripts/answer_facts.py, which says how they were
written)."""

from __future__ import annotations

from answer_facts import (
    API,
    BJ,
    BJZ,
    CAP,
    CPU,
    CZ,
    DN,
    DNZ,
    FS,
    GE,
    GZ,
    RZ,
    SC,
    SQL,
    SQLZ,
    ST,
    TZ,
    C,
    D,
    Fact,
    R,
    T,
    fact,
)

OPS_FACTS: tuple[Fact, ...] = (
    # Changes
    fact(
        "cab_meeting",
        [f"{C}#Normal change", f"{CZ}#普通变更", f"{GE}#CAB"],
        [
            "When does the CAB meet?",
            "which days does the change board sit",
            "change advisory board schedule",
        ],
        ["CAB 哪天开会", "变更评审会每周几"],
    ),
    fact(
        "normal_change_lead",
        [f"{C}#Normal change", f"{CZ}#普通变更"],
        [
            "How far ahead must I submit a normal change?",
            "what goes into a change request",
            "lead time for a non-standard change",
        ],
        ["普通变更要提前几天提交"],
    ),
    fact(
        "emergency_change",
        [f"{C}#Emergency change", f"{CZ}#紧急变更", f"{GE}#emergency change"],
        ["How do I do an emergency change?", "urgent fix during an outage, who approves it"],
        ["紧急变更怎么审批"],
    ),
    fact(
        "freeze",
        [f"{C}#Freeze periods", f"{CZ}#封网期", f"{GZ}#封网"],
        [
            "When is the change freeze?",
            "can I deploy during month-end",
            "year end freeze dates",
            "are there dates when nothing may be changed in production",
        ],
        ["封网期是什么时候", "月底能做变更吗"],
    ),
    fact(
        "windows",
        [f"{C}#Maintenance windows", f"{CZ}#维护窗口"],
        [
            "What are the maintenance windows?",
            "when can I change settlement systems",
            "what time may I do changes on weekdays",
        ],
        ["维护窗口是什么时间", "清算系统哪天可以变更"],
    ),
    fact(
        "standard_change",
        [f"{C}#Standard change", f"{CZ}#标准变更", f"{GE}#standard change"],
        ["What counts as a standard change?", "does renewing a certificate need CAB approval"],
        ["什么是标准变更"],
        also=[f"{CAP}#Standard capacity changes", f"{CAP}#扩容变更（中文）"],
    ),
    fact(
        "disk_extend_std",
        [
            f"{CAP}#Standard capacity changes",
            f"{CAP}#扩容变更（中文）",
            f"{C}#Standard change",
            f"{CZ}#标准变更",
        ],
        ["Is extending a disk a standard change?", "growing a filesystem, does it need CAB?"],
        ["磁盘扩容需要 CAB 审批吗"],
        also=[f"{D}#Remediate", f"{GE}#standard change"],
    ),
    fact(
        "capacity_evidence",
        [f"{CAP}#Sizing evidence", f"{CAP}#扩容变更（中文）"],
        [
            "What evidence do I attach to a capacity request?",
            "what do I need to justify more resources",
        ],
        ["扩容申请要附什么材料"],
    ),
    fact(
        "db_resize",
        [f"{CAP}#Normal capacity changes", f"{CAP}#扩容变更（中文）"],
        ["Is a database resize a standard change?", "new storage array, what kind of change"],
        ["数据库扩容是什么变更"],
    ),
    # Releases
    fact(
        "rollback_when",
        [f"{R}#When to roll back"],
        [
            "When should we roll back a release?",
            "error rate went up after the deploy, do we revert?",
        ],
        ["什么情况下要回滚发布"],
        also=[f"{API}#Remediate", f"{CPU}#Remediate"],
    ),
    fact(
        "rollback_how",
        [f"{R}#How to roll back"],
        ["How do I roll back a deployment?", "steps to revert a release"],
        ["发布失败怎么回滚"],
    ),
    fact(
        "canary",
        [f"{R}#Releases"],
        [
            "What share of traffic does a canary get first?",
            "how do we deploy customer-facing services",
        ],
        ["灰度发布的比例是多少"],
    ),
    fact(
        "after_rollback",
        [f"{R}#After a rollback"],
        [
            "After rolling back, can I reuse the same change?",
            "how is a change closed after rollback",
        ],
        ["回滚后变更单怎么关"],
    ),
    # Alarms
    fact(
        "disk_threshold",
        [f"{D}#Disk space alarm", f"{D}#磁盘告警（中文说明）"],
        ["At what usage does the disk alert fire?", "disk alarm threshold"],
        ["磁盘使用率多少会告警"],
    ),
    fact(
        "disk_diag",
        [f"{D}#Diagnose", f"{D}#磁盘告警（中文说明）"],
        [
            "The /var filesystem is 93% full, how do I find what grew?",
            "disk full on a server, what to check",
        ],
        ["磁盘满了怎么排查"],
    ),
    fact(
        "disk_growth",
        [f"{D}#Remediate", f"{D}#磁盘告警（中文说明）"],
        ["the volume keeps filling up with real business data, what now?"],
        ["业务数据正常增长导致磁盘满怎么办"],
        also=[f"{CAP}#Standard capacity changes", f"{CAP}#扩容变更（中文）"],
    ),
    fact(
        "docker_prune",
        [f"{D}#Remediate"],
        [
            "can I run docker system prune on a database host?",
            "how to free space taken by old logs",
        ],
        ["数据库服务器上能执行 docker system prune 吗"],
    ),
    fact(
        "cpu_threshold",
        [f"{CPU}#", f"{CPU}#CPU 使用率过高告警（中文）"],
        ["When does the high CPU alert trigger?", "HostHighCpuLoad threshold"],
        ["CPU 告警阈值是多少"],
    ),
    fact(
        "cpu_diag",
        [f"{CPU}#Diagnose", f"{CPU}#CPU 使用率过高告警（中文）"],
        [
            "How do I investigate high CPU on a Java service?",
            "server load is huge, which process is it",
        ],
        ["CPU 很高怎么排查"],
    ),
    fact(
        "api_threshold",
        [f"{API}#API error rate and latency alarms", f"{API}#接口错误率和延迟告警（中文）"],
        ["What triggers the HighErrorRate alert?", "p99 latency alert threshold"],
        ["错误率告警的阈值是多少"],
    ),
    fact(
        "api_diag",
        [f"{API}#Diagnose", f"{API}#接口错误率和延迟告警（中文）"],
        ["We see lots of 502s, what does that point to?", "how to troubleshoot a latency spike"],
        ["接口报 502 一般是什么原因"],
    ),
    fact(
        "batch_rc",
        [f"{BJ}#First response", f"{BJZ}#初步排查"],
        [
            "What does return code 12 mean for a batch job?",
            "job killed with rc 137",
            "Control-M job failed, where do I look",
        ],
        ["跑批返回码 12 是什么意思", "银行文件几点到"],
    ),
    fact(
        "batch_rerun",
        [f"{BJ}#Rerun rules", f"{BJZ}#重跑规则"],
        ["Can I rerun a failed SETTLE job?", "is it safe to restart a failed settlement posting"],
        ["清算入账作业失败能直接重跑吗"],
    ),
    fact(
        "batch_deadline",
        [f"{BJ}#Deadlines", f"{BJZ}#时限"],
        ["By when must end-of-day settlement finish?", "EOD batch deadline"],
        ["日终清算几点前要跑完"],
    ),
    # Code
    fact(
        "script_rules",
        [f"{SC}#Rules"],
        [
            "What should a bash script start with?",
            "python ops script conventions",
            "how do I handle credentials in scripts",
        ],
        ["运维脚本里的密码应该放哪里"],
    ),
    fact(
        "script_schedule",
        [f"{SC}#Scheduling"],
        ["Can I run my script from my own crontab?", "where do scheduled scripts get registered"],
        ["定时脚本能放在个人 crontab 里吗"],
    ),
    fact(
        "sql_correctness",
        [f"{SQL}#Correctness", f"{SQLZ}#正确性"],
        [
            "Do I need a WHERE on every update?",
            "what type for money columns",
            "float for amounts ok?",
        ],
        ["金额字段用什么类型"],
    ),
    fact(
        "sql_perf",
        [f"{SQL}#Performance", f"{SQLZ}#性能"],
        ["how big should batches be for large updates", "is select star allowed"],
        ["大批量更新怎么提交"],
        also=[f"{SQLZ}#慢 SQL 怎么优化"],
    ),
    fact(
        "sql_migration",
        [f"{SQL}#Migrations"],
        ["Can I rename a column in a migration?", "how to add an index on a big postgres table"],
        ["迁移脚本里能删除正在使用的列吗"],
        also=[f"{SQLZ}#慢 SQL 怎么优化"],
    ),
    fact(
        "ora_errors",
        [f"{SQL}#Common Oracle errors in reviews"],
        ["What does ORA-00942 mean?", "ORA-01555 snapshot too old"],
        ["ORA-00060 是什么错误"],
        also=[f"{ST}#Frequent exceptions and what they usually mean"],
    ),
    fact(
        "stack_read",
        [f"{ST}#Read it from the right end", f"{ST}#异常堆栈排查（中文）"],
        ["How do I read a Java stack trace?", "which Caused by is the root cause"],
        ["Java 堆栈怎么看"],
    ),
    fact(
        "npe",
        [f"{ST}#Frequent exceptions and what they usually mean", f"{ST}#异常堆栈排查（中文）"],
        [
            "What does a NullPointerException usually mean?",
            "connection refused in the logs, whose fault",
        ],
        ["空指针异常一般是什么原因"],
    ),
    fact(
        "bug_ticket",
        [f"{ST}#What to put in a bug ticket", f"{ST}#异常堆栈排查（中文）"],
        ["What should I include in a bug report?", "can I paste a screenshot of the stack trace"],
        ["提缺陷要附什么"],
    ),
    # Settlement
    fact(
        "disb_collect",
        [f"{DN}#Collect first", f"{DNZ}#先确认三件事"],
        [
            "The money hasn't arrived, what info do you need?",
            "customer's payout is missing, what should I send",
        ],
        ["钱没到要提供什么信息"],
        also=[f"{GZ}#钱没到", f"{DN}#Disbursement not received", f"{DNZ}#"],
    ),
    fact(
        "disb_timing",
        [f"{DN}#Investigate", f"{DNZ}#排查步骤"],
        ["How long does a cross-bank transfer take?", "disbursement stuck processing at the bank"],
        ["跨行转账多久到账"],
    ),
    fact(
        "disb_resend",
        [f"{DN}#Never", f"{DNZ}#注意"],
        ["Can I just send the disbursement again?", "initiate the payout a second time?"],
        ["放款没到能重新发起吗"],
    ),
    fact(
        "cutoff",
        [
            f"{FS}#Clearing (清算)",
            f"{RZ}#清算",
            f"{GE}#clearing",
            f"{GE}#cut-off",
            f"{GZ}#清算",
            f"{GZ}#日切",
        ],
        ["What time is the settlement cut-off?", "when does clearing run"],
        ["日切是几点"],
    ),
    fact(
        "recon_break",
        [f"{FS}#Reconciliation (对账)", f"{RZ}#对账", f"{GE}#reconciliation", f"{GZ}#对账"],
        ["How long do we have to clear recon differences?", "deadline for reconciliation breaks"],
        ["对账差异要多久处理"],
        also=[f"{GE}#reconciliation break", f"{GZ}#对账差异"],
    ),
    fact(
        "rollover",
        [f"{FS}#Rollover (滚仓)", f"{RZ}#滚仓", f"{GE}#rollover", f"{GZ}#滚仓"],
        ["what is 滚仓", "what does rollover mean for funds"],
        ["滚仓是什么意思"],
    ),
    fact(
        "settle_contact",
        [f"{FS}#Who to ask", f"{RZ}#联系人"],
        ["Who do I ask about a single settlement transaction?"],
        ["清算工单找谁"],
        also=[f"{T}#Process a settlement work order", f"{TZ}#处理清算工单"],
    ),
    # Tickets
    fact(
        "ticket_format",
        [f"{T}#What ticket numbers look like", f"{TZ}#工单号格式"],
        [
            "What does an incident number look like?",
            "what is #10086 in chat",
            "format of change numbers",
        ],
        ["故障单号是什么格式"],
    ),
    fact(
        "ticket_autoclose",
        [f"{T}#Ticket status", f"{TZ}#工单状态"],
        ["When does a resolved ticket close automatically?", "ticket lifecycle states"],
        ["已解决的工单多久自动关闭"],
    ),
    fact(
        "urge",
        [f"{T}#Urging a ticket (催单)", f"{TZ}#催单", f"{GZ}#催单"],
        ["How often can I chase a late ticket?", "does urging raise the priority"],
        ["催单会提高优先级吗"],
    ),
    fact(
        "reopen",
        [f"{T}#Closing and reopening", f"{TZ}#关单与重开"],
        ["Can I reopen a ticket after two weeks?", "the problem came back, reopen or new ticket?"],
        ["工单关了还能重开吗"],
    ),
    fact(
        "ticket_visibility",
        [f"{T}#Checking progress", f"{TZ}#查询工单进度"],
        ["Who can see my ticket details?"],
        ["谁能看到我的工单详情"],
    ),
)
