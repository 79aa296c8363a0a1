"""What the Slack app itself says to an asker (buttons, menus, the on-call notes), in English
and Chinese, as data: one table, so that a reply in Chinese does not carry English controls
and a new phrase is added in both languages at once. The brain's own replies are worded in
the brain (`brain.routing.wording`); this is only the adapter's chrome. Staff-facing text (the
on-call alert, the resolve prompt) stays in English."""

from __future__ import annotations

#: key -> (English, Chinese); `{name}` fields are filled by `say`.
PHRASES: dict[str, tuple[str, str]] = {
    "right": ("Right", "对，就是这个"),
    "solved": ("This solved it", "问题已解决"),
    "person": ("Send to a person", "转人工处理"),
    "route_elsewhere": ("Route elsewhere", "转给其他处理方"),
    "send_team": ("Send to team {team}", "转给 {team} 团队"),
    "ticket_resolve": ("Resolve", "标记为已解决"),
    "ticket_reopen": ("Reopen", "重新打开"),
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
}


def say(key: str, chinese: bool, **fields: str) -> str:
    """The phrase `key` in the asker's language, its fields filled."""
    english, chinese_text = PHRASES[key]
    return (chinese_text if chinese else english).format(**fields)
