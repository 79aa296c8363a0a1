"""Conversations that hold together, through the Slack app over real signed HTTP.

Each complaint of the issue, as a thread a user has with the bot: the bot's own question
answered in the thread, follow-ups that update the thread's ticket, questions that stay
questions, references that are looked up, answers that say when they do not know, replies in
the asker's language, a payroll desk that is down handed to a person, vague messages asked
about. None of them files a record it should not: every test counts the tickets.
"""

from __future__ import annotations

import re
import socket
from pathlib import Path
from typing import Any

import pytest

from controllers.tickets import Ticket
from core.config import load_settings
from tests.bot import slack_payloads as p
from tests.bot.conftest import Harness, StartBot

_CJK = re.compile(r"[\u4e00-\u9fff]")
#: Three English words in a row: an English sentence.
_ENGLISH_RUN = re.compile(r"[A-Za-z]+(?:[ '-]+[A-Za-z]+){2,}")

#: One running bot for the module; each test has a user and DM of its own (`shared_harness`).
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture
def harness(shared_harness: Harness) -> Harness:
    return shared_harness


def _texts(node: Any) -> list[str]:
    """Every text a block tree shows."""
    if isinstance(node, dict):
        found = [node["text"]] if isinstance(node.get("text"), str) else []
        return found + [t for value in node.values() for t in _texts(value)]
    if isinstance(node, list):
        return [t for item in node for t in _texts(item)]
    return []


def _said(post: dict[str, Any]) -> str:
    """What the reply's sections say (the answer itself, not the buttons or the footer)."""
    sections = [b for b in post.get("blocks", []) if b.get("type") == "section"]
    return "\n".join(t for block in sections for t in _texts(block)) or str(post.get("text"))


async def _thread(harness: Harness, *texts: str) -> list[str]:
    """The first text starts a DM thread, the others reply in it; each reply's words."""
    root = p.message(texts[0])
    channel = root["channel"]
    replies: list[str] = []
    for number, text in enumerate(texts):
        event = root if number == 0 else p.message(text, channel=channel, thread_ts=root["ts"])
        assert (await harness.event(event))[0] == 200
        before = len(harness.fake.of("chat.postMessage"))
        posts = await harness.fake.wait_for("chat.postMessage", before + 1)
        await harness.idle()
        ours = [c.params for c in posts if c.params.get("thread_ts") == root["ts"]]
        replies.append(_said(ours[-1]))
    return replies


def _tickets(harness: Harness) -> list[Ticket]:
    """The test's asker's tickets (the home holds others' too: the template's warm-up ticket,
    and the module's other tests')."""
    store = harness.brain.services.tickets
    assert store is not None
    return [t for t in store.all() if t.requester == p.asker()]


async def test_the_bots_question_is_answered_in_the_thread(harness: Harness) -> None:
    replies = await _thread(harness, "I need access", "it's for Jira")
    [ticket] = _tickets(harness)
    assert ticket.kind == "access" and ticket.fields.get("system") == "Jira"
    assert ticket.id in replies[1] and "outside what I can handle" not in replies[1]


async def test_the_category_asked_for_completes_the_threads_incident(harness: Harness) -> None:
    replies = await _thread(harness, "the thing on my desk is broken", "the category is printer")
    [ticket] = _tickets(harness)
    assert "category" in replies[0]
    assert ticket.fields.get("category") == "printer" and ticket.id in replies[1]


async def test_updates_in_the_thread_go_onto_its_ticket(harness: Harness) -> None:
    replies = await _thread(harness, "打印机坏了", "还是不行", "it's stuck again", "still dead")
    [ticket] = _tickets(harness)
    assert all(ticket.id in reply for reply in replies[1:])
    said = [c["text"] for c in ticket.comments]
    assert {"还是不行", "it's stuck again", "still dead"} <= set(said)


async def test_a_status_question_in_the_thread_looks_up_its_ticket(harness: Harness) -> None:
    replies = await _thread(harness, "VPN keeps dropping", "any update?")
    [ticket] = _tickets(harness)
    assert ticket.id in replies[1] and "open" in replies[1]


async def test_questions_are_answered_and_file_nothing(harness: Harness) -> None:
    await _thread(harness, "How do I set up MFA on my phone?")
    await _thread(harness, "VPN 怎么连接？")
    await _thread(harness, "How do I reset my password?")
    assert _tickets(harness) == []


async def test_a_mentioned_record_is_looked_up_never_filed_again(harness: Harness) -> None:
    replies = await _thread(harness, "the deploy failed after the change CHG-4411")
    assert not any(t.kind == "change" for t in _tickets(harness))
    assert "CHG-4411" in replies[0]
    await _thread(harness, "my laptop LT-20977 is broken")
    [ticket] = _tickets(harness)
    assert ticket.kind == "incident" and ticket.fields.get("asset_tag") == "LT-20977"
    # The asset tag, mentioned again, is looked up through the records: the incident.
    [looked] = await _thread(harness, "please check LT-20977")
    [chinese] = await _thread(harness, "请查一下 LT-20977 的情况")
    assert ticket.id in looked and ticket.id in chinese
    assert "not found" not in looked and len(_tickets(harness)) == 1


