"""The one feedback API: stored with the decision, durable, idempotent, and it teaches memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from brain.engine import Brain
from controllers.tickets import TicketStore
from core.config import Settings
from core.errors import InvalidFeedback, UnknownController, UnknownDecision
from core.records import Message

WORK_ORDER = "2025060300011279027"


def test_feedback_is_stored_with_the_decision_and_survives_reopening(brain: Brain) -> None:
    decision = brain.decide(Message("VPN 连不上，报错 691", user="u1", channel="D1"))

    updated = brain.feedback(decision.decision_id, "confirm", user="u1", source="slack")

    assert updated.feedback[0].kind == "confirm"
    assert updated.feedback[0].user == "u1"
    assert updated.feedback[0].source == "slack"
    assert updated.feedback[0].at
    brain.close()
    reopened = Brain.open()
    try:
        stored = reopened.get_decision(decision.decision_id)
        explained = reopened.explain(decision.decision_id).to_dict()
    finally:
        reopened.close()
    assert [f.kind for f in stored.feedback] == ["confirm"]
    assert explained["feedback"][0]["source"] == "slack"


def test_the_same_feedback_twice_is_recorded_once(brain: Brain) -> None:
    decision = brain.decide(Message("reset my AD password please"))

    brain.feedback(decision.decision_id, "reject", user="u2")
    again = brain.feedback(decision.decision_id, "reject", user="u2")

    assert len(again.feedback) == 1
    assert len(brain.memory) == (1 if decision.controller else 0)


def test_bad_feedback_gets_clear_errors(brain: Brain) -> None:
    decision = brain.decide(Message("reset my AD password please"))

    with pytest.raises(UnknownDecision, match="d-000000000000"):
        brain.feedback("d-000000000000", "confirm")
    with pytest.raises(UnknownController, match="payroll"):
        brain.feedback(decision.decision_id, "correct", controller="payroll")
    with pytest.raises(InvalidFeedback):
        brain.feedback(decision.decision_id, "correct")
    with pytest.raises(InvalidFeedback):
        brain.feedback(decision.decision_id, "love-it")
    assert brain.get_decision(decision.decision_id).feedback == []


def test_a_correction_changes_the_next_similar_decision(home: Path, brain: Brain) -> None:
    # Seed 000: "money not arrived" goes to consultation; the user corrects it to the ticket
    # desk (they are chasing a disbursement work order); similar messages then go there.
    TicketStore.open(Settings(home=home)).create(
        "ticket", title="disbursement not received", requester="u1", ticket_id=WORK_ORDER
    )
    similar = "钱没到账怎么办，单子呢？"
    before = brain.decide(Message(similar, user="u1", channel="D0"))
    assert before.controller == "consultation"
    first = brain.decide(Message("钱没到账怎么办？", user="u1", channel="D1"))
    assert first.controller == "consultation"

    corrected = brain.feedback(first.decision_id, "correct", controller="ticket", user="u1")
    persisted = corrected.feedback[-1].persisted
    assert any("-0.15 for consultation" in note for note in persisted)
    assert any("+0.10 for ticket" in note for note in persisted)

    after = brain.decide(Message(similar, user="u1", channel="D2"))

    assert after.signals["ticket"]["memory"] > 0.5
    assert after.signals["consultation"]["memory"] < 0.5
    assert after.signals["ticket"]["session"] == 0.5  # another conversation: memory, not session
    assert after.controller == "ticket", after.tier_path
    assert any("memory: you moved a message like this" in step for step in after.tier_path)
    assert "you moved a message like this" in after.rationale
    assert any("corrected" in note for note in after.memory_influences)


def test_memory_is_about_similar_messages_not_the_controller_globally(brain: Brain) -> None:
    first = brain.decide(Message("order 88123 money not arrived yet", user="u1", channel="D1"))
    brain.feedback(first.decision_id, "correct", controller="ticket", user="u1")

    unrelated = brain.decide(Message("the printer on floor 3 is jammed", user="u1", channel="D3"))

    assert unrelated.signals["ticket"]["memory"] == 0.5
    assert not any("memory:" in note for note in unrelated.memory_influences)


def test_route_to_after_a_clarification_runs_the_controller_and_counts_as_correction(
    brain: Brain,
) -> None:
    decision = brain.decide(Message("help me, it's stuck", user="u5", channel="D5"))
    assert decision.controller is None

    routed = brain.route_to(decision.decision_id, "incident", user="u5")

    assert routed.feedback[-1].kind == "correct"
    assert routed.feedback[-1].controller == "incident"
    assert routed.result is not None and routed.result.controller == "incident"
    assert brain.get_decision(decision.decision_id).result == routed.result


def test_session_signal_rewards_earlier_successes_in_the_conversation(brain: Brain) -> None:
    first = brain.decide(Message("VPN 连不上，报错 691", user="u7", channel="D7"))
    assert first.controller == "incident"
    brain.feedback(first.decision_id, "confirm", user="u7")

    second = brain.decide(Message("my laptop screen flickers", user="u7", channel="D7"))
    other = brain.decide(Message("my laptop screen flickers", user="u8", channel="D8"))

    assert second.signals["incident"]["session"] > 0.5
    assert other.signals["incident"]["session"] == 0.5


def test_two_unchallenged_successes_in_a_row_are_persisted(brain: Brain) -> None:
    for text in ("VPN 连不上，报错 691", "VPN error 691 again after reboot", "thanks"):
        decision = brain.ask(Message(text, user="u9", channel="D9"))
        if decision.controller == "incident":
            assert decision.result is not None and decision.result.ok

    kinds = {(m.kind, m.controller) for m in brain.memory.entries()}
    assert ("consecutive", "incident") in kinds


def test_unchallenged_routes_whose_controller_did_not_run_teach_nothing(brain: Brain) -> None:
    """Lessons only from evidence: a route nobody corrected is not yet a right one; without
    the controller's success (or a confirmation) a misroute would teach the memory."""
    for text in ("VPN 连不上，报错 691", "VPN error 691 again after reboot", "thanks"):
        brain.decide(Message(text, user="u9", channel="D9"))

    assert [m.kind for m in brain.memory.entries()] == []
