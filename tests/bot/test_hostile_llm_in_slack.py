"""In Slack, an LLM API that answers 200 with a proxy's HTML page (or JSON of another shape)
is a failed LLM: every message is answered in its thread, no reply says a controller "failed"
(before, users saw "IT support failed ... AttributeError"), and nothing is logged with a
traceback."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from tests.bot import slack_payloads as p
from tests.bot.conftest import StartBot
from tests.fakes.anthropic_server import FakeReply, brain_llm

#: Messages whose controllers ask the LLM for their answer (knowledge, coding) and a vague one
#: (the intent vote).
MESSAGES = [
    "how do I set up the VPN on a new laptop?",
    "write a python script that renames files by their date",
    "help me, it's stuck",
]
BODIES = {
    "html": FakeReply.raw("<html><body><h1>502 Bad Gateway</h1></body></html>", "text/html"),
    "wrong-shape": FakeReply.raw('{"result": {"text": "incident"}}'),
}


@pytest.fixture(params=list(BODIES))
def hostile_llm(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[None]:
    with brain_llm(
        monkeypatch, timeout_s=3, default=BODIES[request.param], key="sk-ant-test-hostile"
    ):
        yield


async def test_every_message_is_answered_and_no_reply_says_failed(
    start_bot: StartBot, hostile_llm: None, caplog: pytest.LogCaptureFixture
) -> None:
    harness = await start_bot()
    assert harness.brain.llm is not None
    events = [p.message(text, user=f"UHOST{n:03d}") for n, text in enumerate(MESSAGES)]
    with caplog.at_level(logging.INFO):
        for n, event in enumerate(events, start=1):
            assert (await harness.event(event))[0] == 200
            await harness.fake.wait_for(
                "chat.postMessage",
                where=lambda c: c.params.get("thread_ts") in {e["ts"] for e in events},
                count=n,
            )
        await harness.idle()
    replies = [
        c.params
        for c in harness.fake.of("chat.postMessage")
        if c.params.get("thread_ts") in {e["ts"] for e in events}
    ]
    assert {r["thread_ts"] for r in replies} == {e["ts"] for e in events}
    assert [r["text"] for r in replies if "failed" in str(r).lower()] == []
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []
