"""A Chinese question is verified against the passages that mean most what it asks, not those
MiniLM (English-only) ranks first. Through the brain API: the answering controller's reply
as the decision records it."""

from __future__ import annotations

from brain.engine import Brain
from core.records import Decision, Message


def _answered(brain: Brain, text: str) -> Decision:
    first = brain.ask(Message(text, user="u1", channel="C1"))
    if first.controller == "consultation" and first.result is not None:
        return first
    return brain.route_to(first.decision_id, "consultation", "u1")


def test_the_support_hours_are_read_before_sections_minilm_puts_first(brain: Brain) -> None:
    """MiniLM cannot read Chinese and ranks a laptop-battery section above the support
    hours; the multilingual encoder reads the question."""
    decision = _answered(brain, "服务台几点上班")

    assert decision.result is not None and decision.result.ok, decision.result
    assert "周六 09:00-13:00" in decision.result.summary, decision.result.summary
    assert decision.result.citations
