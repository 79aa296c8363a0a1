"""What the ticket controller and request filing say, in the asker's language.

The brain's own texts (headline, labels, clarifications) follow the asker's language through
`core.text.language.is_chinese`; the replies of the ticket work (status, not found, filed,
updated, a field still needed) follow the same rule, so a Chinese asker does not get an English
sentence in the middle of a Chinese reply. Ids, titles, values and names are data and are shown
as written. Each text is one small function taking `zh`, so English and Chinese stay side by
side and a missing translation is a visible gap, not a silent mix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from controllers.ticket_times import answer_promise, moment
from core.text.language import is_chinese

if TYPE_CHECKING:
    from datetime import datetime

    from controllers.base import ControllerContext
    from controllers.tickets import Ticket
    from core.teams import AnswerPromise

__all__ = [
    "NOT_FOUND_ADVICE",
    "asks_comment",
    "chinese",
    "field_list",
    "filed",
    "kind_label",
    "listing",
    "no_open_tickets",
    "no_store",
    "not_filed",
    "not_found",
    "not_updated",
    "own_open",
    "resolved_alert",
    "security_advice",
    "state_problem",
    "status_label",
    "ticket_done",
    "updated",
    "updated_named",
    "upstream_added",
    "which_ticket",
]

#: Said after "ticket X was not found": the brain looked it up and filed nothing new.
NOT_FOUND_ADVICE = (
    "I did not file a new one: check the number, or describe the problem to open a ticket."
)
_NOT_FOUND_ADVICE_ZH = "我没有新建工单：请核对单号，或描述问题以新建工单。"

_STATUS_ZH = {
    "open": "待处理",
    "awaiting_info": "等待补充信息",
    "in_progress": "处理中",
    "resolved": "已解决",
    "closed": "已关闭",
}
#: Ticket kinds and the labels request controllers file under.
_KIND_ZH = {
    "ticket": "工单",
    "incident": "故障单",
    "access": "权限申请",
    "access request": "权限申请",
    "change": "变更单",
    "standard change": "标准变更单",
    "normal change": "普通变更单",
    "emergency change": "紧急变更单",
    "equipment": "设备申请",
    "equipment request": "设备申请",
}
_FIELD_ZH = {
    "ticket_id": "工单号",
    "comment": "备注内容",
    "category": "类别",
    "system": "系统",
    "service": "服务",
    "window": "变更窗口",
    "error_code": "错误码",
    "host": "主机",
    "asset_tag": "资产编号",
    "request_type": "申请类型",
    "role": "角色",
    "account": "账号",
    "change_type": "变更类型",
    "operation": "操作",
    "version": "版本",
    "related_ticket": "关联工单",
    "item": "设备",
    "quantity": "数量",
    "for": "使用人",
    "deliver_to": "送达地点",
}
_ACTION_ZH = {
    "close": "关闭",
    "reopen": "重新打开",
    "urge": "催办",
    "comment": "备注",
    "process": "处理",
    "status": "查询",
    "list": "列出",
    "search": "搜索",
}


def chinese(context: ControllerContext) -> bool:
    """Reply in Chinese to this asker?"""
    return is_chinese(context.text)


def _status(status: str, zh: bool) -> str:
    return _STATUS_ZH.get(status, status) if zh else status.replace("_", " ")


#: A ticket status in the reply's language ("open" / "待处理").
status_label = _status


def kind_label(label: str, zh: bool) -> str:
    """A ticket kind or filing label ("incident", "normal change") in the reply's language."""
    return _KIND_ZH.get(label.lower(), label) if zh else label


def _fields(names: Sequence[str], zh: bool) -> str:
    """Field names in the reply's language, joined ("类别、系统" / "category, system")."""
    return "、".join(_FIELD_ZH.get(n, n) for n in names) if zh else ", ".join(names)


field_list = _fields


