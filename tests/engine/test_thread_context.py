"""Context added to a filed record in its thread, through `brain chat`'s loop: the make and
version of what is broken, where it is, who is hit. The continuation model learned these from
the context details of its training set (`scripts/continuation_context.py`); before, it read
them as new work, asked which record they were about, or filed a second record."""

from __future__ import annotations

import pytest

from brain.conversation.turns import Conversation
from brain.engine import Brain
from cli.chat_session import chat_loop


def _chat(brain: Brain, *lines: str) -> list[str]:
    """Each turn's printed reply, through the terminal loop of `brain chat`."""
    out: list[str] = []
    chat_loop(Conversation(brain, brain.conversations), lines, out.append)
    return out[1:-1]


@pytest.mark.parametrize(
    ("report", "context", "added"),
    [
        (
            "the Outlook add-in for Salesforce won't load",
            "happens on the 2.3 plugin, Office build 2402",
            "I added your message to INC-000001",
        ),
        ("显示器一直闪", "型号是戴尔 U2720Q，接的是扩展坞", "我把你的消息加到了 INC-000001"),
        ("我的屏幕坏了", "一闪一闪然后就黑了", "我把你的消息加到了 INC-000001"),
    ],
)
def test_context_added_to_a_report_goes_on_its_record(
    brain: Brain, report: str, context: str, added: str
) -> None:
    replies = _chat(brain, report, context)
    store = brain.services.tickets
    assert store is not None
    [ticket] = store.all()
    assert added in replies[1]
    assert context in [c["text"] for c in ticket.comments]


def test_a_detail_in_the_thread_never_files_a_second_record(brain: Brain) -> None:
    """Unsure, the bot may ask which record a detail is about; it never files another."""
    _chat(brain, "my laptop screen keeps flickering", "model is an HP ZBook, running Windows 10")
    assert len(brain.services.tickets.all()) == 1  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("request_text", "reply", "said"),
    [
        (
            "please schedule the certificate renewal on the API gateway",
            "we'd prefer Thursday 20:00 to 21:00",
            "Thursday",
        ),
        ("帮我安排一次证书更新的变更", "窗口定在下周二晚上 9 点到 10 点", "周二"),
    ],
)
def test_a_reply_giving_the_second_field_asked_for_fills_that_field(
    brain: Brain, request_text: str, reply: str, said: str
) -> None:
    """Asked for a service and a window, a reply that gives a time is the window, not the
    service."""
    replies = _chat(brain, request_text, reply)
    store = brain.services.tickets
    assert store is not None
    [ticket] = store.all()
    assert "window" in replies[0] or "窗口" in replies[0]
    assert said in str(ticket.fields.get("window", ""))
    assert said not in str(ticket.fields.get("service", ""))


@pytest.mark.parametrize(
    ("request_text", "reply", "said", "still"),
    [
        (
            "please schedule a standard change for this week",
            "the window is tonight 22:00-23:00",
            "tonight",
            "still need: service",
        ),
        ("帮我安排一个标准变更，这周做", "窗口是今晚十点到十一点", "今晚", "还需要你提供：服务"),
    ],
)
def test_a_reply_naming_another_field_than_the_one_asked_gives_that_field(
    brain: Brain, request_text: str, reply: str, said: str, still: str
) -> None:
    """Asked for the service, a reply that names the window gives the window; taken whole as
    the answer, "window is tonight 22:00-23:00" was stored as the change's service and the
    service was never asked again."""
    replies = _chat(brain, request_text, reply)
    store = brain.services.tickets
    assert store is not None
    [ticket] = store.all()
    assert said in str(ticket.fields.get("window", ""))
    assert not ticket.fields.get("service")
    assert still in replies[1]


def test_a_retry_report_on_an_account_problem_files_nothing_new(brain: Brain) -> None:
    """What a user tried on a password problem and that it did not help is a report on the
    thread's record (the set's retries were on incidents only), not a new password reset."""
    replies = _chat(
        brain,
        "my VPN password expired and I can't log in",
        "set a new password, the portal still rejects it",
    )
    assert "I added your message to" in replies[1]
    assert "Filed" not in replies[1]


