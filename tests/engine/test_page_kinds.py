"""A page on a failure is no security incident, through `brain ask --json`.

Where the escalation model pages alone (no security rule, no failure the priority matrix
reads), the page was called a security event by construction: a whole company's mail down,
written in Chinese, was filed as a security incident and the asker was told to disconnect from
the network. The page kind model (`brain.escalation.page_kind`, learned from the escalation
set's pages) tells a failure from a security event; the security events still get the advice.
"""

from __future__ import annotations

import json

import pytest

from tests.cli_calls import ask_json

SECURITY_ADVICE = ("disconnect from the network", "请先断开网络")


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    "text", ["公司邮箱整个都收不到外部邮件了", "整个公司的邮件系统从早上开始就发不出去也收不到"]
)
def test_a_failure_the_model_pages_alone_is_an_outage_not_a_security_incident(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    decision = ask_json(capsys, text)
    escalation = decision["escalation"]
    assert isinstance(escalation, dict)
    assert decision["escalate"] is True and escalation["kind"] == "outage", escalation
    summary = json.dumps(decision["result"], ensure_ascii=False)
    assert not any(advice in summary for advice in SECURITY_ADVICE)
    assert '"category": "security"' not in summary


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    "text",
    [
        "someone claiming to be from IT is on the line asking for my login code right now",
        "the vendor says they got an email from our CFO's mailbox asking to change bank details, "
        "the CFO never sent it",
    ],
)
def test_a_security_event_the_model_pages_alone_stays_a_security_incident(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    decision = ask_json(capsys, text)
    escalation = decision["escalation"]
    assert isinstance(escalation, dict)
    assert decision["escalate"] is True and escalation["kind"] == "security", escalation
    summary = json.dumps(decision["result"], ensure_ascii=False)
    assert any(advice in summary for advice in SECURITY_ADVICE)


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    "text", ["[FIRING:2] 磁盘使用率超过90% host=db-01", "[FIRING:1] 内存使用率超过 95% host=app-03"]
)
def test_a_pasted_monitoring_alert_is_diagnosed_never_called_a_security_incident(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The escalation model had never seen an alert: it paged the disk alert alone as a live
    security event, moved it to the incident controller and told the asker to disconnect. An
    alert stays with the alarm controller; should the model page it, the page is a failure."""
    decision = ask_json(capsys, text)
    escalation = decision["escalation"]
    assert isinstance(escalation, dict)
    assert decision["controller"] == "alarm", decision["tier_path"]
    assert escalation["kind"] != "security", escalation
    summary = json.dumps(decision["result"], ensure_ascii=False)
    assert not any(advice in summary for advice in SECURITY_ADVICE)
    assert '"category": "security"' not in summary
