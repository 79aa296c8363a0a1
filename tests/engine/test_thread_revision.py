"""A requester who moves what their record says ("actually make it 23:30" on a change
scheduled tonight at 23:00, "改到23:30吧") gets the record changed; before, the reply was only
added as a comment and the change kept its old window. A time told as a report ("it failed at
23:10 last time") changes nothing."""

from __future__ import annotations

from brain.engine import Brain
from tests.chat_threads import chat_thread


def _windows(brain: Brain) -> list[object]:
    store = brain.services.tickets
    assert store is not None
    return [ticket.fields.get("window") for ticket in store.all()]


def test_a_requester_moves_the_window_of_their_change(brain: Brain) -> None:
    replies = chat_thread(
        brain,
        "please restart the billing-api service tonight at 23:00",
        "actually make it 23:30",
    )
    assert _windows(brain) == ["tonight at 23:30"], replies[1].text
    assert "now the window tonight at 23:30" in replies[1].text
    reported = chat_thread(brain, "it failed at 23:10 last time too")
    assert _windows(brain) == ["tonight at 23:30"], reported[0].text


def test_a_chinese_requester_moves_the_window(brain: Brain) -> None:
    replies = chat_thread(brain, "今晚23:00重启billing-api服务", "改到23:30吧")
    assert _windows(brain) == ["今晚 23:30"], replies[1].text
    assert "已更新" in replies[1].text


def test_a_question_that_revises_sets_a_field_the_record_had_left_empty(brain: Brain) -> None:
    """ "can you make it read-only?" asks for the request to change: its role is set, where
    the question was answered "no answer in the knowledge base" and kept as a comment."""
    replies = chat_thread(
        brain, "I need access to the Grafana prod dashboards", "can you make it read-only?"
    )
    store = brain.services.tickets
    assert store is not None
    assert [t.fields.get("role") for t in store.all()] == ["read-only"], replies[1].text
    assert "now the role read-only" in replies[1].text
