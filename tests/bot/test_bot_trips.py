"""One Slack message is one trip into the brain: the reply it returns is drawn as it is."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from tests.bot import slack_payloads as p
from tests.bot.conftest import ESCALATE_TEXT, ONCALL_CHANNEL, ROUTED_TEXT, Harness


class CountingExecutor(ThreadPoolExecutor):
    """The bot's brain workers, counting every call handed to them."""

    def __init__(self) -> None:
        super().__init__(2, thread_name_prefix="bot-brain")
        self.trips = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.trips += 1
        return super().submit(fn, *args, **kwargs)


def _count_trips(harness: Harness) -> CountingExecutor:
    services = harness.bot.services
    counting = CountingExecutor()
    services.executor.shutdown(wait=True)
    services.executor = counting
    return counting


async def _send(harness: Harness, text: str) -> dict[str, Any]:
    event = p.message(text)
    before = len(harness.fake.of("chat.postMessage"))
    assert (await harness.event(event))[0] == 200
    await harness.fake.wait_for("chat.postMessage", before + 1)
    await harness.idle()
    return event


async def test_a_message_a_click_and_brain_why_are_one_trip_each(harness: Harness) -> None:
    counting = _count_trips(harness)
    event = await _send(harness, ROUTED_TEXT)
    assert counting.trips == 1
    index, reply = next(
        (i, c)
        for i, c in enumerate(harness.fake.of("chat.postMessage"))
        if c.params.get("thread_ts") == event["ts"]
    )
    blocks = reply.params["blocks"]
    assert [b["type"] for b in blocks[:3]] == ["section", "context", "actions"]
    actions = next(  # the decision's own buttons (a filed ticket's come first)
        b for b in blocks if b.get("block_id", "").startswith("brain_decision:")
    )
    click = p.block_action(
        user="UASKER01",
        channel=event["channel"],
        message={
            "type": "message",
            "ts": harness.fake.posted_ts[index],
            "thread_ts": event["ts"],
            "blocks": blocks,
        },
        action_id="brain_reroute",
        block_id=actions["block_id"],
        selected="access",
    )
    assert (await harness.click(click))[0] == 200
    await harness.fake.wait_for("chat.update")
    await harness.idle()
    assert counting.trips == 2
    await harness.command("/brain-why", "", user="UASKER01", channel=event["channel"])
    await harness.fake.wait_for("response_url")
    await harness.idle()
    assert counting.trips == 3


async def test_an_escalated_message_is_one_trip_too(harness: Harness) -> None:
    counting = _count_trips(harness)
    await _send(harness, ESCALATE_TEXT)
    alerts = [
        c for c in harness.fake.of("chat.postMessage") if c.params["channel"] == ONCALL_CHANNEL
    ]
    assert alerts, "precondition: the message pages on-call"
    assert "decision " in str(alerts[0].params["blocks"])  # the summary drawn from the reply
    assert counting.trips == 1
