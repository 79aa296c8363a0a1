"""What a user asks for is what gets filed: a fault of a device the user has is an incident
for IT support (not an order, and not a question back about which team), and a list of
things wanted for someone ("the new analyst needs …", "新来的分析师需要…") files one
equipment request holding every device beside the access request for the account or licence,
in English and Chinese. Through the brain API, as a surface calls it."""

from __future__ import annotations

import pytest

from brain.engine import Brain
from controllers.tickets import Ticket
from core.records import Message


def _tickets(brain: Brain) -> list[Ticket]:
    store = brain.services.tickets
    assert store is not None
    return store.all()


@pytest.mark.parametrize(
    "text",
    [
        "我的显示器有一条竖线",
        "the monitor has a line across it",
        # wordings written before any was run
        "笔记本屏幕上有很多坏点",
        "我的鼠标滚轮有点松",
        "the screen on my laptop flickers every few seconds",
        "my headset makes a buzzing noise",
    ],
)
def test_a_fault_of_a_device_is_filed_as_an_incident(brain: Brain, text: str) -> None:
    """The fault is a problem report: IT support files it, nobody is asked which team."""
    decision = brain.ask(Message(text, "u1", "C1"))
    assert decision.outcome == "routed", decision.tier_path
    assert decision.controller == "incident", decision.tier_path
    assert [t.kind for t in _tickets(brain)] == ["incident"]


@pytest.mark.parametrize(
    ("text", "items", "system"),
    [
        pytest.param(
            "新来的分析师需要电脑、显示器和Tableau账号",
            "电脑、显示器",
            "Tableau",
            marks=pytest.mark.xfail(
                strict=True,
                reason="'新来的分析师需要电脑' is read as an account request (the onboarding "
                "words and the role outweigh the device), so the things go to fewer "
                "controllers than the message has and it is filed whole, as one order",
            ),
        ),
        (
            "the new analyst needs a laptop, a docking station and a Jira account",
            "laptop, docking station",
            "Jira",
        ),
        # wordings written before any was run
        pytest.param(
            "新同事需要键盘、鼠标和Figma账号",
            "键盘、鼠标",
            "Figma",
            marks=pytest.mark.xfail(
                strict=True,
                reason="'新同事需要键盘' and '新同事需要鼠标' are read as account requests (the "
                "onboarding words outweigh the device), so the list is one access request",
            ),
        ),
        ("给新来的设计师准备显示器、扩展坞和Confluence权限", "显示器、扩展坞", "Confluence"),
        (
            "the intern needs a monitor, a headset and a Confluence account",
            "monitor, headset",
            "Confluence",
        ),
        (
            "the new designer needs a laptop, a webcam and a Figma licence",
            "laptop, webcam",
            "Figma",
        ),
        (
            "the contractor starting tuesday needs a laptop, a mouse and access to GitLab",
            "laptop, mouse",
            "GitLab",
        ),
    ],
)
def test_things_wanted_for_someone_file_the_order_and_the_account(
    brain: Brain, text: str, items: str, system: str
) -> None:
    """One equipment request holds every device; the account or licence is an access
    request of its own; no change is filed for the system."""
    decision = brain.ask(Message(text, "u1", "C1"))
    assert {decision.controller, *decision.supporting} == {"change", "access"}, decision.tier_path
    tickets = {t.kind: t for t in _tickets(brain)}
    assert set(tickets) == {"equipment", "access"}, [t.kind for t in _tickets(brain)]
    assert tickets["equipment"].fields["item"] == items
    assert system.lower() in str(tickets["access"].fields.get("system")).lower()


@pytest.mark.parametrize(
    ("text", "system"),
    [
        ("我要申请Figma的授权", "Figma"),
        ("给新来的设计师准备Confluence权限", "Confluence"),
        ("需要一个Tableau的账号", "Tableau"),
    ],
)
def test_a_system_named_against_chinese_is_the_request_s_system(
    brain: Brain, text: str, system: str
) -> None:
    """A system's English name written against Chinese characters ("Figma的", "Confluence权
    限") is the system asked for: the access request holds it and does not ask for it."""
    brain.ask(Message(text, "u1", "C1"))
    [ticket] = _tickets(brain)
    assert ticket.kind == "access" and ticket.fields.get("system") == system, ticket.fields
