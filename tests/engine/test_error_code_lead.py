"""An answer to a question naming an error code opens with the section about that code, not
another section of a page whose title lists several codes. Through the brain API."""

from __future__ import annotations

from brain.engine import Brain
from core.records import Message


def test_error_809_opens_with_its_own_section(brain: Brain) -> None:
    first = brain.ask(Message("What does VPN error 809 mean?", user="u1", channel="C1"))
    decision = (
        first
        if first.controller == "consultation"
        else brain.route_to(first.decision_id, "consultation", "u1")
    )

    assert decision.result is not None and decision.result.ok, decision.result
    assert "never reaches the VPN server" in decision.result.summary, decision.result.summary
    assert "800 / 809" in decision.result.citations[0], decision.result.citations
