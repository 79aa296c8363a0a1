"""Context carries over only with evidence that the message refers to it."""

from __future__ import annotations

from brain.engine import Brain
from core.records import Message


def test_a_new_topic_after_a_malware_report_is_decided_on_its_own(brain: Brain) -> None:
    malware = brain.ask(
        Message(
            "I think my laptop has malware, a ransomware popup",
            user="U5",
            channel="C5",
            thread="T1",
        )
    )
    assert malware.controller == "incident" and malware.escalate  # precondition

    coffee = brain.ask(
        Message("coffee machine on floor 2 is leaking", user="U5", channel="C5", thread="T1")
    )

    assert coffee.controller != "incident" and not coffee.escalate, coffee.tier_path
    assert any("context: not used" in note for note in coffee.memory_influences)
    assert "security" not in str(coffee.result.to_dict() if coffee.result else "")


def test_a_vague_follow_up_goes_where_the_work_is_with_its_ids(brain: Brain) -> None:
    first = brain.ask(
        Message(
            "my VPN keeps dropping, error 691 on laptop LT-0042",
            user="U6",
            channel="C6",
            thread="T2",
        )
    )
    assert first.controller == "incident"  # precondition

    for text in ("it's stuck again", "还是不行"):
        again = brain.ask(Message(text, user="U6", channel="C6", thread="T2"))
        assert again.controller == "incident", again.tier_path
        assert again.outcome == "routed"
        assert "LT-0042" in again.entities.get("asset_tag", []), again.entities
        assert any("because it refers back" in note for note in again.memory_influences)
        assert "because it refers back" in again.rationale
