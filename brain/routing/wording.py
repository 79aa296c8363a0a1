"""What the router says in words: clarification and follow-up questions, the boundary and the
hand-off explanations, in the asker's language (English or Chinese)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from controllers.ticket_replies import field_list

if TYPE_CHECKING:
    from brain.routing.plan import Candidate


def clarification_question(candidates: Sequence[Candidate], chinese: bool) -> str:
    """A plain-words question naming the candidates by their labels."""
    labels = [c.label for c in candidates]
    if chinese:
        options = "、".join(f"“{label}”" for label in labels)
        return (
            f"我还不能确定您要处理的是哪类问题：是{options}中的哪一个？请选择一个，或回复“都不是”。"
        )
    options = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + f" or {labels[-1]}"
    return (
        f'I\'m not sure what you need. Is this about {options}? Pick one, or say "none of these".'
    )


def follow_up_question(label: str, missing: Sequence[str], chinese: bool, *, check: bool) -> str:
    """What is asked in the thread after routing: the parameters the controller still needs,
    and (`check`) whether this was the right place at all."""
    parts = []
    if chinese:
        if missing:
            needed = field_list(missing, True)
            parts.append(f"为了继续处理，“{label}”还需要：{needed}。请在此回复。")
        if check:
            parts.append(f"我已交给“{label}”处理；如果不对，请告诉我应该由谁处理。")
        return "".join(parts)
    if missing:
        parts.append(f"To go on, {label} still needs: {', '.join(missing)}. Please reply here.")
    if check:
        parts.append(f"I've passed this to {label}; if that's not right, tell me where it goes.")
    return " ".join(parts)


def escalated_explanation(chinese: bool) -> str:
    """An escalated message that no controller takes: a person does, never "outside what I
    can handle"."""
    if chinese:
        return "我已经通知值班同事，他们会在这个对话里跟进。"
    return "I've alerted the on-call team; a person will follow up in this thread."


def boundary_explanation(count: int, chinese: bool) -> str:
    """The honest answer when no controller can take the message."""
    if chinese:
        return (
            f"这超出了我目前能处理的范围：{count} 个处理模块中没有一个覆盖这个请求。"
            "您可以补充更多细节后重试，或直接联系 IT 服务台的同事。"
        )
    return (
        f"This is outside what I can handle: none of my {count} controllers covers it. "
        "You can rephrase it with more detail, or ask a person at the IT service desk."
    )
