"""After a 👎 the asker can say why, through "Say why" and its modal, over HTTP against the fake
Slack; the reason is stored (redacted) with the rejection and shown by `brain why`."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.blocks import ACTION_REASON, BLOCK_REASON, REASON_BLOCK, REASON_INPUT
from bot.listeners.reasons import VIEW_REASON
from tests.bot import slack_payloads as p
from tests.bot.conftest import ROUTED_TEXT, Harness
from tests.fakes.slack_api import Call

#: One running bot for the module; each test has a user and DM of its own (`shared_harness`).
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture
def harness(shared_harness: Harness) -> Harness:
    return shared_harness


async def _thumbs_down(harness: Harness, text: str) -> tuple[str, Call, str]:
    """Ask, 👎 the reply as its asker; (decision id, the prompt posted after it, its ts)."""
    event = p.message(text)
    await harness.event(event)
    [reply] = await harness.fake.wait_for("chat.postMessage", 1)
    await harness.idle()
    ts = harness.fake.posted_ts[0]
    decision_id = next(
        b["block_id"].split(":", 1)[1]
        for b in reply.params["blocks"]
        if b.get("block_id", "").startswith("brain_decision:")
    )
    item = {"type": "message", "channel": event["channel"], "ts": ts}
    await harness.event(
        {"type": "reaction_added", "user": p.asker(), "reaction": "-1", "item": item}
    )
    posts = await harness.fake.wait_for("chat.postMessage", 2)
    await harness.idle()
    return decision_id, posts[1], harness.fake.posted_ts[1]


def _click_say_why(user: str, prompt: Call, ts: str, decision_id: str) -> dict[str, Any]:
    message = {
        "type": "message",
        "ts": ts,
        "thread_ts": prompt.params.get("thread_ts"),
        "blocks": prompt.params["blocks"],
    }
    return p.block_action(
        user=user,
        channel=str(prompt.params["channel"]),
        message=message,
        action_id=ACTION_REASON,
        block_id=BLOCK_REASON + decision_id,
        value=decision_id,
    )


def _submission(user: str, view: dict[str, Any], reason: str) -> dict[str, Any]:
    values = {REASON_BLOCK: {REASON_INPUT: {"type": "plain_text_input", "value": reason}}}
    return p.view_submission(user, view, values)


async def test_the_asker_says_why_and_the_reason_is_kept_with_the_rejection(
    harness: Harness,
) -> None:
    decision_id, prompt, ts = await _thumbs_down(harness, ROUTED_TEXT)
    buttons = [
        e
        for b in prompt.params["blocks"]
        if b.get("block_id") == BLOCK_REASON + decision_id
        for e in b["elements"]
    ]
    assert [b["action_id"] for b in buttons] == [ACTION_REASON]
    assert (await harness.click(_click_say_why(p.asker(), prompt, ts, decision_id)))[0] == 200
    opened = (await harness.fake.wait_for("views.open"))[0].params
    view = opened["view"] if isinstance(opened["view"], dict) else json.loads(opened["view"])
    assert view["callback_id"] == VIEW_REASON
    reason = "it's an order for new kit, not a fault; my password is Hunter2!x"
    assert (await harness.click(_submission(p.asker(), view, reason)))[0] == 200
    posts = await harness.fake.wait_for("chat.postMessage", 3)
    await harness.idle()
    assert posts[2].params["thread_ts"] == prompt.params["thread_ts"]
    assert "noted why" in posts[2].params["text"]
    feedback = harness.brain.get_decision(decision_id).feedback
    assert [f.kind for f in feedback] == ["reject", "reject"]
    assert feedback[1].reason.startswith("it's an order for new kit")
    assert "Hunter2" not in feedback[1].reason
    assert feedback[1].persisted == []  # the rejection taught the memory once, not twice


async def test_a_bystander_cannot_say_why_for_the_asker(harness: Harness) -> None:
    decision_id, prompt, ts = await _thumbs_down(harness, ROUTED_TEXT)
    assert (await harness.click(_click_say_why("UOTHER01", prompt, ts, decision_id)))[0] == 200
    notes = await harness.fake.wait_for("chat.postEphemeral", 1)
    await harness.idle()
    assert notes[0].params["user"] == "UOTHER01"
    assert harness.fake.of("views.open") == []
    view = {"type": "modal", "callback_id": VIEW_REASON, "private_metadata": json.dumps(
        {"decision_id": decision_id, "channel": prompt.params["channel"], "thread_ts": ts}
    )}  # fmt: skip
    assert (await harness.click(_submission("UOTHER01", view, "not theirs")))[0] == 200
    await harness.idle()
    feedback = harness.brain.get_decision(decision_id).feedback
    assert [f.reason for f in feedback] == [""]
