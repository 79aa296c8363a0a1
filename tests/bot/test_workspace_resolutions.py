"""With many workspaces, a reply in a resolution prompt's thread resolves the request only
from the request's own workspace: a message delivered by another workspace's installation
(a Slack Connect channel both installed the app in) into workspace one's prompt thread was
taken as on-call's resolution of workspace one's request, as no click is."""

from __future__ import annotations

from typing import Any

from tests.bot import slack_payloads as p
from tests.bot.conftest import ONCALL_CHANNEL, ONCALL_USER, Harness, StartBot
from tests.bot.test_workspace_isolation import DM_ONE, ONE, TWO, click_from, say
from tests.bot.test_workspaces import event_of, install, oauth_env

__all__ = ["oauth_env"]  # the fixture, used by name

#: A request no controller takes (tests/bot/test_bot_resolution.py).
UNPLACED = "book the large meeting room on floor 5 for Friday 3pm"
PLAN = "ask facilities in #facilities"


def _solved_notes(harness: Harness) -> list[Any]:
    return [
        c
        for c in harness.fake.of("chat.postMessage")
        if c.params["channel"] == DM_ONE and "brain_solved" in str(c.params.get("blocks"))
    ]


async def _reply_in_prompt(harness: Harness, team: str, thread: str) -> None:
    said = p.message(
        PLAN, user=ONCALL_USER, channel=ONCALL_CHANNEL, channel_type="channel", thread_ts=thread
    )
    assert (await harness.post(event_of(team, said), content_type="application/json"))[0] == 200


async def test_a_reply_from_another_workspace_does_not_resolve(
    oauth_env: None, start_bot: StartBot
) -> None:
    harness = await start_bot()
    await install(harness, ONE, "xoxb-one")
    await install(harness, TWO, "xoxb-two")
    reply = await say(harness, ONE, DM_ONE, UNPLACED)
    block = next(b for b in reply["blocks"] if b.get("block_id", "").startswith("brain_decision:"))
    decision_id = block["block_id"].split(":", 1)[1]
    assert harness.brain.get_decision(decision_id).controller is None  # precondition
    handoff = click_from(
        ONE, DM_ONE, reply, action_id="brain_handoff", block_id=block["block_id"],
        value=decision_id,
    )  # fmt: skip
    assert (await harness.click(handoff))[0] == 200
    prompts = await harness.fake.wait_for(
        "chat.postMessage", where=lambda c: "brain_resolve:" in str(c.params.get("blocks"))
    )
    await harness.idle()
    thread = prompts[-1].params["thread_ts"]

    notes = len(harness.fake.of("chat.postEphemeral"))
    await _reply_in_prompt(harness, TWO, thread)
    await harness.fake.wait_for("chat.postEphemeral", notes + 1)
    await harness.idle()
    assert _solved_notes(harness) == []  # the asker was told of no resolution

    await _reply_in_prompt(harness, ONE, thread)  # the request's own workspace resolves it
    await harness.fake.wait_for(
        "chat.postMessage", where=lambda c: "brain_solved" in str(c.params.get("blocks"))
    )
    await harness.idle()
    assert len(_solved_notes(harness)) == 1
