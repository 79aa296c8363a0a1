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


def test_each_part_of_a_chinese_message_says_how_sure_in_chinese(brain: Brain) -> None:
    """Slack draws each request with its own line of confidence and path: it was English
    ("confidence 0.83 · fast path") under a Chinese request."""
    (reply,) = chat_thread(brain, "VPN 连不上，另外我需要开通 Grafana 权限")
    assert len(reply.parts) == 2
    for part in reply.parts:
        assert part.rationale.startswith("置信度 "), part.rationale
        assert "confidence" not in part.rationale and "path" not in part.rationale


def test_each_part_of_an_english_message_keeps_its_english_line(brain: Brain) -> None:
    (reply,) = chat_thread(brain, "reset my password and also my laptop screen is broken")
    assert [p.rationale.split(" · ")[0].split()[0] for p in reply.parts] == ["confidence"] * 2
    assert all(p.rationale.endswith(" path") for p in reply.parts)
