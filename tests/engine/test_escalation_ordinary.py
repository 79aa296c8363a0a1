"""Ordinary desk chat pages no one; the live event on the same topic still does (brain API).

A Chinese password e-mail or link that did not arrive ("重置密码的链接一直没发到我邮箱") was
paged at P1 as an exposed secret: the taxonomy's "a password sent to ..." pattern read "没发到"
(not sent to) as "发到" (sent to). The negated verb no longer reports an event; a password
that was sent out still does. The escalation model paged other chat-sized desk messages alone,
as "a live security event": a production access or change asked for in Chinese, one person's
mail that will not go out, a CRM that will not save, a new phone without its authenticator
codes, a phone that no longer receives work mail (p 0.5-0.98 against the 0.5 bar): its
must-not-page rows were mostly long English desk e-mails and look-alikes of security events.
The fix is data
(`scripts/escalation_families_ordinary.py`: desk chat in many desks' words, English, Chinese
and mixed, beside live events in the same words). The wordings are no escalation training row
nor near one (character 3-gram overlap under the bar the training set's builder drops rows
at)."""

from __future__ import annotations

import pytest

from brain.engine import Brain
from core.records import Message
from tests.escalation_probes import assert_not_near_training

#: Must not page: one person's request, question or trouble, no one else affected.
QUIET = {
    "reset_link_zh": "重置密码的链接一直没发到我邮箱",
    "initial_password_zh": "新同事的初始密码还没有发到他的邮箱，能再发一次吗",
    "prod_access_zh": "申请一个生产环境的只读账号，查数据用",
    "new_phone_en": "I got a new phone and my authenticator codes are gone",
    "bounce_en": "my emails to one client keep bouncing",
    "undelivered_en": "Teams keeps saying my message could not be delivered",
    "crm_kicks_en": "the CRM keeps kicking me out when I open a deal",
    "vpn_home_zh": "公司 VPN 我在家连不上，公司里可以",
    "compare_en": "how can I compare two spreadsheets of trades by trade id and list the rows "
    "that differ",
    "reset_link_en": "the link to reset my Okta password never arrives in my mailbox",
    "locked_en": "my PC says my account is locked after I mistyped the password a few times",
    "teams_calls_en": "calls in Teams keep dropping every few minutes for me",
    "data_fix_zh": "周五晚上要在生产库上跑一个数据修复脚本，请安排",
    "token_zh": "令牌上的验证码总是提示错误，好像时间不准",
    "phone_mail_zh": "手机收不到公司邮件了",
    "phone_wecom_zh": "手机上的企业微信收不到消息",
}
#: Must page: the live event on the same topic.
LIVE = {
    "password_posted_zh": "有人刚把生产库的密码发到了外部的供应商群里",
    "password_pasted_en": "I just pasted the admin password of the prod database into the "
    "public vendor channel",
    "takeover_en": "someone changed my Okta password and is logging in from another country, "
    "it wasn't me",
    "prompts_en": "my phone keeps getting login approval requests I didn't make, dozens of them",
    "caller_en": "a caller claiming to be the helpdesk is asking me for my token code right now",
    "okta_all_en": "nobody in the company can get into Okta this morning",
    "teams_all_en": "Teams calls are failing for every office since 9am",
    "takeover_zh": "有人改了我的密码，现在异地在登录，不是我",
    "prompts_zh": "手机一直弹出不是我发起的登录确认请求",
    "okta_all_zh": "全公司的人今天早上都登不上 Okta",
    "sending_en": "someone is sending emails from my account to all my contacts right now",
    "wecom_all_zh": "公司所有人的企业微信都发不出消息了",
}


def test_the_wordings_are_not_near_any_training_row() -> None:
    assert_not_near_training([*QUIET.values(), *LIVE.values()])


@pytest.mark.parametrize(
    ("text", "pages"),
    [pytest.param(t, False, id=f"quiet_{n}") for n, t in QUIET.items()]
    + [pytest.param(t, True, id=f"live_{n}") for n, t in LIVE.items()],
)
def test_desk_chat_pages_no_one_and_its_live_twin_pages(
    brain: Brain, text: str, pages: bool
) -> None:
    """One person's request, question or trouble: no page, not P1. The live event on the
    same topic: P1 and paged."""
    decision = brain.decide(Message(text, "U1", "C1"))
    record = decision.escalation

    assert record is not None
    assert decision.escalate is pages, record.evidence
    assert (record.priority == "P1") is pages
