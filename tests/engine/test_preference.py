"""A correction is the corrector's preference, under the compliance rules (seed 000, s. 8)."""

from __future__ import annotations

from brain.engine import Brain
from core.records import Message


def test_a_compliance_rule_beats_the_users_preference(brain: Brain) -> None:
    phishing = "I clicked a link in a phishing email and typed my password into the page"
    first = brain.ask(Message(phishing, user="U1", channel="C1"))
    assert first.controller == "incident" and first.escalate
    brain.feedback(first.decision_id, "correct", controller="consultation", user="U1")

    again = brain.ask(
        Message(
            "I clicked a phishing link and entered my password on the fake login page",
            user="U1",
            channel="C2",
        )
    )

    assert again.controller == "incident", again.tier_path
    assert again.escalate
    assert "compliance rule" in again.rationale
    assert "you moved a message like this" in again.rationale  # the lesson is named, not used
    assert any(step.startswith("compliance:") for step in again.tier_path)


def test_a_preference_is_honoured_when_its_controller_lacks_a_parameter(brain: Brain) -> None:
    # A failed job that names no kind of problem: the incident controller lacks its category
    # ("the payroll export job" names software, which the learned category model reads).
    first = brain.ask(Message("the nightly job failed tonight", user="U1", channel="C1"))
    assert first.controller != "incident", first.tier_path
    brain.feedback(first.decision_id, "correct", controller="incident", user="U1")

    again = brain.ask(Message("the nightly job failed again tonight", user="U1", channel="C2"))

    assert again.controller == "incident", again.tier_path
    assert again.outcome == "routed" and again.tier == "verify"
    assert [(d.controller, d.ok, d.missing) for d in again.dry_runs] == [
        ("incident", False, ["category"])
    ]
    assert again.result is not None and again.result.missing == ["category"]
    assert "lacks category, which it asks for" in again.rationale
    # Someone else's identical message is decided on its own.
    other = brain.ask(Message("the nightly job failed again tonight", user="U9", channel="C3"))
    assert other.controller != "incident"
