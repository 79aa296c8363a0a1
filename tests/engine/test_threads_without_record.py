"""A thread whose first exchange filed nothing (an alert diagnosed, code explained, a question
answered) keeps its subject: a follow-up is decided with the message that opened the thread,
a thank-you is answered in kind, and a new problem is still decided alone."""

from __future__ import annotations

import re

from brain.engine import Brain
from tests.chat_threads import chat_thread


def test_news_of_an_alert_is_decided_with_the_alert(brain: Brain) -> None:
    replies = chat_thread(brain, "库存服务 stock-svc 报警，内存 98%", "扩容以后降到了 70%")
    first, news = (r.decision for r in replies)
    assert first is not None and first.controller == "alarm"
    assert news is not None and news.outcome == "routed" and news.controller == "alarm"
    assert "stock-svc" in news.text and news.text.endswith("扩容以后降到了 70%")
    assert "我还不能确定" not in replies[1].text


def test_thanks_after_code_help_is_answered_in_kind(brain: Brain) -> None:
    replies = chat_thread(
        brain, "how can I read a CSV file with pandas in python?", "thanks, that did it"
    )
    assert replies[0].decision is not None and replies[0].decision.controller == "coding"
    assert "welcome" in replies[1].text
    assert replies[1].kind != "clarify" and not replies[1].choices


def test_a_new_problem_after_an_answer_is_decided_alone(brain: Brain) -> None:
    replies = chat_thread(
        brain, "how do I connect to the guest wifi?", "my laptop screen is cracked"
    )
    decision = replies[1].decision
    assert decision is not None and decision.text == "my laptop screen is cracked"
    store = brain.services.tickets
    assert store is not None
    [ticket] = store.all()
    assert "wifi" not in str(ticket.fields.get("description", "")).lower()


def test_a_closing_in_a_chinese_thread_is_answered_in_chinese(brain: Brain) -> None:
    replies = chat_thread(brain, "怎么用 python 读取 CSV 文件？", "ok")
    assert replies[1].kind != "clarify"
    assert re.search(r"[\u4e00-\u9fff]", replies[1].text), replies[1].text


def test_a_follow_up_in_another_language_stands_alone(brain: Brain) -> None:
    """Joined to a Chinese alert, an English update would be answered in Chinese."""
    replies = chat_thread(
        brain, "库存服务 stock-svc 报警，内存 98%", "restarted the worker, it is at 70% now"
    )
    decision = replies[1].decision
    assert decision is not None and decision.text == "restarted the worker, it is at 70% now"
    assert not re.search(r"[\u4e00-\u9fff]", replies[1].text), replies[1].text
