"""`/brain` opens the "New request" modal and its submission is decided; the message shortcut
answers in the message's thread; a 429 with Retry-After is waited out and nothing is lost."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.helpdesk.modals import NEW_COMMAND, SHORTCUT, VIEW_NEW
from core.config import load_settings
from tests.bot import slack_payloads as p
from tests.bot.conftest import ROUTED_TEXT, Harness, StartBot
from tests.fakes.slack_api import TEAM_ID

#: One running bot for the module; each test has a user and DM of its own (`shared_harness`).
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture
def harness(shared_harness: Harness) -> Harness:
    return shared_harness


def submission(user: str, view: dict[str, Any], description: str) -> dict[str, Any]:
    values = {
        "description": {"value": {"type": "plain_text_input", "value": description}},
        "priority": {"value": {"type": "static_select", "selected_option": {"value": "P3"}}},
    }
    return p.view_submission(user, view, values)


async def test_brain_opens_the_modal_and_its_submission_creates_a_decision(
    harness: Harness,
) -> None:
    status, _ = await harness.command(NEW_COMMAND, "", user=p.asker(), channel="CHELP0001")
    assert status == 200
    opened = (await harness.fake.wait_for("views.open"))[0].params
    assert opened["trigger_id"] == "trigger"
    view = opened["view"] if isinstance(opened["view"], dict) else json.loads(opened["view"])
    assert view["callback_id"] == VIEW_NEW and view["private_metadata"] == "CHELP0001"
    status, _ = await harness.click(submission(p.asker(), view, ROUTED_TEXT))
    assert status == 200
    posts = await harness.fake.wait_for("chat.postMessage", 2)
    await harness.idle()
    root = harness.fake.posted_ts[0]
    assert (
        posts[0].params["channel"] == "CHELP0001" and f"<@{p.asker()}>" in posts[0].params["text"]
    )
    assert posts[1].params["thread_ts"] == root
    link = harness.bot.services.links.get("CHELP0001", root)
    assert link is not None and link.asker == p.asker()
    decision = harness.brain.get_decision(link.decision_id)
    assert decision.user == p.asker() and "VPN" in decision.text


async def test_the_shortcut_answers_in_the_messages_thread(harness: Harness) -> None:
    original = p.new_ts()
    shortcut = {
        "type": "message_action",
        "callback_id": SHORTCUT,
        "team": {"id": TEAM_ID},
        "user": {"id": p.asker(), "team_id": TEAM_ID},
        "channel": {"id": "CALERTS01"},
        "message": {
            "type": "message",
            "ts": original,
            "bot_id": "BALERTS",
            "text": "ALERT: disk usage 97% on db-01",
        },
        "trigger_id": "trigger",
        "response_url": harness.fake.response_url("shortcut"),
    }
    assert (await harness.click(shortcut))[0] == 200
    posts = await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    assert posts[0].params["channel"] == "CALERTS01" and posts[0].params["thread_ts"] == original


async def test_a_429_is_waited_out_and_the_reply_is_not_lost(harness: Harness) -> None:
    harness.fake.fail("chat.postMessage", status=429, retry_after=1)
    event = p.message(ROUTED_TEXT)
    await harness.event(event)
    posts = await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    assert len(harness.fake.rejected) == 1 and harness.fake.rejected[0].method == "chat.postMessage"
    assert [c.params["thread_ts"] for c in posts] == [event["ts"]]


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own, with a controller added
async def test_the_modal_offers_the_homes_own_controllers_as_categories(
    start_bot: StartBot,
) -> None:
    """A controller the company added (a YAML file) is a category of `/brain`'s modal, named
    by its label; the categories are the home's controllers, not the built-in pack's names."""
    first = await start_bot(config="")
    await first.close()
    controllers = load_settings().home / "controllers"
    controllers.mkdir(exist_ok=True)
    (controllers / "payroll.yaml").write_text(
        "name: payroll\nlabel: Payroll desk\ndescription: Salary payments and payslips.\n"
        "keywords: [salary, payslip]\nexamples: [my salary was not paid, payslip is missing]\n"
        "handler: none\n",
        encoding="utf-8",
    )
    harness = await start_bot(config="")
    await harness.command(NEW_COMMAND, "", user=p.asker(), channel="CHELP0001")
    opened = (await harness.fake.wait_for("views.open"))[0].params
    view = opened["view"] if isinstance(opened["view"], dict) else json.loads(opened["view"])
    [category] = [b for b in view["blocks"] if b["block_id"] == "category"]
    offered = {o["value"]: o["text"]["text"] for o in category["element"]["options"]}
    assert offered["payroll"] == "Payroll desk"
    assert set(harness.brain.registry.names()) == set(offered)
