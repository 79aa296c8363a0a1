"""A message of two requests is answered in its asker's language from its first line: a
Chinese one opened with "2 requests: IT support (primary); Knowledge (supporting)." and
numbered its parts with English roles."""

from __future__ import annotations

from brain.engine import Brain
from tests.chat_threads import chat_thread


def test_a_chinese_message_of_two_requests_is_headed_in_chinese(brain: Brain) -> None:
    (reply,) = chat_thread(brain, "VPN 连不上，另外我需要开通 Grafana 权限")
    head, first = reply.text.splitlines()[:2]
    assert head.startswith("2 个请求：") and "（主要）" in head, head
    assert first.startswith("1. ") and "（主要）- “" in first, first
    for english in ("requests", "primary", "supporting"):
        assert english not in reply.text, reply.text


def test_an_english_message_of_two_requests_keeps_its_english_head(brain: Brain) -> None:
    (reply,) = chat_thread(brain, "reset my password and also my laptop screen is broken")
    head = reply.text.splitlines()[0]
    assert head.startswith("2 requests: ") and "(primary)" in head, head
