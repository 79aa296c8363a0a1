"""What the bot says about a thread's record when a reply in the thread is read against it
(`brain.conversation`): a question about it answered, a goodbye, the problem said to be gone,
or the question whether a message is about the record at all; in the asker's language."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controllers.tickets import Ticket

__all__ = ["closing", "question_on", "solved_by_requester", "something_new", "which_record"]


def solved_by_requester(ticket_id: str, zh: bool) -> str:
    """The requester said the problem is gone: their words went on the ticket and it is
    resolved, and saying it is back reopens it."""
    if zh:
        return (
            f"太好了！我把你的消息加到了 {ticket_id}，并把它标记为已解决；"
            "如果问题再次出现，在这里回复即可重新打开。"
        )
    return (
        f"Glad it works now! I added your message to {ticket_id} and marked it resolved; "
        "if the problem comes back, reply here and it opens again."
    )


def question_on(ticket_id: str, answer: str, zh: bool) -> str:
    """A question about the thread's ticket: the knowledge base's answer on its subject (""
    when none), and the question kept on the ticket for the people working on it."""
    if zh:
        if answer:
            return f"{answer}\n（我也把你的问题加到了 {ticket_id}。）"
        return f"知识库里没有这个问题的答案；我把你的问题加到了 {ticket_id}，处理的同事会看到。"
    if answer:
        return f"{answer}\n(I also added your question to {ticket_id}.)"
    return (
        f"I have no answer to that in the knowledge base; I added your question to {ticket_id} "
        "so the people working on it see it."
    )


def closing(ticket: Ticket, zh: bool, *, thanked: bool = True) -> str:
    """A thank-you or goodbye in the thread: nothing added to the record, its state said. A
    thank-you is answered "you're welcome"; an "ok", "got it" or "see ya" is acknowledged."""
    if zh:
        state = "仍在处理中，有新情况请在这里回复" if ticket.is_open else "已经处理完毕"
        return f"{'不客气！' if thanked else '好的。'}{ticket.id} {state}。"
    state = "stays open; reply here if anything changes" if ticket.is_open else "is resolved"
    opening = "You're welcome!" if thanked else "Okay."
    return f"{opening} {ticket.id} {state}."


def which_record(ticket: Ticket, zh: bool) -> str:
    """The question when it is unclear whether a message is about the thread's record."""
    if zh:
        return f"这条消息是关于 {ticket.id}（“{ticket.title}”）的，还是一个新的请求？"
    return f"Is this about {ticket.id} (“{ticket.title}”), or something new?"


def something_new(zh: bool) -> str:
    """The choice that starts a new request instead of adding to the thread's record."""
    return "新的请求" if zh else "Something new"
