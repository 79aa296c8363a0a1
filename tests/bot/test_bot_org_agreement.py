"""The organisation's lesson through the Slack app: three people each move their own,
differently worded message with Route elsewhere, and a fourth person's paraphrases, English
and Chinese, go where they moved theirs; another person's message about a different problem
stays where the model puts it."""

from __future__ import annotations

from tests.bot import slack_payloads as p
from tests.bot.conftest import Harness
from tests.bot.test_bot_interactions import _as_message, _ask, _block, _posted_ts
from tests.engine.test_org_agreement_hub import FOURTH, TAUGHT, UNRELATED

USERS = {"U1": "UAGREE01", "U2": "UAGREE02", "U3": "UAGREE03"}


async def _route_elsewhere(harness: Harness, text: str, user: str, channel: str) -> None:
    event, reply = await _ask(harness, text, user=user, channel=channel)
    actions = _block(reply, "brain_decision:")
    decision_id = actions["block_id"].split(":", 1)[1]
    assert harness.brain.get_decision(decision_id).controller != "ticket"  # the mistake
    click = p.block_action(
        user=user,
        channel=event["channel"],
        message=_as_message(reply, _posted_ts(harness, reply)),
        action_id="brain_reroute",
        block_id=actions["block_id"],
        selected="ticket",
    )
    assert (await harness.click(click))[0] == 200
    await harness.fake.wait_for("chat.update")
    await harness.idle()


async def test_three_people_moving_their_messages_move_a_fourth_persons(harness: Harness) -> None:
    for index, (user, text) in enumerate(TAUGHT):
        await _route_elsewhere(harness, text, USERS[user], f"DAGREE0{index}")

    decided = []
    for index, text in enumerate(FOURTH):
        await _ask(harness, text, user="UFOURTH4", channel=f"DFOURTH{index}")
        decided.append(harness.brain.last_decision("UFOURTH4", f"DFOURTH{index}"))
    await _ask(harness, UNRELATED, user="USTRANGE", channel="DSTRANGE")
    stranger = harness.brain.last_decision("USTRANGE", "DSTRANGE")

    assert all(d is not None for d in decided) and stranger is not None
    assert [d.controller for d in decided if d is not None] == ["ticket", "ticket"], [
        d.tier_path for d in decided if d is not None
    ]
    for decision in decided:
        assert decision is not None
        assert "3 people moved messages like this to ticket" in decision.rationale
    assert stranger.controller != "ticket" and not stranger.preference
