"""Security classes and outages the first taxonomy missed, end to end.

Each class is reported in English and in Chinese through the `Brain` API (and one of each
through `brain ask --json`): vishing (a code read out to a caller), a mailbox acting on its
own or with rules its owner did not make (account takeover), a forged request to change
payment details (business e-mail compromise), ransomware, and company-wide outages written
without "everyone" / "全公司". Each is critical, escalated and routed to `incident`. Beside
them, near misses on the same topics must not page: a code that does not arrive, setting up a
forwarding rule, the approval process for new bank details, a file with an unusual extension,
one floor without network, and the terms "emergency change" / "紧急变更".
"""

from __future__ import annotations

import json

import pytest

from brain.engine import Brain
from cli import main
from core.records import Decision, EscalationRecord, Message

REPORTS = {
    "vishing": [
        "a caller said he was from the helpdesk and I read him the code my authenticator showed",
        "有人打电话说是IT要核实身份，我把手机验证码念给他了",
    ],
    "account_takeover": [
        "my mailbox has been sending invoices to customers by itself since last night",
        "收件箱里出现了一条我没创建过的规则，把邮件都转发到外部地址",
    ],
    "payment_fraud": [
        "we got a forged email from our logistics vendor asking to change their bank account "
        "details, the domain is slightly different",
        "有人冒充基金托管行发邮件，要求我们修改收款账户",
    ],
    "ransomware": [
        "all files on the team share got renamed with a strange extension and there's a "
        "text file asking for bitcoin",
        "我电脑里的文档全被加密了，桌面上有个要求付比特币的说明",
    ],
}

OUTAGES = [
    "the whole office lost internet after lunch",
    "all stores cannot take card payments",
    "整个办公室都没网了",
    "所有门店都刷不了卡",
]

NEAR_MISSES = [
    "the one-time code from the authenticator app is not accepted, can you call me?",
    "手机收不到验证码，能不能打电话给我",
    "how do I set up a rule in outlook to forward newsletters to a folder?",
    "我想设置邮件自动转发到另一个邮箱",
    "a supplier asked to update their bank details, what approvals do we need?",
    "供应商要变更收款账户，需要走什么流程？",
    "the export has a weird file extension .dat, which program opens it?",
    "how do ransomware attacks spread inside a company?",
    "the third floor lost internet",
    "整个三楼都断网了",
    "all stores will open an hour later on monday",
    "we need an emergency change for the load balancer tonight",
    "紧急变更需要几个人审批？",
]


def _decide(brain: Brain, text: str, n: int) -> tuple[Decision, EscalationRecord]:
    decision = brain.decide(Message(text, user=f"u{n}", channel=f"C{n}"))
    assert decision.escalation is not None
    return decision, decision.escalation


@pytest.mark.parametrize("kind", sorted(REPORTS))
def test_each_new_security_class_pages_in_english_and_chinese(brain: Brain, kind: str) -> None:
    for n, text in enumerate(REPORTS[kind]):
        decision, escalation = _decide(brain, text, n)

        assert decision.escalate is True, text
        assert decision.urgency == "critical", text
        assert decision.controller == "incident", text
        assert kind in escalation.security, (text, escalation.security)


def test_company_wide_outages_without_the_usual_scope_words_page(brain: Brain) -> None:
    for n, text in enumerate(OUTAGES):
        decision, escalation = _decide(brain, text, n)

        assert decision.escalate is True, text
        assert decision.urgency == "critical", text
        assert escalation.security == [], text
        assert escalation.priority == "P1", text
        roles = {span.role for span in escalation.spans}
        assert "scope_all" in roles and roles & {"down", "inability"}, text


def test_near_misses_on_the_same_topics_do_not_page(brain: Brain) -> None:
    for n, text in enumerate(NEAR_MISSES):
        decision, _ = _decide(brain, text, n)

        assert decision.escalate is False, text
        assert decision.urgency != "critical", text


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("text", "security"),
    [
        ("someone phoned pretending to be our bank and I gave them the sms code", "vishing"),
        ("邮箱自己在往外群发邮件，我没发过", "account_takeover"),
    ],
    ids=["en", "zh"],
)
def test_the_cli_reports_the_class_in_the_decision(
    capsys: pytest.CaptureFixture[str], text: str, security: str
) -> None:
    assert main(["ask", text, "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)

    assert decision["escalate"] is True
    assert decision["urgency"] == "critical"
    assert security in decision["escalation"]["security"]
    assert "security incident" in decision["rationale"]
