"""Slack blocks and terminal text are drawn from a `Reply` alone: no brain, no registry."""

from __future__ import annotations

from typing import Any

from bot.blocks import (
    ACTION_CONFIRM,
    ACTION_REASON,
    ACTION_REROUTE,
    BLOCK_CLARIFY,
    BLOCK_DECISION,
    BLOCK_REASON,
    BLOCK_REROUTE,
    message_blocks,
)
from brain.conversation.reply import NONE_OF_THESE, Choice, Reply, render_decision
from cli.chat_session import render
from core.records import Decision, SignalScores
from tests.records import make_decision

#: Labels no registry has: if they show up, they came from the record.
LABELS = {"payroll": "Payroll team", "facilities": "Facilities <desk>", "badge": "Badge office"}


def _decision(**fields: Any) -> Decision:
    hand_made: dict[str, Any] = {
        "decision_id": "d-hand-made",
        "text": "my payslip is wrong",
        "user": "U1",
        "channel": "D1",
        "controller": "payroll",
        "confidence": 0.91,
        "tier": "fast",
    }
    return make_decision(**{**hand_made, **fields})


def _texts(blocks: list[dict[str, Any]]) -> list[str]:
    found = []
    for block in blocks:
        if block["type"] == "section":
            found.append(block["text"]["text"])
        elif block["type"] == "context":
            found.extend(element["text"] for element in block["elements"])
    return found


def test_answer_blocks_come_from_a_reply_built_by_hand() -> None:
    reply = Reply(
        "answer",
        "Routed to Payroll team.\nCase PAY-7 opened",
        _decision(),
        controller="payroll",
        controller_label="Payroll team",
        headline="Routed to Payroll team.",
        result_lines=["Case PAY-7 opened"],
        rationale="confidence 0.91 · fast path · top signals: keywords 0.80",
        reroute_choices=[
            Choice("facilities", "Facilities <desk>"),
            Choice("badge", "Badge office"),
        ],
    )
    blocks = message_blocks(reply)
    assert _texts(blocks) == [
        "Routed to Payroll team.\nCase PAY-7 opened",
        "confidence 0.91 · fast path · top signals: keywords 0.80",
    ]
    actions = blocks[-1]
    assert actions["block_id"] == BLOCK_DECISION + "d-hand-made"
    right, elsewhere = actions["elements"]
    assert (right["action_id"], right["value"]) == (ACTION_CONFIRM, "d-hand-made")
    assert elsewhere["action_id"] == ACTION_REROUTE
    assert [(o["value"], o["text"]["text"]) for o in elsewhere["options"]] == [
        ("facilities", "Facilities <desk>"),
        ("badge", "Badge office"),
    ]
    assert reply.summary == (
        "Routed to Payroll team. confidence 0.91 · fast path · top signals: keywords 0.80 "
        "· decision d-hand-made"
    )


def test_a_rerouted_answer_has_no_right_button() -> None:
    reply = Reply(
        "answer",
        "Rerouted to Badge office.",
        _decision(),
        controller="badge",
        rationale="chosen by a person (the brain had Payroll team)",
        reroute_choices=[Choice("payroll", "Payroll team")],
    )
    elements = message_blocks(reply)[-1]["elements"]
    assert [e["action_id"] for e in elements] == [ACTION_REROUTE]


def test_clarification_and_reroute_prompt_blocks_come_from_the_reply() -> None:
    decision = _decision(controller=None, outcome="clarify", candidates=["payroll", "badge"])
    clarify = Reply(
        "clarify",
        "Is it about pay or badges?",
        decision,
        choices=[
            Choice("payroll", "Payroll team"),
            Choice("badge", "Badge office"),
            Choice(NONE_OF_THESE, "None of these"),
        ],
        rationale="confidence 0.30 · dynamic path",
    )
    blocks = message_blocks(clarify)
    buttons = next(b for b in blocks if b.get("block_id") == BLOCK_CLARIFY + "d-hand-made")
    assert [(b["text"]["text"], b["value"]) for b in buttons["elements"]] == [
        ("Payroll team", "payroll"),
        ("Badge office", "badge"),
        ("None of these", NONE_OF_THESE),
    ]
    assert _texts(blocks) == ["Is it about pay or badges?", "confidence 0.30 · dynamic path"]
    rejected = Reply(
        "feedback", "Where should it go?", _decision(), choices=[Choice("badge", "Badge office")]
    )
    prompt = {b["block_id"]: b for b in message_blocks(rejected) if "block_id" in b}
    reroute = prompt[BLOCK_REROUTE + "d-hand-made"]
    assert reroute["elements"][0]["options"][0]["text"]["text"] == "Badge office"
    [say_why] = prompt[BLOCK_REASON + "d-hand-made"]["elements"]
    assert say_why["action_id"] == ACTION_REASON and say_why["value"] == "d-hand-made"


def test_the_reply_of_a_decision_carries_labels_choices_and_rationale() -> None:
    decision = _decision(
        supporting=["badge"],
        urgency="high",
        signals={
            "payroll": SignalScores(
                signals={"keyword": 0.8, "semantic": 0.6, "memory": 0.1}, total=0.7
            )
        },
    )
    reply = render_decision(decision, LABELS)
    assert reply.headline == "Routed to Payroll team (with Badge office)."
    assert reply.controller_label == "Payroll team"
    assert reply.rationale == (
        "confidence 0.91 · fast path · top signals: keywords 0.80, meaning 0.60, "
        "past feedback 0.10 · urgency high"
    )
    assert reply.reroute_choices == [
        Choice("facilities", "Facilities <desk>"),
        Choice("badge", "Badge office"),
    ]
    rerouted = render_decision(decision, LABELS, controller="badge")
    assert rerouted.text.startswith("Rerouted to Badge office.")
    assert rerouted.rationale.startswith("chosen by a person (the brain had Payroll team)")
    assert not rerouted.confirmable and reply.confirmable


def test_slack_and_the_terminal_show_the_same_record() -> None:
    decision = _decision(controller=None, outcome="clarify", candidates=["payroll", "badge"])
    reply = render_decision(decision, LABELS)
    slack = message_blocks(reply)
    terminal = render(reply).splitlines()
    assert [b["text"]["text"] for b in slack[1]["elements"]] == [
        "Payroll team",
        "Badge office",
        "None of these",
    ]
    assert terminal[1:4] == [
        "  1. Payroll team [payroll]",
        "  2. Badge office [badge]",
        "  3. None of these",
    ]
    assert f"  ({reply.rationale})" in terminal
    assert reply.rationale in _texts(slack)
