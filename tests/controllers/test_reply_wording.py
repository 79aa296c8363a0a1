"""Replies that no other test reads word for word, pinned in both languages, so moving their
wording (into the `core.wording` catalogs) or rewording one is a visible change.

Each is what the asker reads: a thread's record spoken about, an asset looked up, a learned
note passed on."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from controllers import thread_replies
from controllers.base import ControllerContext, ControllerServices
from controllers.builtin.alarm import AlarmController
from controllers.evolved import EvolvedController
from controllers.references import look_up
from core.stores.records import Ticket

ContextFactory = Callable[..., ControllerContext]

OPEN = Ticket(id="INC-000123", kind="incident", title="VPN down", requester="U024BE7LH")
DONE = Ticket(id="INC-000124", kind="incident", title="VPN down", requester="U", status="closed")


@pytest.mark.parametrize(
    ("zh", "said"),
    [
        (
            False,
            [
                "Glad it works now! I added your message to INC-000123 and marked it resolved; "
                "if the problem comes back, reply here and it opens again.",
                "Reset it in the portal.\n(I also added your question to INC-000123.)",
                "I have no answer to that in the knowledge base; I added your question to "
                "INC-000123 so the people working on it see it.",
                "You're welcome! INC-000123 stays open; reply here if anything changes.",
                "Okay. INC-000124 is resolved.",
                "Is this about INC-000123 (“VPN down”), or something new?",
                "Something new",
            ],
        ),
        (
            True,
            [
                "太好了！我把你的消息加到了 INC-000123，并把它标记为已解决；"
                "如果问题再次出现，在这里回复即可重新打开。",
                "Reset it in the portal.\n（我也把你的问题加到了 INC-000123。）",
                "知识库里没有这个问题的答案；我把你的问题加到了 INC-000123，处理的同事会看到。",
                "不客气！INC-000123 仍在处理中，有新情况请在这里回复。",
                "好的。INC-000124 已经处理完毕。",
                "这条消息是关于 INC-000123（“VPN down”）的，还是一个新的请求？",
                "新的请求",
            ],
        ),
    ],
)
def test_what_is_said_about_a_threads_record(zh: bool, said: list[str]) -> None:
    assert [
        thread_replies.solved_by_requester(OPEN.id, zh),
        thread_replies.question_on(OPEN.id, "Reset it in the portal.", zh),
        thread_replies.question_on(OPEN.id, "", zh),
        thread_replies.closing(OPEN, zh),
        thread_replies.closing(DONE, zh, thanked=False),
        thread_replies.which_record(OPEN, zh),
        thread_replies.something_new(zh),
    ] == said


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "please check LT-20977",
            "Tickets that name the asset LT-20977: INC-000001 (incident, in progress). "
            "No ticket names the host web-03; I created nothing.",
        ),
        (
            "帮我查一下 LT-20977",
            "提到资产 LT-20977 的工单：INC-000001（故障单，处理中）。 "
            "没有工单提到主机 web-03；我没有新建任何记录。",
        ),
    ],
)
def test_what_a_look_up_of_named_things_says(
    make_context: ContextFactory, services: ControllerServices, text: str, said: str
) -> None:
    assert services.tickets is not None
    services.tickets.create(
        "incident", title="LT-20977 screen flickers", requester="U024BE7LH", ticket_id="INC-000001"
    )
    services.tickets.take("INC-000001", by="U0OPS")
    things = [("asset_tag", "LT-20977"), ("host", "web-03")]
    assert look_up(make_context(text), things).summary == said


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "the coffee machine is broken",
            "People who solved requests like this said: ask #facilities",
        ),
        ("咖啡机坏了", "此前处理过类似请求的同事说：ask #facilities"),
    ],
)
def test_a_learned_note_is_passed_on(make_context: ContextFactory, text: str, said: str) -> None:
    learned = EvolvedController(
        name="facilities_note", description="coffee machine", replays={"note": "ask #facilities"}
    )
    assert learned.handle(make_context(text)).summary == said


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "something is wrong with the dashboards",
            "I could not recognise an alert in this message. Paste the alert text "
            "(e.g. “[FIRING:1] HighErrorRate service=payments”) or the metric and host.",
        ),
        (
            "仪表盘好像有问题",
            "我没能从这条消息里识别出告警。请贴上告警原文"
            "（例如“[FIRING:1] HighErrorRate service=payments”）或指标和主机。",
        ),
    ],
)
def test_an_alarm_with_no_alert_in_it_asks_for_one(
    make_context: ContextFactory, text: str, said: str
) -> None:
    result = AlarmController().handle(make_context(text))
    assert (result.ok, result.summary) == (False, said)


def test_which_to_withdraw_keeps_the_start_of_a_long_chinese_title() -> None:
    """A title is cut by characters: cut by words, a long Chinese title (one "word") was shown
    as the ellipsis alone."""
    title = "服务器上数据目录的权限被改了应用写不进去" * 4  # 80 characters, no space
    tickets = [
        Ticket(id="REQ-000001", kind="access", title=title, requester="U1"),
        Ticket(id="CHG-000002", kind="change", title="重启结算服务", requester="U1"),
    ]
    said = thread_replies.which_to_withdraw(tickets, zh=True)
    assert "REQ-000001（服务器上数据目录的权限被改了" in said and "…）" in said, said
    assert "CHG-000002（重启结算服务）" in said, said
