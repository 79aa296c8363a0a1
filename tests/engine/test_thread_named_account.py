"""A reply that names the account a request is for ("账号是 zhangwei01", "the account is
jdoe42") sets the record's account, which had been the asker's: it is a correction of the
record, not a second request and not a question of which record it is about; a reply that
names a state of the account ("my account is locked again") sets nothing."""

from __future__ import annotations

import pytest

from brain.engine import Brain
from tests.chat_threads import chat_thread, records_field


@pytest.mark.parametrize(
    ("request_", "reply", "account"),
    [
        ("我的密码忘了，需要重置一下", "账号是 zhangwei01", "zhangwei01"),
        ("我的 Jira 账号被锁了，帮我解锁一下", "用户名是 liuyang.3", "liuyang.3"),
        ("I need my password reset please", "the account is jdoe42", "jdoe42"),
        ("can you unlock my account? too many wrong tries", "username: mchen-02", "mchen-02"),
        # Read as new by the continuation model; alone, no controller takes it as work.
        (
            "I need my password reset, I'm locked out of the VPN",
            "my user id is wang.fei-7",
            "wang.fei-7",
        ),
    ],
)
def test_a_named_account_corrects_the_records_account(
    brain: Brain, request_: str, reply: str, account: str
) -> None:
    replies = chat_thread(brain, request_, reply)
    decision = replies[1].decision
    assert decision is not None and decision.request_type == "update", replies[1].text
    assert records_field(brain, "account") == [account]


def test_an_accounts_state_sets_no_account(brain: Brain) -> None:
    chat_thread(brain, "I need my password reset please", "my account is locked again")
    assert records_field(brain, "account") == ["u1"]
