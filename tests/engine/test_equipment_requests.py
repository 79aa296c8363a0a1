"""A request for a thing (a monitor, a mouse, a laptop for a new joiner) is an order: it files
an equipment request that asks only for what an order needs, through `brain chat` and `brain
ask`, in the asker's language; never a change with a service, a window or the CAB policy."""

from __future__ import annotations

import re

import pytest

from brain.conversation.turns import Conversation
from brain.engine import Brain
from cli.chat_session import chat_loop
from controllers.tickets import Ticket
from core.records import Message
from tests.cli_calls import all_tickets, ask_json

#: What only a change asks for or cites.
_CHANGE_WORDS = re.compile(r"\bservice\b|\bwindow\b|CAB|Change Advisory|变更窗口|服务", re.I)
_ENGLISH_RUN = re.compile(r"[A-Za-z]+(?:[ '-]+[A-Za-z]+){2,}")


def _chat(brain: Brain, *lines: str) -> list[str]:
    """Each turn's printed reply, through the terminal loop of `brain chat`."""
    out: list[str] = []
    chat_loop(Conversation(brain, brain.conversations), lines, out.append)
    return out[1:-1]


def _tickets(brain: Brain) -> list[Ticket]:
    store = brain.services.tickets
    assert store is not None
    return store.all()


def _said(reply: str) -> str:
    """The reply without its footer (confidence, decision id)."""
    return "\n".join(line for line in reply.splitlines() if not line.startswith("  "))


@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("also could somebody get me a laptop stand?", "laptop stand"),
        ("could I get a new mouse, the scroll wheel is gone", "mouse"),
        ("can you get me a laptop for the intern starting next week", "laptop"),
        ("我需要再要一个显示器", "显示器"),
    ],
)
def test_a_request_for_a_thing_files_an_equipment_request(
    brain: Brain, text: str, item: str
) -> None:
    [reply] = _chat(brain, text)
    [ticket] = _tickets(brain)
    assert ticket.kind == "equipment" and ticket.fields["item"] == item
    assert ticket.id.startswith("EQ-") and ticket.id in reply
    assert not _CHANGE_WORDS.search(_said(reply)), reply
    assert "change_type" not in ticket.fields and "window" not in ticket.fields


def test_a_chinese_order_is_answered_in_chinese_with_who_and_where(brain: Brain) -> None:
    [reply] = _chat(brain, "给新来的实习生申请两台显示器，送到三楼前台")
    [ticket] = _tickets(brain)
    assert ticket.kind == "equipment"
    assert ticket.fields["item"] == "显示器" and ticket.fields["deliver_to"] == "三楼前台"
    assert ticket.fields["for"] == "新来的实习生"
    assert not _ENGLISH_RUN.search(_said(reply)), reply


def test_an_order_without_an_item_asks_for_it_and_the_answer_completes_it(brain: Brain) -> None:
    replies = _chat(brain, "I need some new equipment", "a headset please")
    [ticket] = _tickets(brain)
    assert "item" in replies[0] and ticket.id in replies[1]
    assert ticket.fields["item"] == "headset" and ticket.status == "open"


def test_brain_ask_orders_for_someone_else(
    brain: Brain, capsys: pytest.CaptureFixture[str]
) -> None:
    decision = ask_json(
        capsys, "can you get two monitors delivered to desk 4F-12 for our new analyst"
    )
    assert decision["controller"] == "change"
    [ticket] = all_tickets(capsys)
    assert ticket["kind"] == "equipment" and ticket["id"].startswith("EQ-")
    assert ticket["fields"]["item"] == "monitor" and ticket["fields"]["quantity"] == "two"
    assert ticket["fields"]["for"] == "our new analyst"
    assert ticket["fields"]["deliver_to"] == "desk 4F-12"


def test_a_change_naming_a_service_is_still_a_change(brain: Brain) -> None:
    _chat(brain, "please deploy payments-api v2.3 tonight 22:00-23:00")
    [ticket] = _tickets(brain)
    assert ticket.kind == "change" and ticket.fields["service"] == "payments-api"


@pytest.mark.parametrize(
    "text",
    [
        "deploy the new dashboard to the office screens tonight",
        "schedule the monitor upgrade for the grafana stack next week",
    ],
)
def test_work_on_systems_that_names_a_thing_is_no_order(brain: Brain, text: str) -> None:
    decision = brain.ask(Message(text, "u1", "C1"))
    assert decision.controller == "change"
    assert [t.kind for t in _tickets(brain)] == ["change"]


@pytest.mark.parametrize(
    "text", ["我的显示器有一条竖线", "the monitor has a line across it", "my keyboard is broken"]
)
def test_a_fault_of_a_device_files_no_order(brain: Brain, text: str) -> None:
    """A fault of a thing the asker has names the thing but orders nothing: no equipment
    request (the incident controller files it, or the bot asks which)."""
    decision = brain.ask(Message(text, "u1", "C1"))
    assert decision.controller != "change", decision.tier_path
    assert "equipment" not in [t.kind for t in _tickets(brain)]


@pytest.mark.parametrize(
    ("text", "items", "system"),
    [
        (
            "our new analyst starts monday and needs a laptop, a monitor and a Tableau licence",
            "laptop, monitor",
            "Tableau",
        ),
        ("I need a keyboard, a mouse and access to Grafana", "keyboard, mouse", "Grafana"),
        ("can you get me a monitor, a headset and a Figma licence", "monitor, headset", "Figma"),
    ],
)
def test_a_list_of_things_files_every_item_and_the_licence(
    brain: Brain, text: str, items: str, system: str
) -> None:
    """Several things asked for at once: one order holds every item, the licence or account
    is a request of its own to the controller that takes it; nothing is dropped."""
    decision = brain.ask(Message(text, "u1", "C1"))
    assert {decision.controller, *decision.supporting} == {"change", "access"}
    tickets = {t.kind: t for t in _tickets(brain)}
    assert set(tickets) == {"equipment", "access"}
    assert tickets["equipment"].fields["item"] == items
    assert system in str(tickets["access"].fields.get("system"))