#: The values a controller writes itself (codes, not the user's words), in Chinese.
_VALUE_ZH = {
    "permission": "权限",
    "disable": "停用账号",
    "unlock": "解锁账号",
    "password_reset": "重置密码",
    "mfa": "多因素认证",
    "install": "安装软件",
    "licence": "软件许可",
    "new_account": "新建账号",
    "standard": "标准",
    "normal": "普通",
    "emergency": "紧急",
    "hardware": "硬件",
    "software": "软件",
    "network": "网络",
    "email": "邮件",
    "printer": "打印机",
    "phone": "电话",
    "security": "安全",
    "domain account (AD)": "域账号（AD）",
    "immediately": "立即",
}


def _shown(values: Mapping[str, Any], zh: bool) -> str:
    if zh:
        return "，".join(
            f"{_FIELD_ZH.get(k, k)}：{_VALUE_ZH.get(str(v), v)}" for k, v in values.items()
        )
    return ", ".join(f"{k}: {v}" for k, v in values.items())


# -- the ticket controller ------------------------------------------------------------------
def no_store(zh: bool, *, filing: bool = False) -> str:
    if zh:
        return "没有配置工单库，未提交任何工单。" if filing else "没有配置工单库。"
    return (
        "No ticket store is configured; nothing filed."
        if filing
        else ("No ticket store is configured.")
    )


def not_found(ticket_id: str, zh: bool) -> str:
    if zh:
        return f"没有找到工单 {ticket_id}。{_NOT_FOUND_ADVICE_ZH}"
    return f"Ticket {ticket_id} was not found. {NOT_FOUND_ADVICE}"


def state_problem(action: str, ticket_id: str, english: str, zh: bool) -> str:
    """A ticket in the wrong state for `action` (`english`: the store's own sentence)."""
    if not zh:
        return english
    if action == "close":
        return f"工单 {ticket_id} 已经关闭。"
    if action == "reopen":
        return f"工单 {ticket_id} 没有关闭，不需要重新打开。"
    return f"工单 {ticket_id} 已关闭，请先重新打开。"


def asks_comment(ticket_id: str, zh: bool) -> str:
    return f"{ticket_id} 的备注要写什么？" if zh else f"What should the comment on {ticket_id} say?"


def upstream_added(source: str, ticket_id: str, zh: bool) -> str:
    if zh:
        return f"已把 {source} 的结果作为备注加到 {ticket_id}。"
    return f"Added the {source} result to {ticket_id} as a comment."


def listing(tickets: Sequence[Ticket], zh: bool) -> str:
    """Tickets as "id “title” (status)", joined."""
    if zh:
        return "；".join(f"{t.id}“{t.title}”（{_status(t.status, zh)}）" for t in tickets)
    return "; ".join(f"{t.id} “{t.title}” ({_status(t.status, zh)})" for t in tickets)


def no_open_tickets(zh: bool) -> str:
    return "你目前没有未关闭的工单。" if zh else "You have no open tickets in the ticket store."


def own_open(tickets: Sequence[Ticket], total: int, zh: bool, *, counted: bool = True) -> str:
    """The requester's open tickets (the first ones of `total`)."""
    more = total - len(tickets)
    if zh:
        extra = f"（另有 {more} 个）" if more > 0 else ""
        count = f"（{total} 个）" if counted else ""
        return f"你的未关闭工单{count}：{listing(tickets, zh)}{extra}。"
    extra = f" (and {more} more)" if more > 0 else ""
    count = f" ({total})" if counted else ""
    return f"Your open tickets{count}: {listing(tickets, zh)}{extra}."


def search_results(topic: str, tickets: Sequence[Ticket], zh: bool) -> str:
    """What a ticket search found (the asker's tickets, closed ones too), or that none matched."""
    if not tickets:
        if zh:
            return f"你的工单里没有与“{topic}”相关的。"
        return f"None of your tickets is about “{topic}”."
    if zh:
        return f"与“{topic}”相关的工单：{listing(tickets, zh)}。"
    return f"Your tickets about “{topic}”: {listing(tickets, zh)}."


def which_ticket(action: str | None, tickets: Sequence[Ticket], zh: bool) -> str:
    """Ask for the ticket: with no open tickets, for its number; else which of them."""
    if not tickets or action is None:
        if zh:
            return "是哪张工单？请提供单号（例如 INC-000123 或 19 位工单号）。"
        return (
            "Which ticket? Please give its number (e.g. INC-000123 or a 19-digit "
            "work-order number)."
        )
    if zh:
        return (
            f"要{_ACTION_ZH.get(action, action)}哪张工单？你的未关闭工单：{listing(tickets, zh)}。"
        )
    return f"Which ticket should I {action}? Your open tickets: {listing(tickets, zh)}."


