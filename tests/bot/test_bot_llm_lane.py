"""A slow LLM call does not delay the fast-path messages queued behind it.

Vague messages are below the fast path, so the brain asks the LLM about their intent; the fake
Anthropic API holds those requests (no clock: they stall until the test releases them). With
as many of them stalled as the bot has compute slots, a fast-path message sent after them is
still answered while they are held, because a call waiting on the network lends its slot
(`core.compute`). Before, every worker thread sat in a stalled call and the fast message
waited for the LLM.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from bot.services import BRAIN_WORKERS
from tests.bot import slack_payloads as p
from tests.bot.conftest import ROUTED_TEXT, StartBot
from tests.fakes.anthropic_server import FakeAnthropic, FakeReply, RecordedRequest, brain_llm

VAGUE = ["help me, it's stuck", "卡住了，帮帮我", "it does not work, please help", "stuck again"]


@pytest.fixture
def stalling_llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropic]:
    """An LLM that holds every request about a vague message until released."""
    # The most time allowed: the stall ends by release, not by the timeout.
    with brain_llm(monkeypatch, timeout_s=120, key="sk-ant-test-lane") as fake:

        def respond(request: RecordedRequest) -> FakeReply:
            vague = any(text in request.user_text for text in VAGUE)
            return FakeReply.held() if vague else FakeReply.text("ok")

        fake.responder = respond
        yield fake
        fake.release()


def _replies_to(harness: object, ts: str) -> list[object]:
    fake = harness.fake  # type: ignore[attr-defined]
    return [c for c in fake.of("chat.postMessage") if c.params.get("thread_ts") == ts]


async def test_fast_path_message_is_answered_while_llm_calls_stall(
    start_bot: StartBot, stalling_llm: FakeAnthropic
) -> None:
    harness = await start_bot()
    assert harness.brain.llm is not None
    vague = [
        p.message(text, user=f"UVAGUE{i}", ts=f"1700000100.00000{i}")
        for i, text in enumerate(VAGUE[: BRAIN_WORKERS + 1])
    ]
    for event in vague:
        status, _ = await harness.event(event)
        assert status == 200
    await asyncio.to_thread(stalling_llm.wait_holding, len(vague))

    fast = p.message(ROUTED_TEXT, user="UFAST001", ts="1700000200.000001")
    status, _ = await harness.event(fast)
    assert status == 200
    reply = await harness.fake.wait_for(
        "chat.postMessage", where=lambda c: c.params.get("thread_ts") == fast["ts"], timeout=80
    )
    assert reply
    # Answered while every vague message's LLM call is still held, and none of them answered.
    assert stalling_llm.holding == len(vague)
    assert all(not _replies_to(harness, event["ts"]) for event in vague)

    stalling_llm.release()
    for event in vague:
        await harness.fake.wait_for(
            "chat.postMessage", where=lambda c, ts=event["ts"]: c.params.get("thread_ts") == ts
        )
    await harness.idle()
