"""The bilingual security taxonomy (brain/intent/security.yaml) and scope-based urgency."""

from __future__ import annotations

import pytest

from brain.intent.security import (
    SecurityTaxonomyError,
    find_security,
    load_security_taxonomy,
    parse_security_taxonomy,
)
from brain.intent.urgency import read_urgency


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("I clicked a link in a phishing email and it asked me to log in", "phishing"),
        ("我点开了一个钓鱼邮件里的附件", "phishing"),
        ("I typed my password into a fake login page", "credential_entry"),
        ("我在一个假的登录页面输入了密码", "credential_entry"),
        ("the caller said he was IT and I told him my verification code", "credential_entry"),
        ("ransomware: all files on the share were encrypted and renamed .locked", "malware"),
        ("电脑中毒了，一直弹窗", "malware"),
        ("I committed the prod api key to our public github repo", "exposed_secret"),
        ("我把数据库密码提交到了公开的 GitHub 仓库", "exposed_secret"),
        ("密钥被贴到了外部群里", "exposed_secret"),
        ("someone logged into my mailbox from another country", "account_takeover"),
        ("我的账号被盗了", "account_takeover"),
        ("I sent the client data file to an external address by mistake", "data_leak"),
        ("客户数据被发错给了外部邮箱", "data_leak"),
        ("my work laptop was stolen at the station", "lost_device"),
        ("笔记本丢了，里面有客户资料", "lost_device"),
        ("the guy on the phone said he was IT, so I told him the code from my token", "vishing"),
        ("对方来电自称客服，我把动态码告诉了他", "vishing"),
        ("my gmail-linked work account is sending spam on its own", "account_takeover"),
        ("有人在我邮箱里加了转发规则，不是我设置的", "account_takeover"),
        (
            "a spoofed mail from our custodian asked us to switch the payee account details",
            "payment_fraud",
        ),
        ("有人假冒供应商发邮件让我们更改付款账户", "payment_fraud"),
        (
            "every spreadsheet got renamed with an odd extension plus a how_to_decrypt.txt",
            "ransomware",
        ),
        ("共享目录里的文件扩展名全被改成了陌生的后缀", "ransomware"),
    ],
)
def test_each_class_is_reported_in_english_and_chinese(text: str, kind: str) -> None:
    finding = find_security(text)

    assert finding is not None and finding.kind == "event"
    assert kind in finding.classes


@pytest.mark.parametrize(
    "text",
    [
        "what is our policy on phishing emails?",
        "what should I do if I clicked a phishing link?",
        "where do I report a lost laptop, is there a form?",
        "万一笔记本丢了应该找谁？",
        "如何识别钓鱼邮件",
    ],
)
def test_questions_about_security_are_consultations(text: str) -> None:
    finding = find_security(text)

    assert finding is not None and finding.kind == "question"


@pytest.mark.parametrize(
    "text",
    [
        "my SMS verification code never arrives",
        "memory leaked in the java service",
        "SLA breach on INC0012345, please chase",
        "the thing is broken, can someone check",
        "can someone reset my password, I'm locked out",
        "how often do we rotate api keys?",
        # a password e-mail or link that did not arrive: "发到" negated is no secret sent out
        "重置密码的链接一直没发到我邮箱",
        "初始密码的邮件还没有发到新同事那里",
    ],
)
def test_words_in_another_sense_are_not_security(text: str) -> None:
    assert find_security(text) is None


def test_every_class_of_the_shipped_taxonomy_has_cues() -> None:
    taxonomy = load_security_taxonomy()
    names = {c.name for c in taxonomy.classes}

    assert names >= {
        "phishing",
        "credential_entry",
        "malware",
        "exposed_secret",
        "account_takeover",
        "data_leak",
        "lost_device",
        "vishing",
        "payment_fraud",
        "ransomware",
    }


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"classes": [{"name": "x"}]}, "no cues"),
        ({"classes": [{"name": "x", "events": ["("]}]}, "event"),
        ({"classes": [{"name": "x", "phrases": ["a"]}, {"name": "x", "phrases": ["b"]}]}, "twice"),
        ({"nothing": 1}, "classes"),
    ],
)
def test_a_bad_taxonomy_is_refused_naming_the_entry(data: object, problem: str) -> None:
    with pytest.raises(SecurityTaxonomyError, match=problem):
        parse_security_taxonomy(data)


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("全公司都上不了网了", "critical"),
        ("everyone is affected, email is down", "critical"),
        ("nobody can log in to the VPN", "critical"),
        ("全公司年会在哪个酒店？", "low"),
        ("please send the slides to everyone", "low"),
        ("what is the policy for urgent access requests?", "low"),
        ("what counts as a P0 in our SLA?", "low"),
        ("urgent: the payment gateway returns 502", "critical"),
    ],
)
def test_urgency_from_explicit_scope_and_impact(text: str, level: str) -> None:
    assert read_urgency(text, "other").level == level


def test_every_urgent_labelled_training_row_is_decided_as_labelled() -> None:
    """The shipped training rows that carry `urgent` (brain/data/training.jsonl, written apart
    from the dev set): every security report and company-wide outage pages, every question,
    near miss and change type does not."""
    from brain.escalation.decide import decide_escalation
    from brain.learning.labelled import read_rows
    from brain.learning.training import LABEL_FIELD, SHIPPED_TRAINING
    from core.records import IntentResult

    rows, _ = read_rows(SHIPPED_TRAINING, LABEL_FIELD)
    labelled = [row for row in rows if row.urgent is not None]
    none = IntentResult(intent="other", confidence=0.0, description="", urgency="low", entities={})
    wrong = [
        (row.text, row.urgent)
        for row in labelled
        if decide_escalation(row.text, none).escalate is not row.urgent
    ]

    assert len(labelled) >= 60
    urgent = [row.text for row in labelled if row.urgent]
    assert any(text.isascii() for text in urgent) and not all(text.isascii() for text in urgent)
    assert wrong == []
