"""The issue's must-holds, through the Brain API (real KB, MiniLM, controllers; no LLM)."""

from __future__ import annotations

from pathlib import Path

from brain.engine import Brain
from brain.signals.registry import BUILTIN_SIGNALS
from controllers.base import label_in
from controllers.tickets import TicketStore
from core.config import Settings
from core.records import Message


def test_ticket_number_takes_the_fast_path_without_a_dry_run(brain: Brain) -> None:
    decision = brain.decide(Message("process ticket 2025060300011279027"))

    assert decision.controller == "ticket"
    assert decision.tier == "fast"
    assert decision.outcome == "routed"
    assert decision.confidence >= 0.8
    assert decision.dry_runs == []
    assert decision.entities["ticket_id"] == ["2025060300011279027"]
    assert decision.llm_calls == 0
    assert "ticket" in decision.rationale
    registered = brain.parts.signals.names  # the signal registry, not a list kept here
    assert set(decision.signals["ticket"]) == {*registered, "total", "confidence"}


def test_fast_path_handle_says_honestly_when_the_ticket_does_not_exist(brain: Brain) -> None:
    decision = brain.ask(Message("process ticket 2025060300011279027"))

    assert decision.controller == "ticket"
    assert decision.result is not None
    assert decision.result.ok is False
    assert "2025060300011279027" in decision.result.summary


def test_vpn_error_with_a_ticket_number_goes_to_incident_and_keeps_the_id(brain: Brain) -> None:
    decision = brain.decide(Message("VPN 连不上，报错 691，工单 #10086"))

    assert decision.controller == "incident"
    assert decision.outcome == "routed"
    assert "10086" in decision.entities.get("ticket_id", [])
    assert "691" in decision.entities.get("error_code", [])
    assert "VPN" in decision.rationale or "vpn" in decision.rationale.lower()


def test_clicking_a_phishing_link_is_escalated(brain: Brain) -> None:
    decision = brain.decide(Message("我点开了钓鱼邮件链接"))

    assert decision.escalate is True
    assert decision.urgency == "critical"
    assert "on-call" in decision.rationale


def test_an_ordinary_question_is_not_escalated(brain: Brain) -> None:
    decision = brain.decide(Message("how do I set up the VPN client on my Mac?"))

    assert decision.escalate is False


def test_explicit_request_for_a_human_is_escalated_and_still_routed(brain: Brain) -> None:
    decision = brain.decide(Message("I want to talk to a human about my VPN error 691"))

    assert decision.escalate is True
    assert decision.controller == "incident"
    assert decision.outcome in ("routed", "composed")


def test_vague_message_without_context_is_not_routed_confidently(brain: Brain) -> None:
    decision = brain.decide(Message("help me, it's stuck", user="u-new", channel="D1"))

    assert decision.controller is None
    assert decision.confidence < 0.8
    # A request for help that says too little is asked about, not turned away.
    assert decision.outcome == "clarify" and decision.candidates
    labels = {c.name: c.label for c in brain.registry.all()}
    assert decision.clarification
    assert all(labels[name] in decision.clarification for name in decision.candidates)


def test_vague_message_follows_the_ongoing_ticket_of_the_session(home: Path, brain: Brain) -> None:
    TicketStore.open(Settings(home=home)).create(
        "ticket", title="disbursement not received", requester="u1", ticket_id="2025060300011279027"
    )
    first = brain.ask(Message("process ticket 2025060300011279027", user="u1", channel="D1"))
    assert first.controller == "ticket"

    followup = brain.decide(Message("help me, it's stuck", user="u1", channel="D1"))

    assert followup.controller == "ticket"
    assert followup.entities["ticket_id"] == ["2025060300011279027"]
    assert any(first.decision_id in note for note in followup.memory_influences)


def test_out_of_scope_request_is_not_routed(brain: Brain) -> None:
    decision = brain.decide(Message("book a table for four tonight"))

    assert decision.controller is None
    assert decision.outcome in ("clarify", "fallback")
    assert decision.escalate is False


def test_a_message_declared_out_of_scope_gets_the_honest_boundary_answer(brain: Brain) -> None:
    decision = brain.decide(Message("who won the champions league final", user="u-oos"))

    assert (decision.outcome, decision.controller, decision.tier) == ("fallback", None, "dynamic")
    router_path = [step for step in decision.tier_path if not step.startswith(("DCR", "ladder"))]
    assert "declares it out of scope" in router_path[-1]
    assert "outside every controller's responsibilities" in decision.rationale
    assert decision.clarification and "outside what I can handle" in decision.clarification
    assert decision.candidates == [] and decision.dry_runs == []


def test_an_identifier_keeps_a_message_in_scope_whatever_its_words(brain: Brain) -> None:
    decision = brain.decide(
        Message("who won the champions league final? see INC0012345", user="u-oos-id")
    )

    assert not any("declares it out of scope" in step for step in decision.tier_path)
    assert decision.entities.get("ticket_id") == ["INC0012345"]


def test_clarification_names_candidates_in_plain_words_and_chinese_for_chinese(
    brain: Brain,
) -> None:
    decision = brain.decide(Message("帮帮我，卡住了", user="u-zh", channel="D9"))

    assert decision.controller is None
    # a request for help that says too little is asked about, never turned away (README)
    assert decision.outcome == "clarify" and decision.candidates, decision.tier_path
    assert decision.clarification and "？" in decision.clarification
    # The candidates are named in the asker's language (Chinese parity).
    labels = {c.name: label_in(c, "zh") for c in brain.registry.all()}
    assert any(labels[c] in decision.clarification for c in decision.candidates)
    assert all(labels[c] != c.capitalize() for c in decision.candidates)


def test_every_controller_has_every_registered_signal_and_the_decision_is_logged(
    brain: Brain,
) -> None:
    decision = brain.decide(Message("disk /var 95% on app-03, what should I check?"))

    assert set(decision.signals) == set(brain.registry.names())
    weights = brain.settings.routing.signal_weights()
    registered = set(brain.parts.signals.names)
    assert {kind.name for kind in BUILTIN_SIGNALS} <= registered
    for row in decision.signals.values():
        assert set(row.signals) == registered
        for value in row.values():
            assert 0.0 <= value <= 1.0
        weighted = sum(weights[name] * value for name, value in row.signals.items())
        assert abs(row.total - weighted) < 1e-3
    # the strongest controller is supported by what the message says, not by priors alone
    best = max(decision.signals.values(), key=lambda row: row.total)
    assert any(best.signals[name] > 0 for name in ("keyword", "semantic", "knowledge"))
    assert best.total > min(row.total for row in decision.signals.values())
    assert brain.get_decision(decision.decision_id).to_dict() == decision.to_dict()
    assert brain.last_decision("cli", "cli") is not None
    assert decision.decision_id.startswith("d-") and len(decision.decision_id) == 14
