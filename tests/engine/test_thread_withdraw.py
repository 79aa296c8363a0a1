"""A requester who takes their request back in its thread ("cancel it, not needed anymore",
"不用了，取消吧") gets it closed, as "close CHG-…" closes a named ticket; before, the words only
went on the record as a comment and the change stayed scheduled. Saying it is needed after all
reopens it, a denied cancel ("don't cancel it") is a comment, and no one but the requester
withdraws a record."""

from __future__ import annotations

from brain.conversation.turns import Conversation
from brain.engine import Brain
from core.records import Message
from tests.chat_threads import chat_thread


def _statuses(brain: Brain) -> list[str]:
    store = brain.services.tickets
    assert store is not None
    return [ticket.status for ticket in store.all()]


def test_the_requester_withdraws_a_change_and_then_needs_it_again(brain: Brain) -> None:
    replies = chat_thread(
        brain,
        "please restart the billing-api service tonight at 23:00",
        "cancel it, not needed anymore",
    )
    assert _statuses(brain) == ["closed"], replies[1].text
    assert "closed CHG-000001" in replies[1].text
    again = chat_thread(brain, "actually we do need it after all")
    assert _statuses(brain) == ["open"], again[0].text


def test_a_chinese_requester_withdraws_an_access_request(brain: Brain) -> None:
    replies = chat_thread(brain, "申请开通Jenkins的权限", "不用了，取消吧")
    assert _statuses(brain) == ["closed"], replies[1].text
    assert "已按你的要求关闭" in replies[1].text


def test_a_denied_cancel_stays_a_comment(brain: Brain) -> None:
    chat_thread(brain, "my monitor flickers", "please don't cancel it, still broken")
    assert _statuses(brain) == ["open"]


def test_only_the_requester_withdraws(brain: Brain) -> None:
    conversation = Conversation(brain, brain.conversations)
    conversation.handle(Message("please restart the billing-api service tonight", "u1", "C1", "T1"))
    conversation.handle(Message("cancel it, not needed anymore", "u2", "C1", "T1"))
    assert _statuses(brain) == ["open"]
