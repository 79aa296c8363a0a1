"""A click that reaches the bot before the bot heard back from Slack that the clicked reply
was posted (so before the reply is linked to its decision) is taken once the link is there,
not refused as a click on some other message (seen under load in the replicas test)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import cast

import pytest
from aiohttp import web

from tests.bot import slack_payloads as p
from tests.bot.conftest import ROUTED_TEXT, Harness
from tests.fakes.slack_api import FakeSlackAPI

WAITING = "came before its message was linked"
REFUSED = "refused a click"


class SlowAnswerSlack(FakeSlackAPI):
    """Records the first chat.postMessage (its ts is known) and holds its answer until
    released, as a busy network or process would."""

    def __init__(self) -> None:
        super().__init__()
        self.released = asyncio.Event()
        self.held = False

    async def _api(self, request: web.Request) -> web.Response:
        response = await super()._api(request)
        if request.match_info["method"] == "chat.postMessage" and not self.held:
            self.held = True
            await self.released.wait()
        return response


@pytest.fixture
async def fake_slack() -> AsyncIterator[FakeSlackAPI]:
    fake = SlowAnswerSlack()
    await fake.start()
    yield fake
    fake.released.set()
    await fake.stop()


async def test_a_click_before_the_reply_is_linked_is_taken_once_it_is(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.listeners.actions")
    fake = cast(SlowAnswerSlack, harness.fake)
    event = p.message(ROUTED_TEXT)
    assert (await harness.event(event))[0] == 200
    reply = (await fake.wait_for("chat.postMessage"))[0]
    actions = next(
        b for b in reply.params["blocks"] if b.get("block_id", "").startswith("brain_decision:")
    )
    message = {
        "type": "message",
        "ts": fake.posted_ts[0],
        "thread_ts": reply.params.get("thread_ts"),
        "text": reply.params.get("text"),
        "blocks": reply.params["blocks"],
    }
    click = p.block_action(
        user="UASKER01",
        channel=event["channel"],
        message=message,
        action_id="brain_reroute",
        block_id=actions["block_id"],
        selected="access",
    )
    assert (await harness.click(click))[0] == 200
    for _ in range(600):  # until the click was looked at (bounded: 60 s)
        if any(WAITING in r.message or REFUSED in r.message for r in caplog.records):
            break
        await asyncio.sleep(0.1)
    else:
        pytest.fail("the click was never looked at while its reply was unlinked")
    # The order this test is about: the click was seen, and kept waiting, before the link.
    assert [r.message for r in caplog.records if WAITING in r.message], "not kept waiting"
    assert fake.of("chat.update") == []  # nothing was done with the click before the link
    fake.released.set()  # Slack's answer arrives: the reply is linked now

    update = (await fake.wait_for("chat.update"))[0].params
    await harness.idle()
    assert "rerouted to" in update["blocks"][-1]["elements"][0]["text"]
    assert not any(REFUSED in r.message for r in caplog.records)
