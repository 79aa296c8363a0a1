"""In a session that filed a record and then had an exchange that filed nothing (an alert
diagnosed, a question answered: a DM or `brain chat` mixes topics), a follow-up goes on with
that exchange, not with the older record; a question about the record still reaches it."""

from __future__ import annotations

from brain.engine import Brain
from tests.chat_threads import chat_thread


def _comments(brain: Brain) -> list[str]:
    store = brain.services.tickets
    assert store is not None
    return [str(c["text"]) for ticket in store.all() for c in ticket.comments]


def test_news_of_an_alert_goes_with_the_alert_not_the_earlier_record(brain: Brain) -> None:
    replies = chat_thread(
        brain,
        "my monitor flickers all the time",
        "库存服务 stock-svc 报警，内存 98%",
        "扩容以后降到了 70%",
    )
    filed, alert, news = (r.decision for r in replies)
    assert filed is not None and filed.controller == "incident"
    assert alert is not None and alert.controller == "alarm"
    assert news is not None and news.controller == "alarm", news.tier_path
    assert "stock-svc" in news.text and news.text.endswith("扩容以后降到了 70%")
    assert news.request_type != "update"
    assert not any("70%" in comment for comment in _comments(brain))


def test_a_follow_up_question_goes_with_the_answered_one(brain: Brain) -> None:
    replies = chat_thread(
        brain,
        "my laptop screen is cracked",
        "how do I connect to the guest wifi?",
        "and on my phone?",
    )
    follow_up = replies[2]
    assert follow_up.kind != "clarify", follow_up.text
    assert follow_up.decision is not None and follow_up.decision.controller == "consultation"
    assert "wifi" in follow_up.decision.text
    assert not _comments(brain)


def test_a_question_about_the_record_still_reaches_it(brain: Brain) -> None:
    replies = chat_thread(
        brain,
        "my laptop screen is cracked",
        "how do I connect to the guest wifi?",
        "any update on my laptop ticket?",
    )
    filed, status = replies[0].decision, replies[2].decision
    assert filed is not None and status is not None
    [ticket] = filed.result.tickets() if filed.result else []
    assert ticket[1]["id"] in replies[2].text


def test_news_of_the_recorded_problem_after_a_question_about_it_goes_on_the_record(
    brain: Brain,
) -> None:
    replies = chat_thread(
        brain,
        "the VPN keeps disconnecting every few minutes",
        "how do I reinstall the VPN client?",
        "did that, still dropping",
    )
    news = replies[2].decision
    assert news is not None and news.request_type == "update", news.tier_path
    assert any("still dropping" in comment for comment in _comments(brain))
    store = brain.services.tickets
    assert store is not None and len(store.all()) == 1