def test_an_unsure_answer_the_controller_reads_as_the_asked_field_fills_it(brain: Brain) -> None:
    """The model, unsure, reads the reply likeliest as an answer, and the change controller
    reads a window in it: the window is filled, nothing is asked back."""
    replies = _chat(
        brain, "想申请一个测试环境的变更，把 nginx 升级到 1.25", "窗口就周六上午 9 点到 10 点吧"
    )
    store = brain.services.tickets
    assert store is not None
    [ticket] = store.all()
    assert "还是一个新的请求" not in replies[1]
    assert "周六" in str(ticket.fields.get("window", ""))


@pytest.mark.parametrize(
    ("request_text", "named", "field", "value"),
    [
        (
            "please restart the staging redis cluster tomorrow night",
            "service is redis-cache-eu2",
            "service",
            "redis-cache-eu2",
        ),
    ],
)
def test_a_reply_naming_a_field_of_the_record_updates_it(
    brain: Brain, request_text: str, named: str, field: str, value: str
) -> None:
    """Unsure, the model may ask; a reply that names a field of the record with a value the
    controller reads too ("service is …") corrects the record instead."""
    replies = _chat(brain, request_text, named)
    store = brain.services.tickets
    assert store is not None
    [ticket] = store.all()
    assert "or something new" not in replies[1]
    assert ticket.fields.get(field) == value


@pytest.mark.parametrize(
    ("report", "follow_up"),
    [
        ("打印机打不出来东西", "我已经把墨盒重新装了一遍"),
        ("视频会议的时候摄像头黑屏", "是外接的罗技摄像头，USB的"),
        (
            "my webcam shows a black picture in video calls",
            "I already reinstalled the driver twice",
        ),
    ],
)
def test_what_was_tried_or_left_unsaid_goes_on_the_record_unmarked(
    brain: Brain, report: str, follow_up: str
) -> None:
    """A follow-up with no "still" or "also" and none of the report's words (what the user
    tried, the make of the device) continues the report; the model learned it from threads of
    many topics (`scripts/continuation_progress.py`), not from these words."""
    replies = _chat(brain, report, follow_up)
    store = brain.services.tickets
    assert store is not None
    [ticket] = store.all()
    assert follow_up in [c["text"] for c in ticket.comments], replies[1]


def test_more_detail_while_the_bot_asks_which_controller_is_decided_with_the_waiting_request(
    brain: Brain,
) -> None:
    """Asked which controller should take a report, the user goes on describing it instead of
    picking: the detail is decided together with the waiting report, one record filed from both
    (alone, "still slow" lost its subject and was filed as a network incident)."""
    # "订单服务超时" (the order service timing out) is a failure for all in the matrix, which
    # the escalation model may page (p 0.01-0.10 against a bar of 0.02), and a page is
    # never asked back: a slow service is asked about. (A longer report, "数据库那边的慢查询突然
    # 飙升了，订单服务有点慢", is filed at once when the routing model reads Chinese through the
    # multilingual encoder.)
    replies = _chat(brain, "接口响应变慢了", "还是很慢，重启了连接池也没用")
    assert "哪一个" in replies[0]
    store = brain.services.tickets
    assert store is not None
    [ticket] = store.all()
    described = " ".join(str(v) for v in (ticket.title, *ticket.fields.values()))
    assert "接口" in described and "连接池" in described, replies[1]


def test_a_detail_the_chain_cannot_place_alone_while_it_asks_is_decided_with_the_request(
    brain: Brain,
) -> None:
    """The model leans new on "一闪一闪然后就黑了" after "屏幕有问题", but alone it names
    nothing to route (it fell back: "none of my controllers covers it"); with the waiting
    report it is one record. Joined, the two name no keyword or entity, and the report was
    asked about again with other choices, though the calibrated confidence in an incident was
    on the fast path: the recognised hardware-fault intent is evidence, so the joined report
    is not vague. ("我的屏幕坏了" and "我的显示器坏了" were asked about too; they are filed at
    once now, and the detail goes on their record.)"""
    replies = _chat(brain, "屏幕有问题", "一闪一闪然后就黑了")
    assert "哪一个" in replies[0]
    store = brain.services.tickets
    assert store is not None
    [ticket] = store.all()
    described = " ".join(str(v) for v in (ticket.title, *ticket.fields.values()))
    assert "屏幕" in described and "一闪" in described, replies[1]