def ticket_done(
    action: str,
    ticket: Ticket,
    zh: bool,
    *,
    promise: AnswerPromise | None = None,
    now: datetime | None = None,
) -> str:
    """What was done to `ticket`, or its status for a look-up (with `promise`: when its
    team aims to answer it)."""
    waiting = answer_promise(promise, now, zh) if action == "status" else ""
    if zh:
        return _done_zh(action, ticket, waiting)
    head = f"{ticket.id} ({ticket.kind}, “{ticket.title}”)"
    if action == "close":
        return f"Closed {head}."
    if action == "reopen":
        return f"Reopened {head}; it is open again."
    if action == "urge":
        times = "once" if ticket.urge_count == 1 else f"{ticket.urge_count} times"
        return f"Urged {head}: chased {times} so far; status {ticket.status}."
    if action == "process":
        return f"{head} is now in progress, assigned to {ticket.assignee}."
    if action == "comment":
        return f"Added your comment to {head}."
    parts = [f"{head} is {_status(ticket.status, zh)}"]
    if ticket.assignee:
        parts.append(f"assigned to {ticket.assignee}")
    if waiting:
        parts.append(waiting)
    parts.append(f"last updated {moment(ticket.updated_at)}")
    if ticket.urge_count:
        parts.append(f"urged {ticket.urge_count}×")
    if ticket.comments:
        last = ticket.comments[-1]
        parts.append(f"latest comment by {last['by']}: {last['text'][:160]}")
    return "; ".join(parts) + "."


def _done_zh(action: str, ticket: Ticket, waiting: str = "") -> str:
    head = f"{ticket.id}（{kind_label(ticket.kind, True)}，“{ticket.title}”）"
    status = _status(ticket.status, True)
    if action == "close":
        return f"已关闭 {head}。"
    if action == "reopen":
        return f"已重新打开 {head}，工单重新处于打开状态。"
    if action == "urge":
        return f"已催办 {head}：目前共催办 {ticket.urge_count} 次；状态：{status}。"
    if action == "process":
        return f"{head} 已开始处理，处理人：{ticket.assignee}。"
    if action == "comment":
        return f"已把你的备注加到 {head}。"
    parts = [f"{head} 状态：{status}"]
    if ticket.assignee:
        parts.append(f"处理人：{ticket.assignee}")
    if waiting:
        parts.append(waiting)
    parts.append(f"最近更新：{moment(ticket.updated_at)}")
    if ticket.urge_count:
        parts.append(f"已催办 {ticket.urge_count} 次")
    if ticket.comments:
        last = ticket.comments[-1]
        parts.append(f"最新备注（{last['by']}）：{last['text'][:160]}")
    return "；".join(parts) + "。"


# -- filing requests (controllers.requests) ---------------------------------------------------
def not_filed(label: str, error: object, zh: bool) -> str:
    if zh:
        return f"{kind_label(label, zh)}提交失败：{error}。"
    return f"The {label} could not be filed: {error}."


def _still_needed(missing: Sequence[str], zh: bool) -> str:
    if not missing:
        return ""
    if zh:
        return f"还需要你提供：{_fields(missing, zh)}。"
    return f" To proceed I still need: {_fields(missing, zh)}."


def one_of(name: str, values: Sequence[str], zh: bool) -> str:
    """The values a field may take, after asking for it ("" when any value is one)."""
    if not values:
        return ""
    if zh:
        shown = "、".join(str(_VALUE_ZH.get(v, v)) for v in values)
        return f"{_FIELD_ZH.get(name, name)}可选：{shown}。"
    return f" The {name.replace('_', ' ')} is one of: {', '.join(values)}."


