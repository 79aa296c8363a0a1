"""Chinese parity in what the asker reads: controller labels, the headline and the
clarification question in the asker's language."""

from __future__ import annotations

import re

from brain.conversation.turns import Conversation
from brain.engine import Brain
from core.records import Message


def test_a_chinese_message_is_answered_with_chinese_labels(brain: Brain) -> None:
    reply = Conversation(brain).handle(Message("我的VPN连不上了", "u1", "C1"))
    assert reply.decision is not None and reply.decision.controller == "incident"
    assert reply.headline == "已转给IT 支持处理。"
    assert reply.controller_label == "IT 支持"
    assert {c.label for c in reply.reroute_choices} >= {"权限与账号", "告警诊断"}
    english = Conversation(brain).handle(Message("my VPN will not connect", "u1", "C2"))
    assert english.controller_label == "IT support"


def test_a_chinese_clarification_names_the_candidates_in_chinese(brain: Brain) -> None:
    reply = Conversation(brain).handle(Message("帮忙看一下，卡住了", "u1", "C1"))
    assert reply.kind == "clarify"
    assert "我还不能确定" in reply.text
    chinese_labels = {
        "工单服务台",
        "知识咨询",
        "告警诊断",
        "编程助手",
        "权限与账号",
        "IT 支持",
        "变更与资产",
    }
    named = [c.label for c in reply.choices if not c.value.startswith("__")]
    assert named and all(label in chinese_labels for label in named)
    assert all(f"“{label}”" in reply.text for label in named)


def test_the_glossary_sense_of_a_polysemous_term_reaches_routing(brain: Brain) -> None:
    decision = brain.decide(Message("客户说放款后钱没到", "u1", "C1"))
    assert decision.controller == "ticket"
    assert any(step.startswith("sense: '钱没到'") for step in decision.tier_path)
    # Asking what the term means is still a question for the knowledge desk.
    question = brain.decide(Message("什么是钱没到？", "u1", "C1"))
    assert question.controller == "consultation"


def test_lower_case_identifiers_in_a_chinese_message_are_names_not_english(brain: Brain) -> None:
    """ "payments-api" and "5xx" name a service and a status; the writer's language is the
    Chinese around them (the alarm's reply was in English)."""
    decision = brain.ask(Message("prod 的 payments-api 5xx 飙升了", "u1", "C1"))
    assert decision.result is not None
    assert re.search(r"[\u4e00-\u9fff]", decision.result.summary)
    english = brain.ask(Message("the 5xx on payments-api keeps climbing, please check", "u1", "C2"))
    assert english.result is not None
    assert not re.search(r"[\u4e00-\u9fff]", english.result.summary)


def test_a_metric_said_to_be_spiking_is_diagnosed_as_an_alarm(brain: Brain) -> None:
    """A metric word beside a trend word is a reading: the alarm diagnoses it (with the
    runbook for error rates) instead of saying it recognised no alert."""
    for text, metric in (
        ("prod 的 payments-api 5xx 飙升了", "错误率"),
        ("latency is spiking on checkout-svc since the deploy", "latency"),
    ):
        decision = brain.ask(Message(text, "u1", "C1"))
        assert decision.controller == "alarm" and decision.result is not None
        assert decision.result.ok and metric in decision.result.summary
