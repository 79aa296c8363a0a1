"""The ticket controller and request filing answer in the asker's language.

A Chinese asker used to read "Urged …: chased once so far" or "Filed incident INC-… To proceed
I still need: category" in the middle of a Chinese reply. Each reply (status, not found, the
requester's tickets, which ticket, urge, a closed ticket, the comment to add, filed, updated,
completed, added to the ticket it names) is checked in English and in Chinese.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from controllers.base import ControllerContext, ControllerServices
from controllers.builtin.ticket import TicketController
from controllers.requests import file_request
from controllers.tickets import TicketStore

ContextFactory = Callable[..., ControllerContext]

WORK_ORDER = "2025060300011279027"
_CJK = re.compile(r"[\u4e00-\u9fff]")
#: English words of the replies that must never reach a Chinese asker.
_ENGLISH = re.compile(
    r"\b(?:Ticket|ticket|was not found|Your|Which|Filed|Updated|Completed|Urged|chased|"
    r"status|still need|already open|comment|assigned|last updated)\b"
)


@pytest.fixture
def store(services: ControllerServices) -> TicketStore:
    assert services.tickets is not None
    services.tickets.create(
        "ticket", title="Disbursement not arrived", requester="U024BE7LH", ticket_id=WORK_ORDER
    )
    return services.tickets


def _chinese(summary: str) -> bool:
    return bool(_CJK.search(summary)) and not _ENGLISH.search(summary)


def _english(summary: str) -> bool:
    return not _CJK.search(summary.replace("Disbursement not arrived", ""))


@pytest.mark.usefixtures("store")
@pytest.mark.parametrize(
    ("english", "chinese", "en_words", "zh_words"),
    [
        (
            f"what's the status of {WORK_ORDER}?",
            f"工单 {WORK_ORDER} 现在什么进度？",
            ["is open", "last updated"],
            ["状态：待处理", "最近更新"],
        ),
        (
            "status of 2025060399999999999 please",
            "帮我查一下 2025060399999999999 的进度",
            ["was not found", "did not file a new one"],
            ["没有找到工单 2025060399999999999", "没有新建工单"],
        ),
        (
            f"chase {WORK_ORDER} please",
            f"催一下 {WORK_ORDER}",
            ["chased once"],
            ["目前共催办 2 次"],
        ),
        (
            f"add a comment to {WORK_ORDER}",
            f"给 {WORK_ORDER} 加个备注",
            ["comment"],
            ["备注要写什么"],
        ),
        (
            "how many tickets have I got open?",
            "我有几个工单还没处理完",
            ["Your open tickets (1)"],
            ["你的未关闭工单（1 个）"],
        ),
    ],
    ids=["status", "not-found", "urge", "asks-comment", "list"],
)
def test_ticket_replies_follow_the_askers_language(
    make_context: ContextFactory,
    english: str,
    chinese: str,
    en_words: list[str],
    zh_words: list[str],
) -> None:
    controller = TicketController()

    # The English message runs first (the urge in Chinese is the ticket's second).
    en = controller.handle(make_context(english)).summary
    zh = controller.handle(make_context(chinese)).summary

    assert _english(en) and all(word in en for word in en_words), en
    assert _chinese(zh) and all(word in zh for word in zh_words), zh


def test_a_closed_ticket_and_the_which_ticket_question_in_both_languages(
    store: TicketStore, make_context: ContextFactory
) -> None:
    controller = TicketController()
    store.close(WORK_ORDER, by="U024BE7LH")

    en = controller.handle(make_context(f"urge {WORK_ORDER}")).summary
    zh = controller.handle(make_context(f"帮我催一下工单 {WORK_ORDER}")).summary
    assert "closed" in en and _english(en)
    assert "已关闭，请先重新打开" in zh and _chinese(zh)

    ask_en = controller.handle(make_context("any update on my ticket?", user="U0NEW")).summary
    ask_zh = controller.handle(make_context("我的工单有进展吗？", user="U0NEW")).summary
    assert ask_en.startswith("Which ticket?")
    assert ask_zh.startswith("是哪张工单？") and _chinese(ask_zh)


def test_filing_updating_and_completing_follow_the_askers_language(
    make_context: ContextFactory, store: TicketStore
) -> None:
    def file(text: str, thread: str, fields: dict[str, str]) -> str:
        context = make_context(text, thread=thread)
        return file_request(
            context, kind="incident", label="incident", fields=fields, required=["category"]
        ).summary

    en = file("my screen flickers all the time", "T1", {"host": "pc-7"})
    zh = file("我的显示器一直闪", "T2", {"host": "pc-8"})
    assert re.fullmatch(
        r"Filed incident INC-\d+ \(host: pc-7\)\. To proceed I still need: "
        r"category\.",
        en,
    ), en
    assert re.fullmatch(r"已提交故障单 INC-\d+（主机：pc-8）。还需要你提供：类别。", zh), zh

    # The follow-up in the same thread completes the waiting ticket, in the asker's language.
    done_en = file("the category is hardware", "T1", {"category": "hardware"})
    done_zh = file("类别是硬件", "T2", {"category": "硬件"})
    assert done_en.startswith("Completed incident INC-") and "is open" in done_en
    assert done_zh.startswith("已补全故障单 INC-") and "信息已齐全" in done_zh, done_zh
    assert len(store.all()) == 3  # the work order and one incident each, nothing duplicated


def test_a_message_naming_an_open_ticket_is_added_to_it_in_the_askers_language(
    make_context: ContextFactory, store: TicketStore
) -> None:
    ticket = store.create("incident", title="VPN drops", requester="U024BE7LH")

    def report(text: str) -> str:
        return file_request(
            make_context(text), kind="incident", label="incident", fields={}, required=[]
        ).summary

    en = report(f"VPN down again, {ticket.id} is still not solved")
    zh = report(f"VPN 又断了，{ticket.id} 还没解决")
    assert "already open" in en and "instead of filing a new incident" in en
    assert "已经是打开状态" in zh and "没有新建故障单" in zh and _chinese(zh), zh


def test_a_filed_security_incident_tells_the_asker_what_to_do_in_their_language(
    make_context: ContextFactory, store: TicketStore
) -> None:
    from controllers.builtin.incident import IncidentController

    incident = IncidentController()

    def report(text: str) -> str:
        context = make_context(text, parameters={"category": "security"}, urgency="critical")
        return incident.handle(context).summary

    en = report("I gave my password to a fake login page")
    zh = report("我在假的登录页面输入了密码")
    assert "disconnect from the network" in en and _english(en)
    assert "请先断开网络" in zh and _chinese(zh), zh
