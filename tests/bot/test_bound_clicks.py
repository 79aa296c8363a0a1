"""Every click goes through the one binding check. A signed "Escalate to a person"
click from another channel, or by someone who is not the asker, carrying another user's
decision id pages nobody; a click on a decision that does not exist gets a polite note only the
clicker sees, and no traceback. Signed payloads that are not clicks are dropped quietly."""

from __future__ import annotations

import json
import logging

import pytest

from tests.bot import slack_payloads as p
from tests.bot.conftest import ONCALL_CHANNEL, Harness, StartBot
from tests.bot.test_bot_interactions import _as_message, _ask, _block, _posted_ts

#: One running bot for the module; each test has a user and DM of its own (`shared_harness`).
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture
def harness(shared_harness: Harness) -> Harness:
    return shared_harness


async def _boundary(harness: Harness) -> tuple[dict, dict, str, str]:
    event, reply = await _ask(harness, "book a table for four tonight")
    actions = _block(reply, "brain_decision:")
    button = next(e for e in actions["elements"] if e.get("action_id") == "brain_handoff")
    return (
        event,
        _as_message(reply, _posted_ts(harness, reply)),
        actions["block_id"],
        button["value"],
    )


def _tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.exc_info]


async def _pages(harness: Harness) -> int:
    await harness.idle()
    return len(
        [c for c in harness.fake.of("chat.postMessage") if c.params["channel"] == ONCALL_CHANNEL]
    )


@pytest.mark.parametrize(
    ("user", "channel"),
    [("UMALLORY1", None), (None, "COTHER001"), ("UMALLORY1", "COTHER001")],
    ids=["another-user", "the-asker-in-another-channel", "another-user-and-channel"],
)
async def test_a_forged_handoff_pages_nobody(
    harness: Harness, caplog: pytest.LogCaptureFixture, user: str | None, channel: str | None
) -> None:
    """`user` None: the asker."""
    event, message, block_id, decision_id = await _boundary(harness)
    user = user or event["user"]
    click = p.block_action(
        user=user,
        channel=channel or event["channel"],
        message=message,
        action_id="brain_handoff",
        block_id=block_id,
        value=decision_id,
    )
    with caplog.at_level(logging.INFO):
        assert (await harness.click(click))[0] == 200
        assert await _pages(harness) == 0
    assert not harness.brain.get_decision(decision_id).escalate
    notes = harness.fake.of("chat.postEphemeral")
    assert [n.params["user"] for n in notes] == [user]
    assert _tracebacks(caplog) == []


TEAMS = """
[helpdesk.teams.facilities]
channel = "CFACIL001"
members = ["UFACIL001"]
"""
#: The asker-only buttons of a boundary reply: (action id, value beyond the decision's, the
#: channel the asker's click posts to).
ASKER_ONLY = {
    "escalate-to-a-person": ("brain_handoff", None, ONCALL_CHANNEL),
    "send-to-team": ("brain_send_team_0", "facilities", "CFACIL001"),
}


@pytest.mark.parametrize("button", ASKER_ONLY, ids=list(ASKER_ONLY))
@pytest.mark.asyncio(loop_scope="function")  # a bot of its own, with a team
async def test_a_bystanders_refused_click_leaves_the_askers_own_click(
    start_bot: StartBot, caplog: pytest.LogCaptureFixture, button: str
) -> None:
    """The right to click is checked before the button's one click is claimed: a colleague
    who clicks the asker's "Escalate to a person" or "Send to team" first is refused, and the
    asker's click then still pages or sends."""
    harness = await start_bot(TEAMS)
    action_id, value, sent_to = ASKER_ONLY[button]
    event, reply = await _ask(harness, "book a table for four tonight")
    actions = _block(reply, "brain_decision:")
    decision_id = actions["block_id"].split(":", 1)[1]

    def click(user: str) -> dict[str, object]:
        return p.block_action(
            user=user,
            channel=event["channel"],
            message=_as_message(reply, _posted_ts(harness, reply)),
            action_id=action_id,
            block_id=actions["block_id"],
            value=value or decision_id,
        )

    def posts_to_people() -> int:
        return len(
            [c for c in harness.fake.of("chat.postMessage") if c.params["channel"] == sent_to]
        )

    with caplog.at_level(logging.INFO):
        assert (await harness.click(click("UMALLORY1")))[0] == 200
        await harness.idle()
        assert posts_to_people() == 0
        assert [n.params["user"] for n in harness.fake.of("chat.postEphemeral")] == ["UMALLORY1"]

        assert (await harness.click(click(event["user"])))[0] == 200
        await harness.fake.wait_for(
            "chat.postMessage", where=lambda c: c.params["channel"] == sent_to
        )
        await harness.idle()
    assert posts_to_people() >= 1
    assert [n.params["user"] for n in harness.fake.of("chat.postEphemeral")] == ["UMALLORY1"]
    assert _tracebacks(caplog) == []


async def test_a_handoff_on_an_unknown_decision_gets_a_note_and_no_traceback(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    event, message, block_id, _ = await _boundary(harness)
    click = p.block_action(
        user=p.asker(),
        channel=event["channel"],
        message=message,
        action_id="brain_handoff",
        block_id=block_id,
        value="d-doesnotexist",
    )
    with caplog.at_level(logging.INFO):
        assert (await harness.click(click))[0] == 200
        assert await _pages(harness) == 0
    notes = harness.fake.of("chat.postEphemeral")
    assert len(notes) == 1 and "no longer know" in notes[0].params["text"]
    assert _tracebacks(caplog) == []


@pytest.mark.parametrize("actions", [[], "x", [None], [{"value": 3}], ["x"]])
async def test_a_signed_click_payload_without_a_usable_action_is_not_a_500(
    harness: Harness, caplog: pytest.LogCaptureFixture, actions: object
) -> None:
    event, message, block_id, decision_id = await _boundary(harness)
    click = p.block_action(
        user=p.asker(),
        channel=event["channel"],
        message=message,
        action_id="brain_handoff",
        block_id=block_id,
        value=decision_id,
    )
    click["actions"] = actions
    with caplog.at_level(logging.INFO):
        status, _ = await harness.click(click)
        await harness.idle()
    assert status < 500
    assert _tracebacks(caplog) == []


async def test_a_signed_event_that_is_not_an_object_is_not_a_500(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    body = json.dumps({**p.envelope(p.message("hi")), "event": "x"})
    with caplog.at_level(logging.INFO):
        status, _ = await harness.post(body, content_type="application/json")
        await harness.idle()
    assert status < 500
    assert _tracebacks(caplog) == []
