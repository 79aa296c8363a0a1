"""App Home over HTTP: opening it publishes the person's decisions and lessons; its buttons
act only on what is the clicker's own."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.helpdesk.home import ACTION_FORGET, ACTION_REROUTE, VIEW_BLOCKS, HomeData, home_view
from brain.conversation.reply import Choice
from tests.bot import slack_payloads as p
from tests.bot.conftest import ROUTED_TEXT, Harness
from tests.fakes.slack_api import TEAM_ID

#: One running bot for the module's async tests (each marked so); each test has a user and DM
#: of its own (`shared_harness`).
SHARED_BOT = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture
def harness(shared_harness: Harness) -> Harness:
    return shared_harness


OTHER_TEXT = "I need access to the finance share drive"


def home_click(user: str, action: dict[str, Any]) -> dict[str, Any]:
    """A block_actions payload from the Home tab (a view container, no channel)."""
    return {
        "type": "block_actions",
        "team": {"id": TEAM_ID},
        "user": {"id": user, "team_id": TEAM_ID},
        "api_app_id": "AAPP0001",
        "trigger_id": "trigger",
        "container": {"type": "view", "view_id": "VHOME"},
        "view": {"id": "VHOME", "type": "home", "blocks": []},
        "actions": [{"action_ts": "1", **action}],
    }


async def open_home(harness: Harness, user: str) -> dict[str, Any]:
    before = len(harness.fake.of("views.publish"))
    await harness.event({"type": "app_home_opened", "user": user, "tab": "home",
                         "channel": "DHOME0001", "event_ts": p.new_ts()})  # fmt: skip
    calls = await harness.fake.wait_for("views.publish", before + 1)
    await harness.idle()
    call = calls[-1].params
    assert call["user_id"] == user
    view = call["view"]
    return view if isinstance(view, dict) else json.loads(view)


def texts(view: dict[str, Any]) -> str:
    return json.dumps(view["blocks"])


async def ask(harness: Harness, text: str) -> None:
    before = len(harness.fake.of("chat.postMessage"))
    await harness.event(p.message(text))
    await harness.fake.wait_for("chat.postMessage", before + 1)
    await harness.idle()


@SHARED_BOT
async def test_home_lists_decisions_and_the_lesson_and_forget_removes_it(
    harness: Harness,
) -> None:
    await ask(harness, ROUTED_TEXT)
    await ask(harness, OTHER_TEXT)
    view = await open_home(harness, p.asker())
    assert ROUTED_TEXT.split(",")[0] in texts(view) and "finance share drive" in texts(view)
    blocks = view["blocks"]
    decisions = [b for b in blocks if b.get("block_id", "").startswith("brain_home_decision:")]
    assert len(decisions) == 2
    actions = next(b for i, b in enumerate(blocks) if b in decisions
                   and ROUTED_TEXT.split(",")[0] in json.dumps(blocks[i - 1]))  # fmt: skip
    # One correction, from the Home itself.
    await harness.click(home_click(p.asker(), {
        "type": "static_select", "action_id": ACTION_REROUTE,
        "block_id": actions["block_id"], "selected_option": {"value": "change"}}))  # fmt: skip
    await harness.fake.wait_for("views.publish", 2)
    await harness.idle()
    view = await open_home(harness, p.asker())
    forgets = [b for b in view["blocks"]
               if (b.get("accessory") or {}).get("action_id") == ACTION_FORGET]  # fmt: skip
    # The correction taught "not IT support" and "Change and assets".
    taught = [b for b in forgets if "Change and assets" in b["text"]["text"]]
    assert len(taught) == 1, texts(view)
    memory_id = taught[0]["accessory"]["value"]
    # Someone else's Forget of that lesson changes nothing.
    await harness.click(home_click("UOTHER01", {
        "type": "button", "action_id": ACTION_FORGET, "value": memory_id}))  # fmt: skip
    await harness.idle()
    assert memory_id in {e.memory_id for e in harness.brain.memory.entries()}
    await harness.click(home_click(p.asker(), {
        "type": "button", "action_id": ACTION_FORGET, "value": memory_id}))  # fmt: skip
    await harness.idle()
    assert memory_id not in {e.memory_id for e in harness.brain.memory.entries()}
    view = await open_home(harness, p.asker())
    assert memory_id not in texts(view)


@SHARED_BOT
async def test_another_users_home_shows_none_of_it(harness: Harness) -> None:
    await ask(harness, ROUTED_TEXT)
    view = await open_home(harness, "UOTHER01")
    assert "VPN" not in texts(view)


def test_a_long_home_is_paged_within_slacks_block_limit() -> None:
    choices = [Choice("access", "Access")]
    data = HomeData(
        tickets=[(f"INC-{i:06d}", "open", "t") for i in range(300)],
        decisions=[(f"d{i}", "text", "Incident", choices) for i in range(300)],
        lessons=[(f"m{i}", "Incident", "text") for i in range(300)],
        figures={"lessons": 300},
    )
    first, last = home_view(data, 0), home_view(data, 300 // 8)
    assert len(first["blocks"]) <= VIEW_BLOCKS and len(last["blocks"]) <= VIEW_BLOCKS
    assert "Next" in json.dumps(first["blocks"][-1]) and "Previous" in json.dumps(last["blocks"])
