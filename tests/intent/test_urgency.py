"""Urgency and the independent security / handoff cues, English and Chinese."""

from __future__ import annotations

import pytest

from brain.intent.urgency import handoff_signal, security_signal, urgency


@pytest.mark.parametrize(
    "text",
    [
        "我点开了钓鱼邮件链接",
        "I clicked a link in a phishing email and typed my password",
        "电脑中毒了",
        "all my files are encrypted and there's a ransom note asking for bitcoin",
        "someone pretending to be IT asked me for my MFA code and I read them it",
        "I pushed our AWS access key to a public repo",
        "密码被贴在群聊里了",
        "lost my work laptop on the train",
        "my account was compromised",
        "phishing email sitting in everyone's inbox",
        "a pop-up says my computer is infected and I must call this number",
    ],
)
def test_security_events_are_detected(text: str) -> None:
    assert security_signal(text) == "event"


@pytest.mark.parametrize(
    "text",
    [
        "what is our phishing policy",
        "how do I report a suspected phishing email?",
        "收到可疑邮件应该怎么上报？",
        "如何识别钓鱼邮件",
        "how do ransomware attacks usually start?",
        "公司的病毒防护制度是什么",
        "the virus scan finished, all clean",
        "杀毒软件报病毒，确认是误报",
        "reminder: phishing drill next week",
    ],
)
def test_security_questions_are_not_events(text: str) -> None:
    assert security_signal(text) == "question"


@pytest.mark.parametrize("text", ["VPN 连不上", "my printer is jammed", "手机丢了，动态口令收不到"])
def test_unrelated_text_has_no_security_signal(text: str) -> None:
    assert security_signal(text) is None


def test_security_incident_intent_is_always_critical() -> None:
    assert urgency("我点开了钓鱼邮件链接", "security_incident") == "critical"
    assert urgency("hello", "security_incident") == "critical"


@pytest.mark.parametrize(
    "text",
    [
        "紧急！清算系统挂了",
        "URGENT: settlement DB is down",
        "P0: payments failing",
        "sev1 on checkout",
        "全公司都连不上 VPN",
        "email is down for the entire company",
        "[FIRING:2] InstanceDown severity=critical",
    ],
)
def test_critical_cues(text: str) -> None:
    assert urgency(text, "incident") == "critical"


@pytest.mark.parametrize(
    "text",
    [
        "今天之内要处理完",
        "请马上处理",
        "尽快",
        "影响业务了",
        "need it asap",
        "this is blocking release",
    ],
)
def test_high_cues(text: str) -> None:
    assert urgency(text, "incident") == "high"


def test_intent_based_levels() -> None:
    assert urgency("let me talk to a human", "human_handoff") == "high"
    assert urgency("escalate this", "escalation") == "high"
    assert urgency("your service is terrible", "complaint") == "medium"
    assert urgency("how do I set up the VPN", "how_to") == "low"


@pytest.mark.parametrize(
    "text", ["not urgent, whenever you can", "不紧急，有空看一下", "no rush on this"]
)
def test_negated_cues_do_not_count(text: str) -> None:
    assert urgency(text, "request") == "low"


def test_urgency_words_used_as_a_term_in_a_question() -> None:
    assert urgency("紧急变更需要几个人审批？想了解一下规定", "how_to") == "low"
    # "紧急变更" names a change type wherever it appears: the rollback is high ("马上"),
    # not a page.
    assert urgency("紧急变更，马上回滚", "rollback") == "high"
    assert urgency("we need an emergency change to bump the db pool tonight", "change") == "low"


def test_words_are_matched_whole() -> None:
    assert urgency("the p0wer supply hums", "hardware_fault") == "low"
    assert urgency("update the sp01 report", "request") == "low"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I need to talk to a real person, not a bot", "human_handoff"),
        ("转人工", "human_handoff"),
        ("get me whoever is on-call right now please", "escalation"),
        ("请帮我联系值班工程师", "escalation"),
        ("P0 ticket still unassigned, escalate to on-call please", "escalation"),
        ("who is on call for payments this week?", None),
        ("how do I escalate a ticket?", None),
        ("the login page is broken", None),
        ("密码忘记了，登录不上报销系统", None),
    ],
)
def test_handoff_signal(text: str, expected: str | None) -> None:
    assert handoff_signal(text) == expected
