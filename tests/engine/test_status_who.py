""" "who is handling this?" in a ticket's thread is answered: the status says nobody has taken
the ticket yet (before, it gave the status and the last update and left the question open),
and who has once someone did."""

from __future__ import annotations

from brain.engine import Brain
from tests.chat_threads import chat_thread


def test_who_is_handling_an_open_ticket_says_nobody_yet_then_who(brain: Brain) -> None:
    replies = chat_thread(brain, "my laptop screen flickers all the time", "who is handling this?")
    assert "nobody has taken it yet" in replies[1].text, replies[1].text
    store = brain.services.tickets
    assert store is not None
    (ticket,) = store.all()
    store.claim(ticket.id, by="UHELPER1")
    (again,) = chat_thread(brain, "who is handling this?")
    assert "assigned to UHELPER1" in again.text and "nobody" not in again.text, again.text


def test_a_chinese_status_says_nobody_has_claimed_it(brain: Brain) -> None:
    replies = chat_thread(brain, "我的笔记本屏幕一直闪", "现在谁在处理？")
    assert "还没有人认领" in replies[1].text, replies[1].text