async def test_an_unanswerable_question_says_so_with_who_can_help(harness: Harness) -> None:
    [dogs] = await _thread(harness, "What is the policy on bringing dogs to the office?")
    assert "no answer" in dogs and "person" in dogs
    assert "Wi-Fi" not in dogs.split("Nearest articles")[0]
    [dress] = await _thread(harness, "What is the dress code on Fridays?")
    assert "no answer" in dress and "outside what I can handle" not in dress
    [pets] = await _thread(harness, "公司可以带宠物上班吗？")
    assert "没有" in pets
    assert _tickets(harness) == []


async def test_replies_are_in_the_askers_language(harness: Harness) -> None:
    [english] = await _thread(harness, "How do I reset my password?")
    assert not _CJK.search(english), english
    chinese = await _thread(harness, "我需要开通权限", "是GitLab的")
    for reply in chinese:
        assert _CJK.search(reply) and not _ENGLISH_RUN.search(reply), reply
    [ticket] = _tickets(harness)
    assert ticket.fields.get("system") == "GitLab"


async def test_a_request_for_a_thing_is_an_order_not_a_change(harness: Harness) -> None:
    replies = await _thread(harness, "also could somebody get me a laptop stand?")
    [chinese] = await _thread(harness, "我需要再要一个显示器")
    stand, screen = sorted(_tickets(harness), key=lambda t: t.id)
    assert (stand.kind, stand.fields["item"]) == ("equipment", "laptop stand")
    assert (screen.kind, screen.fields["item"]) == ("equipment", "显示器")
    assert stand.id in replies[0] and not re.search(r"window|service|CAB", replies[0])
    assert screen.id in chinese and not _ENGLISH_RUN.search(chinese), chinese


def _dead_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/hook"  # nothing listens there any more


@pytest.mark.slow
@pytest.mark.asyncio(loop_scope="function")  # a bot of its own, with a controller added
async def test_a_desk_that_is_down_hands_the_message_to_a_person(start_bot: StartBot) -> None:
    home = load_settings().home
    start = await start_bot(config="")
    await start.close()
    controllers = Path(home) / "controllers"
    controllers.mkdir(exist_ok=True)
    (controllers / "payroll.yaml").write_text(
        "name: payroll\ndescription: Salary payments, payslips and payroll questions.\n"
        "keywords: [salary, payroll, payslip, 工资]\n"
        "examples: [my salary was not paid, payslip is missing, 工资没有到账]\n"
        f"handler: webhook\noptions: {{url: '{_dead_url()}'}}\n",
        encoding="utf-8",
    )
    harness = await start_bot(config="")
    [reply] = await _thread(harness, "my salary was not paid")
    assert "person" in reply
    assert "password" not in reply.lower()
    assert _tickets(harness) == []


async def test_a_vague_message_without_context_is_asked_about(harness: Harness) -> None:
    await _thread(harness, "nothing works")
    await _thread(harness, "救命，又出问题了")
    assert _tickets(harness) == []


async def test_a_vague_message_in_a_thread_follows_the_thread(harness: Harness) -> None:
    replies = await _thread(harness, "my laptop will not boot", "nothing works")
    [ticket] = _tickets(harness)
    assert ticket.id in replies[1]


async def test_a_ticket_search_in_slack_finds_the_askers_ticket_by_topic(
    harness: Harness,
) -> None:
    await _thread(harness, "VPN keeps disconnecting with error 809")
    await _thread(harness, "my keyboard is broken, some keys don't type")
    vpn, keyboard = sorted(_tickets(harness), key=lambda t: t.title)
    [found] = await _thread(harness, "search my tickets about the VPN")
    assert vpn.id in found and keyboard.id not in found
    assert len(_tickets(harness)) == 2


async def test_a_window_answered_as_people_say_it_completes_the_threads_change(
    harness: Harness,
) -> None:
    replies = await _thread(
        harness,
        "need to schedule a patch for the billing API",
        "the window would be saturday 6-8am",
    )
    [ticket] = _tickets(harness)
    assert ticket.kind == "change" and ticket.fields.get("window") == "saturday 6-8am"
    assert ticket.id in replies[1] and "something new" not in replies[1]


async def test_a_new_short_problem_after_an_access_request_files_its_own(
    harness: Harness,
) -> None:
    replies = await _thread(harness, "我需要开通 Jira 权限", "邮箱收不到外部邮件")
    [access, incident] = sorted(_tickets(harness), key=lambda t: t.kind)
    assert (access.kind, incident.kind) == ("access", "incident") and access.comments == []
    assert incident.id in replies[1] and "新的请求" not in replies[1]  # not asked "REQ-…?"
