"""Bad input gets a clear error or a safe decision; nothing crashes, nothing stored is lost."""

from __future__ import annotations

import pytest

from brain.engine import STORED_TEXT_CAP, Brain
from core.records import Message


@pytest.mark.parametrize("text", ["", "   ", "\n\t\n", "\x00\x01\x02"])
def test_empty_messages_are_refused_with_a_clear_message(brain: Brain, text: str) -> None:
    with pytest.raises(ValueError, match="empty"):
        brain.decide(Message(text))


def test_a_100kb_message_is_decided_and_stored_truncated(brain: Brain) -> None:
    text = "VPN error 691 when connecting from home. " * 2600  # ~100 KB

    decision = brain.decide(Message(text))

    assert decision.controller == "incident"
    assert len(decision.text) <= STORED_TEXT_CAP + 20
    assert decision.text.endswith("[truncated]")
    assert brain.get_decision(decision.decision_id).text == decision.text


def test_control_characters_are_stripped(brain: Brain) -> None:
    decision = brain.decide(Message("VPN\x00 error\x1b 691\u200b please"))

    assert "\x00" not in decision.text and "\x1b" not in decision.text
    assert decision.controller == "incident"


def test_binary_looking_text_gets_a_safe_decision(brain: Brain) -> None:
    junk = bytes(range(256)).decode("latin-1") * 4

    decision = brain.decide(Message(junk))

    # junk says nothing a controller could act on: it is held back, never routed or paged
    assert decision.controller is None and decision.supporting == []
    assert decision.outcome in ("clarify", "fallback")
    assert decision.escalate is False
    assert "\x00" not in decision.text
    assert brain.get_decision(decision.decision_id).text == decision.text


def test_unknown_decision_lookups_return_none_or_raise(brain: Brain) -> None:
    assert brain.last_decision("nobody", "nowhere") is None
    with pytest.raises(KeyError):
        brain.get_decision("")