def filed(
    label: str, ticket_id: str, values: Mapping[str, Any], missing: Sequence[str], zh: bool
) -> str:
    """A new ticket was filed (and what it still needs)."""
    if zh:
        shown = f"（{_shown(values, zh)}）" if values else ""
        return f"已提交{kind_label(label, zh)} {ticket_id}{shown}。{_still_needed(missing, zh)}"
    shown = f" ({_shown(values, zh)})" if values else ""
    return f"Filed {label} {ticket_id}{shown}.{_still_needed(missing, zh)}"


def updated(
    label: str, ticket_id: str, values: Mapping[str, Any], missing: Sequence[str], zh: bool
) -> str:
    """A waiting ticket took this follow-up: still waiting, or complete and open."""
    if zh:
        verb = "已更新" if missing else "已补全"
        shown = f"（{_shown(values, zh)}）" if values else ""
        rest = _still_needed(missing, zh) or "信息已齐全，工单已打开。"
        return f"{verb}{kind_label(label, zh)} {ticket_id}{shown}。{rest}"
    verb = "Updated" if missing else "Completed"
    shown = f" ({_shown(values, zh)})" if values else ""
    rest = _still_needed(missing, zh) or " It has everything it needs and is open."
    return f"{verb} {label} {ticket_id}{shown}.{rest}"


def not_updated(label: str, ticket_id: str, error: object, zh: bool) -> str:
    if zh:
        return f"{kind_label(label, zh)} {ticket_id} 未能更新：{error}。"
    return f"The {label} {ticket_id} was not updated: {error}."


def updated_named(label: str, ticket: Ticket, zh: bool) -> str:
    """The message went onto the open ticket it names instead of a second one."""
    if zh:
        return (
            f"{ticket.id}（“{ticket.title}”）已经是打开状态：我把你的消息加到了这张工单上，"
            f"没有新建{kind_label(label, zh)}。"
        )
    return (
        f"{ticket.id} (“{ticket.title}”) is already open: I added your message to it "
        f"instead of filing a new {label}."
    )


def resolved_alert(zh: bool) -> str:
    """Said instead of filing when the diagnosed alerts have all resolved."""
    if zh:
        return "告警已恢复，没有新建故障单；如果问题再次出现，请在这里回复。"
    return "The alerts have resolved, so no incident was filed; reply here if it comes back."


def security_advice(zh: bool) -> str:
    """Appended to a filed security incident (on-call is paged)."""
    if zh:
        return "安全事件已通知值班人员：请先断开网络，在他们联系你之前不要在其他地方登录。"
    return (
        " Security incidents go to on-call now: disconnect from the network and do not log in "
        "anywhere else until they contact you."
    )


#: Shorter ways people name a field when they answer for it ("窗口定在周六早上", "时间定在明晚").
_FIELD_SAID: Mapping[str, tuple[str, ...]] = {
    "window": ("窗口", "时间", "time slot"),
    "category": ("分类", "类型"),
    "account": (
        "username",
        "user name",
        "user id",
        "login",
        "用户名",
        "帐号",
        "账户",
        "帳號",
        "登录名",
    ),
}


def field_names(name: str) -> tuple[str, ...]:
    """The ways a user may name a ticket field ("category", "类别"), for reading answers."""
    spoken = name.replace("_", " ")
    return tuple(
        dict.fromkeys([name, spoken, _FIELD_ZH.get(name, name), *_FIELD_SAID.get(name, ())])
    )


def added_to(ticket_id: str, values: Mapping[str, Any], zh: bool, *, reopened: bool) -> str:
    """A follow-up in the thread went onto the thread's ticket (no second ticket)."""
    if zh:
        what = f"把{_shown(values, zh)}补充到了" if values else "把你的消息加到了"
        again = "它已关闭，现已重新打开。" if reopened else "没有新建工单。"
        return f"我{what} {ticket_id}：{again}"
    named = ", ".join(f"the {k.replace('_', ' ')} {v}" for k, v in values.items())
    what = f"added {named} to" if values else "added your message to"
    again = " It was closed and is open again." if reopened else " No new ticket was filed."
    return f"I {what} {ticket_id}.{again}"


def still_needed(missing: Sequence[str], zh: bool) -> str:
    """The sentence asking for the fields a ticket still needs ("" when none)."""
    return _still_needed(missing, zh)
