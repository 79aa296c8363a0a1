"""The same app over Socket Mode, against a fake Socket Mode endpoint."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from bot.app import SlackBot, build_bot
from bot.server import socket_mode_handler
from core.config import load_settings
from tests.bot import slack_payloads as p
from tests.bot.conftest import ESCALATE_TEXT, ONCALL_CHANNEL
from tests.fakes.slack_api import FakeSlackAPI
from tests.fakes.socket_mode import FakeSocketMode


@asynccontextmanager
async def _socket_bot(
    fake_slack: FakeSlackAPI, brain_factory: Any, monkeypatch: Any
) -> AsyncIterator[tuple[FakeSocketMode, SlackBot]]:
    """The app connected over Socket Mode (an app token, no signing secret) to a fake
    endpoint; closed, stopped and torn down afterwards."""
    socket = await FakeSocketMode().start()
    fake_slack.socket_url = socket.url
    monkeypatch.setenv("SLACK_APP_TOKEN", "xapp-test-token")
    monkeypatch.delenv("SLACK_SIGNING_SECRET")
    settings = load_settings()
    assert settings.slack.app_token is not None
    bot = build_bot(brain_factory(), settings)
    handler = socket_mode_handler(bot, settings.slack.app_token.get_secret_value())
    try:
        await handler.connect_async()
        await socket.wait_connected()
        yield socket, bot
    finally:
        await handler.close_async()
        await bot.stop()
        await socket.stop()


async def test_socket_mode_event_is_acked_and_answered_in_thread(
    slack_env: None, fake_slack: FakeSlackAPI, brain_factory: Any, monkeypatch: Any
) -> None:
    async with _socket_bot(fake_slack, brain_factory, monkeypatch) as (socket, bot):
        opened = fake_slack.of("apps.connections.open")
        assert opened and opened[0].params["_authorization"] == "Bearer xapp-test-token"
        event = p.message("vpn is broken")
        body = p.envelope(event, "EvSOCKET1")
        first = await socket.push("events_api", body)
        retry = await socket.push("events_api", body, retry_attempt=1)
        assert (await socket.wait_ack(first))["envelope_id"] == first
        await socket.wait_ack(retry)
        posts = await fake_slack.wait_for("chat.postMessage")
        await bot.idle()
        assert len(fake_slack.of("chat.postMessage")) == 1
        assert posts[0].params["thread_ts"] == event["ts"]
        assert posts[0].params["blocks"][-1]["type"] == "actions"


async def test_socket_mode_log_lines_carry_the_event_id(
    slack_env: None,
    fake_slack: FakeSlackAPI,
    brain_factory: Any,
    monkeypatch: Any,
    json_log: io.StringIO,
) -> None:
    """Every JSON log line of an event's handling over Socket Mode names its event id, as
    over HTTP (tests/bot/test_log_trace.py), and its decision id once the brain named it."""
    fake_slack.fail("chat.getPermalink", error="channel_not_found")  # a warning on the way
    async with _socket_bot(fake_slack, brain_factory, monkeypatch) as (socket, bot):
        json_log.truncate(0)
        json_log.seek(0)
        await socket.wait_ack(
            await socket.push("events_api", p.envelope(p.message(ESCALATE_TEXT), "EvSOCKLOG1"))
        )
        await fake_slack.wait_for(
            "chat.postMessage", where=lambda c: c.params["channel"] == ONCALL_CHANNEL
        )
        await bot.idle()
    lines = [json.loads(line) for line in json_log.getvalue().splitlines() if line.strip()]
    ours = [line for line in lines if line.get("event_id") == "EvSOCKLOG1"]
    assert any("no permalink" in line["message"] for line in ours), lines
    assert ours and all(line.get("decision_id") for line in ours if "permalink" in line["message"])
