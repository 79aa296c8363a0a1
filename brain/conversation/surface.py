"""What the user can do on each surface, in words that surface can honour.

Slack has buttons (Right, Route elsewhere, Send to a person); `brain chat` has typed
commands and numbered answers; the one-shot CLI has other commands. Text that names an action
names the one the surface offers, in the asker's language.
"""

from __future__ import annotations

from typing import Literal

Surface = Literal["slack", "chat", "cli"]

_CHAT_HELP = (
    "Type a message and the brain routes it. When it asks, answer with a number or a "
    "controller name.\n"
    "  /why [DECISION_ID]    explain the last (or given) decision\n"
    "  /right [DECISION_ID]  confirm the last (or given) decision\n"
    "  /wrong CONTROLLER [DECISION_ID]  correct it (runs CONTROLLER)\n"
    "  /wrong                reject the last decision without a better choice\n"
    "  /resolve ROUTE-OR-PLAN [DECISION_ID]  resolve it as a person: 'this is for ticket',\n"
    "                        or what you did ('ask facilities in #facilities')\n"
    "  /solved [DECISION_ID] the resolution (or the answer) solved it\n"
    "  /forget               forget what you learned from me (and my texts)\n"
    "  /help                 this text\n"
    "  /quit                 leave"
)


def help_text(surface: Surface) -> str:
    """The commands of a typed surface."""
    return _CHAT_HELP


def no_question_pending(surface: Surface, zh: bool) -> str:
    """A bare pick ("2") typed when no question is waiting for one."""
    if zh:
        return "现在没有等待回答的问题，所以这个编号没有对应的选项。请直接描述你的问题或需求。"
    return (
        "No question is waiting for an answer, so there is nothing to pick. "
        "Describe what you need in words."
    )


def hand_off_hint(surface: Surface, zh: bool) -> str:
    """How a person is reached from this surface."""
    if surface == "slack":
        return "点击“转人工”请值班同事处理。" if zh else 'Press "Send to a person" for on-call.'
    if surface == "chat":
        return (
            "输入“我要找人工”即可转给值班同事。"
            if zh
            else 'Type "I need a person" and on-call takes it over.'
        )
    return (
        "在 Slack 或 brain chat 里说“我要找人工”即可转给值班同事。"
        if zh
        else 'Ask for a person in Slack or `brain chat` ("I need a person") and on-call takes it.'
    )
