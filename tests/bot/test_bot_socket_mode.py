"""The same app over Socket Mode, against a fake Socket Mode endpoint."""

from __future__ import annotations

from typing import Any

from bot.app import build_bot
from bot.server import socket_mode_handler
from core.config import load_settings
from tests.bot import slack_payloads as p
from tests.fakes.slack_api import FakeSlackAPI
from tests.fakes.socket_mode import FakeSocketMode


async def test_socket_mode_event_is_acked_and_answered_in_thread(
    slack_env: None, fake_slack: FakeSlackAPI, brain_factory: Any, monkeypatch: Any
) -> None:
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
    finally:
        await handler.close_async()
        await bot.stop()
        await socket.stop()
