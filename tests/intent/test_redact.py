"""Redaction of personal data and secrets; ids and error codes survive."""

from __future__ import annotations

import pytest

from core.redact import redact


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("write to jane.doe@corp.example.com", "write to [EMAIL]"),
        ("call 13812345678", "call [PHONE]"),
        ("call +86 138 1234 5678", "call [PHONE]"),
        ("call +44 20 7946 0958", "call [PHONE]"),
        ("call (555) 123-4567", "call [PHONE]"),
        ("身份证 11010519491231002X", "身份证 [ID_NUMBER]"),
        ("card 4111 1111 1111 1111", "card [CARD]"),
        ("card 4111111111111111", "card [CARD]"),
        ("IBAN GB82 WEST 1234 5698 7654 32", "IBAN [IBAN]"),
        ("IBAN GB82WEST12345698765432", "IBAN [IBAN]"),
        ("from 8.8.8.8", "from [IP]"),
        ("token xoxb-123456789012-abcdefghij", "token [SLACK_TOKEN]"),
        ("app token xapp-1-A0123-456-abcdef", "app token [SLACK_TOKEN]"),
        ("key sk-ant-api03-AbCdEf0123456789", "key [ANTHROPIC_KEY]"),
        ("aws AKIAIOSFODNN7EXAMPLE", "aws [AWS_KEY]"),
        ("password: hunter2 please", "password: [SECRET] please"),
        ("密码是 Abc12345", "密码是 [SECRET]"),
        ("my password is Hunter2! now", "my password is [SECRET] now"),
        ("token=abc", "token=[SECRET]"),
        ("Authorization: Bearer abcdef.ghijkl.mnop", "Authorization: Bearer [TOKEN]"),
        # A plain word is the password when it is no word about passwords.
        ("my password is sunshine please reset", "my password is [SECRET] please reset"),
        ("my password is sunshine.", "my password is [SECRET]."),
        ("sunshine is my password", "[SECRET] is my password"),
        ("passphrase is correct horse battery staple", "passphrase is [SECRET]"),
        ("密码是abcdef，登录不了", "密码是[SECRET]，登录不了"),
        ("密碼abcdef登不上", "密碼[SECRET]登不上"),
        ("NI number QQ123456C", "NI number [NI_NUMBER]"),
        ("my password is now sunshine", "my password is now [SECRET]"),
        ("I changed my password to sunshine", "I changed my password to [SECRET]"),
        ("密码改成了abc123", "密码改成了[SECRET]"),
    ],
)
def test_personal_data_and_secrets_are_replaced(text: str, expected: str) -> None:
    assert redact(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "process ticket 2025060300011279027",
        # Luhn-valid 19-digit ticket id: still a ticket id, never a card.
        "process ticket 2025060300011279029",
        "INC0012345 and REQ-000123 and #10086",
        "VPN 报错 691, HTTP 500, ORA-00942, 0x80070005, exit code 137",
        "host db-01 at 10.0.0.5 and 192.168.1.20 and 127.0.0.1",
        "asset LT-12345 on 2025-06-03 at 10:30",
        # 18 digits with a wrong checksum: not an ID card number.
        "order 110105194912310021",
        "my password is not working",
        "my password doesn't work",
        "my password expired.",
        "password reset please",
        "my password is wrong.",
        "password self-service portal",
        "what is my password",
        "the passphrase is required for the vault",
        "密码 reset 不了",
        "reset my password to log in",
        "my password is now expired",
        "密碼錯誤",
        "密码是什么，忘记了",
        "the token is expired",
        # 16 digits that fail Luhn.
        "batch 4111111111111112",
    ],
)
def test_ids_codes_and_internal_hosts_survive(text: str) -> None:
    assert redact(text) == text


def test_luhn_valid_19_digit_ticket_is_luhn_valid() -> None:
    digits = "2025060300011279029"
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char) * (2 if position % 2 else 1)
        total += value - 9 if value > 9 else value
    assert total % 10 == 0  # guards the case above: it really is Luhn-valid


def test_redaction_is_idempotent_and_handles_empty() -> None:
    once = redact("mail a@b.io, call 13812345678, password=x")
    assert redact(once) == once
    assert redact("") == ""
