"""Block Kit limits are respected by shortening, never by failing or dropping the way out:
more than 25 candidates, more than 100 controllers, labels over 75 characters, long quotes."""

from __future__ import annotations

from typing import Any

from bot.blocks import (
    ACTIONS_ELEMENTS,
    BUTTON_TEXT,
    FALLBACK_TEXT,
    OPTION_TEXT,
    SECTION_TEXT,
    SELECT_OPTIONS,
    alert_blocks,
    message_blocks,
    reroute_prompt_blocks,
)
from brain.conversation.reply import NONE_OF_THESE, Choice, Reply
from tests.records import make_decision

LONG = "Payroll and benefits desk for every region, " * 4  # > 75 characters


def _choices(count: int) -> list[Choice]:
    return [Choice(f"controller_{i:03d}", f"{LONG}#{i}") for i in range(count)]


def test_more_than_25_candidates_keep_none_of_these_and_short_labels() -> None:
    decision = make_decision(decision_id="d-many", controller=None, outcome="clarify")
    choices = [*_choices(40), Choice(NONE_OF_THESE, "None of these")]
    reply = Reply("clarify", "Which team?", decision, choices=choices, rationale="vague")
    actions = next(b for b in message_blocks(reply) if b["type"] == "actions")
    buttons = actions["elements"]
    assert len(buttons) == ACTIONS_ELEMENTS
    assert buttons[-1]["value"] == NONE_OF_THESE  # the way out is never cut off
    assert [b["value"] for b in buttons[:-1]] == [c.value for c in choices[: ACTIONS_ELEMENTS - 1]]
    for button in buttons[:-1]:
        label = button["text"]["text"]
        assert len(label) == BUTTON_TEXT and label.endswith("…")


def _select(blocks: list[dict[str, Any]]) -> dict[str, Any]:
    actions = next(b for b in blocks if b["type"] == "actions")
    return next(e for e in actions["elements"] if e["type"] == "static_select")


def test_more_than_100_controllers_fit_one_select_with_short_labels() -> None:
    decision = make_decision(decision_id="d-wide", controller="controller_000")
    reply = Reply(
        "answer",
        "Routed.",
        decision,
        controller="controller_000",
        rationale="sure",
        reroute_choices=_choices(150),
    )
    options = _select(message_blocks(reply))["options"]
    assert len(options) == SELECT_OPTIONS
    assert all(len(o["text"]["text"]) <= OPTION_TEXT for o in options)
    assert options[0]["text"]["text"].endswith("…")
    prompt = _select(reroute_prompt_blocks("d-wide", "Where should it go?", _choices(150)))
    assert len(prompt["options"]) == SELECT_OPTIONS


def test_a_long_quote_in_an_oncall_alert_is_cut_with_an_ellipsis() -> None:
    blocks = alert_blocks(
        alert_id="a1",
        mention="<!subteam^S1>",
        asker="U1",
        text="ransomware <!channel> " + "y" * 20_000,
        urgency="critical",
        permalink=None,
        summary="s" * 5_000,
        resend=2,
    )
    quote = blocks[1]["text"]["text"]
    assert len(quote) == SECTION_TEXT and quote.endswith("…")
    assert "<!channel>" not in quote and "&lt;!channel&gt;" in quote
    context = blocks[2]["elements"][0]["text"]
    assert len(context) <= FALLBACK_TEXT and context.endswith("…")
