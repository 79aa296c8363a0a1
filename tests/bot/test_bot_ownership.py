"""A user sees and changes only what is theirs, over signed HTTP: clicks are bound to their
message, Acknowledge belongs to on-call, `/brain-why` answers only the decision's owner."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.listeners.actions import UNKNOWN_NOTE
from bot.listeners.oncall import NOT_ONCALL
from tests.bot import slack_payloads as p
from tests.bot.conftest import (
    ESCALATE_TEXT,
    ONCALL_CHANNEL,
    ONCALL_USER,
    ROUTED_TEXT,
    Harness,
    StartBot,
)
from tests.fakes.slack_api import Call

#: One running bot for the module; each test has a user and DM of its own (`shared_harness`).
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture
def harness(shared_harness: Harness) -> Harness:
    return shared_harness


async def _ask(harness: Harness, text: str, *, user: str, channel: str) -> tuple[str, Call]:
    """A DM from `user` in `channel`; (the decision id, the bot's reply)."""
    event = p.message(text, user=user, channel=channel)
    before = len(harness.fake.of("chat.postMessage"))
    await harness.event(event)
    posts = await harness.fake.wait_for("chat.postMessage", before + 1)
    await harness.idle()
    reply = next(c for c in posts if c.params.get("thread_ts") == event["ts"])
    block = next(  # the decision's own buttons (a filed ticket's come first)
        b for b in reply.params["blocks"] if b.get("block_id", "").startswith("brain_decision:")
    )
    return block["block_id"].split(":", 1)[1], reply


def _message(harness: Harness, call: Call) -> dict[str, Any]:
    index = harness.fake.of("chat.postMessage").index(call)
    return {
        "type": "message",
        "ts": harness.fake.posted_ts[index],
        "thread_ts": call.params.get("thread_ts"),
        "blocks": call.params["blocks"],
    }


async def test_a_click_naming_another_channels_decision_changes_nothing(
    harness: Harness,
) -> None:
    victim, _ = await _ask(harness, ROUTED_TEXT, user="UVICTIM4", channel="DVICTIM2")
    mine, reply = await _ask(harness, ROUTED_TEXT, user="UATTACK9", channel="DATTACK9")
    lessons = len(harness.brain.memory)
    posts = len(harness.fake.calls)
    for action_id, extra in (
        ("brain_confirm", {"value": victim}),
        ("brain_reroute", {"selected": "access"}),
    ):
        forged = p.block_action(
            user="UATTACK9",
            channel="DATTACK9",
            message=_message(harness, reply),
            action_id=action_id,
            block_id=f"brain_decision:{victim}",
            **extra,
        )
        assert (await harness.click(forged))[0] == 200
        await harness.idle()
    decision = harness.brain.get_decision(victim)
    assert decision.feedback == []
    assert len(harness.brain.memory) == lessons
    # No update and no post into DATTACK9: at most the clicker is told privately that the
    # button is not theirs (the polite note for a foreign click).
    after = harness.fake.calls[posts:]
    assert all(
        c.method == "chat.postEphemeral" and c.params.get("user") == "UATTACK9" for c in after
    ), [c.method for c in after]
    assert harness.brain.get_decision(mine).feedback == []


async def test_a_click_on_an_unknown_decision_leaves_no_dead_buttons(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    _, reply = await _ask(harness, ROUTED_TEXT, user=p.asker(), channel=p.dm())
    click = p.block_action(
        user=p.asker(),
        channel=p.dm(),
        message=_message(harness, reply),
        action_id="brain_confirm",
        block_id="brain_decision:d-000000000000",
        value="d-000000000000",
    )
    with caplog.at_level(logging.INFO):
        assert (await harness.click(click))[0] == 200
        update = (await harness.fake.wait_for("chat.update"))[0].params
        await harness.idle()
    assert all(b["type"] != "actions" for b in update["blocks"])
    assert UNKNOWN_NOTE in update["blocks"][-1]["elements"][0]["text"]
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_a_reroute_to_an_unknown_controller_does_not_claim_a_reroute(
    harness: Harness,
) -> None:
    decision_id, reply = await _ask(harness, ROUTED_TEXT, user=p.asker(), channel=p.dm())
    click = p.block_action(
        user=p.asker(),
        channel=p.dm(),
        message=_message(harness, reply),
        action_id="brain_reroute",
        block_id=f"brain_decision:{decision_id}",
        selected="<!channel> nobody",
    )
    await harness.click(click)
    posts = await harness.fake.wait_for("chat.postMessage", 2)
    await harness.idle()
    assert harness.fake.of("chat.update") == []  # the message does not say "rerouted"
    answer = posts[-1].params
    assert "Unknown controller" in answer["text"]
    assert "<!channel>" not in answer["text"]
    assert "<!channel>" not in str(answer["blocks"])
    assert harness.brain.get_decision(decision_id).feedback == []


async def _alert(harness: Harness) -> Call:
    await harness.event(p.message(ESCALATE_TEXT))
    alerts = await harness.fake.wait_for(
        "chat.postMessage", where=lambda c: c.params["channel"] == ONCALL_CHANNEL
    )
    await harness.idle()
    return alerts[0]


def _ack(harness: Harness, alert: Call, *, user: str, channel: str = ONCALL_CHANNEL) -> Any:
    block = next(
        b for b in alert.params["blocks"] if b.get("block_id", "").startswith("brain_alert:")
    )
    return p.block_action(
        user=user,
        channel=channel,
        message=_message(harness, alert),
        action_id="brain_oncall_ack",
        block_id=block["block_id"],
        value=block["elements"][0]["value"],
    )


async def test_only_the_oncall_group_may_acknowledge(harness: Harness) -> None:
    alert = await _alert(harness)
    await harness.click(_ack(harness, alert, user="UBYSTAND"))
    told = await harness.fake.wait_for("chat.postEphemeral")
    await harness.idle()
    assert told[0].params["user"] == "UBYSTAND" and told[0].params["text"] == NOT_ONCALL
    assert harness.fake.of("usergroups.users.list")
    assert harness.fake.of("chat.update") == []
    assert len(harness.bot.services.escalations.pending()) == 1  # still re-escalates
    await harness.click(_ack(harness, alert, user=ONCALL_USER, channel="COTHER01"))
    await harness.idle()
    assert len(harness.bot.services.escalations.pending()) == 1  # not from another channel
    await harness.click(_ack(harness, alert, user=ONCALL_USER))
    update = (await harness.fake.wait_for("chat.update"))[0].params
    await harness.idle()
    assert f"acknowledged by <@{ONCALL_USER}>" in update["blocks"][-1]["elements"][0]["text"]
    assert harness.bot.services.escalations.pending() == []


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own: other settings
async def test_an_oncall_user_id_is_mentioned_and_alone_may_acknowledge(
    start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAIN_ONCALL_MENTION", "UONCALL02")
    harness = await start_bot()
    alert = await _alert(harness)
    assert alert.params["blocks"][0]["text"]["text"].startswith("<@UONCALL02> ")
    assert "<@UONCALL02>" in alert.params["text"]
    await harness.click(_ack(harness, alert, user=ONCALL_USER))
    await harness.fake.wait_for("chat.postEphemeral")
    await harness.idle()
    assert len(harness.bot.services.escalations.pending()) == 1
    await harness.click(_ack(harness, alert, user="UONCALL02"))
    await harness.fake.wait_for("chat.update")
    await harness.idle()
    assert harness.bot.services.escalations.pending() == []


async def test_brain_why_explains_only_the_owners_decision(harness: Harness) -> None:
    decision_id, _ = await _ask(harness, ROUTED_TEXT, user="UOWNER01", channel="DOWNER01")
    await harness.command("/brain-why", decision_id, user="UOTHER01", channel="DOTHER01")
    await harness.command("/brain-why", decision_id, user="UOWNER01", channel="DOWNER01")
    theirs, mine = await harness.fake.wait_for("response_url", 2)
    await harness.idle()
    assert decision_id not in str(theirs.params.get("blocks"))
    assert "you may see" in theirs.params["text"]
    assert ROUTED_TEXT not in str(theirs.params)
    assert "keyword" in "\n".join(b["text"]["text"] for b in mine.params["blocks"])


async def test_brain_why_quotes_what_was_typed_escaped(harness: Harness) -> None:
    await harness.command("/brain-why", "<!channel> d-0000000000ff", user=p.asker(), channel="D1")
    (answer,) = await harness.fake.wait_for("response_url", 1)
    await harness.idle()
    assert "<!channel" not in str(answer.params)  # the fallback text cannot ping anyone
    assert "!channel&gt; d-0000000000ff" in answer.params["text"]  # quoted, escaped
