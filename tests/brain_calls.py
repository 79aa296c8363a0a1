"""Calls of the brain API the engine tests share."""

from __future__ import annotations

from brain.engine import Brain
from core.records import Decision, Message


def answered_by(brain: Brain, text: str, controller: str = "consultation") -> Decision:
    """`text` asked by u1 and taken by `controller`: the decision when the brain routed it
    there, else the same message routed there by hand (`Brain.route_to`), so an answer is
    tested whatever the router made of the question."""
    first = brain.ask(Message(text, user="u1", channel="C1"))
    if first.controller == controller and first.result is not None:
        return first
    return brain.route_to(first.decision_id, controller, "u1")
