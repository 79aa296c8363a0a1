"""What the Slack app itself says to an asker (buttons, menus, the on-call notes), in English
and Chinese, as data: one table, so that a reply in Chinese does not carry English controls
and a new phrase is added in both languages at once. The brain's own replies are worded in
the brain (`brain.routing.wording`); this is only the adapter's chrome. Staff-facing text (the
on-call alert, the resolve prompt) stays in English."""

from __future__ import annotations

from core.records import Decision

#: key -> (English, Chinese); `{name}` fields are filled by `say`.
PHRASES: dict[str, tuple[str, str]] = {
    "right": ("Right", "对，就是这个"),
    "solved": ("This solved it", "问题已解决"),
    "person": ("Send to a person", "转人工处理"),
    "route_elsewhere": ("Route elsewhere", "转给其他处理方"),
    # After a 👎: say why it was wrong (a modal), recorded with the rejection.
    "say_why": ("Say why", "说明原因"),
    "why_title": ("What was wrong?", "哪里不对？"),
    "why_label": ("Why was this answer wrong?", "这个回答为什么不对？"),
    "why_hint": (
        "e.g. it's an order for new equipment, not a fault",
        "例如：这是申请新设备，不是故障",
    ),
    "why_submit": ("Send", "提交"),
    "why_skip": ("Skip", "跳过"),
    "why_noted": ("Thanks, I noted why this was wrong.", "谢谢，已记下原因。"),
    "send_team": ("Send to team {team}", "转给 {team} 团队"),
    "ticket_resolve": ("Resolve", "标记为已解决"),
    "ticket_reopen": ("Reopen", "重新打开"),
    # A team's daily digest (`bot.helpdesk.digest`), in the team's language.
    "digest": (
        "📊 Team {team}, the last 24 hours: {filed} ticket(s) filed, {open} still open, "
        "{resolved} resolved (mean time to resolve {mttr}), {breaches} past the SLA; "
        "{messages} message(s) routed to the team, {first_touch} right at first touch.",
        "📊 {team} 团队过去 24 小时：新建工单 {filed} 个，仍未关闭 {open} 个，已解决 {resolved} 个"
        "（平均解决时长 {mttr}），超出 SLA {breaches} 个；路由到本团队的消息 {messages} 条，"
        "首次路由正确率 {first_touch}。",
    ),
    "digest_hours": ("{hours} h", "{hours} 小时"),
    "digest_none": ("none", "无"),
    "ticket_claim": ("Claim", "认领"),
    "hand_to_team": ("Hand to team", "转交团队"),
    "urgent": ("This looks urgent", "这个问题看起来很紧急"),
    "asked_person": ("You asked for a person", "您要求转人工处理"),
    "paged": (
        "{lead}: I escalated it to on-call in <#{channel}>.",
        "{lead}，我已通知 <#{channel}> 的值班人员。",
    ),
    "not_paged": (
        "{lead}, but no on-call channel is configured, so nobody was paged. Please contact "
        "on-call directly (admins: set BRAIN_ONCALL_CHANNEL).",
        "{lead}，但还没有配置值班频道，所以没有通知到任何人。请直接联系值班人员"
        "（管理员：请设置 BRAIN_ONCALL_CHANNEL）。",
    ),
    # What replaces a clicked reply's buttons, and the notes after a click, in the asker's
    # thread (`user` is a Slack mention).
    "confirmed_by": ("✅ confirmed by {user}", "✅ {user} 已确认"),
    "handed_by": ("🙋 handed to a person by {user}", "🙋 {user} 已转人工处理"),
    "rerouted_by": ("↪ rerouted to {label} by {user}", "↪ {user} 已改派给 {label}"),
    "routed_by": ("↪ routed to {label} by {user}", "↪ {user} 已选择 {label}"),
    "none_by": ("✋ none of these, said {user}", "✋ {user} 表示都不是"),
    "solved_by": ("✅ solved, said {user}", "✅ {user} 表示问题已解决"),
    "sent_team_by": ("🙋 sent to team {team} by {user}", "🙋 {user} 已转给 {team} 团队"),
    "sent_team": (
        "I sent it to team {team} in <#{channel}>; a person there will resolve it.",
        "我已把它转给 <#{channel}> 的 {team} 团队，那里会有人处理。",
    ),
    "no_team_channel": (
        "Team {team} has no channel configured, so nothing was sent.",
        "{team} 团队还没有配置频道，所以没有发送。",
    ),
    "resolved_told": (
        "{by} resolved this: {headline}. Did it solve it?",
        "{by} 已处理：{headline}。问题解决了吗？",
    ),
}


def say(key: str, chinese: bool, **fields: str) -> str:
    """The phrase `key` in the asker's language, its fields filled."""
    english, chinese_text = PHRASES[key]
    return (chinese_text if chinese else english).format(**fields)


def in_chinese(decision: Decision | None) -> bool:
    """Whether the asker of `decision` is told things in Chinese (its message's language;
    English when there is no decision, e.g. an error reply)."""
    return decision is not None and decision.in_chinese
