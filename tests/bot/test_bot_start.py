"""Starting the bot: a wrong token is caught at once (auth.test); an unreachable Slack is
retried with bounded backoff and one log line per failure, never a traceback."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.app import build_bot, check_token, web_client
from bot.socket_mode import MAX_DELAY_S, SOCKET_LOG, Backoff, socket_mode_handler
from core.config import ConfigError, load_settings
from tests.fakes.slack_api import FakeSlackAPI


@pytest.mark.usefixtures("slack_env")
async def test_a_wrong_bot_token_stops_the_start_with_a_clear_error(
    fake_slack: FakeSlackAPI,
) -> None:
    fake_slack.valid_tokens = {"xoxb-the-right-one"}
    with pytest.raises(
        ConfigError, match=r"Slack refused SLACK_BOT_TOKEN \(auth.test: invalid_auth\)"
    ) as err:
        await check_token(web_client(load_settings()))
    assert "xoxb-test-token" not in str(err.value)
    fake_slack.valid_tokens = {"xoxb-test-token"}
    await check_token(web_client(load_settings()))  # the right token passes
    assert len(fake_slack.of("auth.test")) == 2  # the refused call and the accepted one


@pytest.mark.usefixtures("slack_env")
async def test_an_unreachable_slack_only_warns_at_start(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("SLACK_API_URL", "http://127.0.0.1:9/api/")  # nothing listens there
    with caplog.at_level(logging.WARNING):
        await check_token(web_client(load_settings()))
    assert any("unreachable for auth.test" in r.getMessage() for r in caplog.records)


def test_backoff_doubles_and_is_bounded() -> None:
    async def issue() -> str:
        return "wss://x"

    backoff = Backoff(issue)
    delays = []
    for failures in range(1, 20):
        backoff.failures = failures
        delays.append(backoff.delay())
    assert delays[:4] == [1.0, 2.0, 4.0, 8.0]
    assert max(delays) == MAX_DELAY_S and delays[-1] == MAX_DELAY_S


async def test_socket_mode_without_slack_backs_off_with_one_line_per_failure(
    slack_env: None,
    fake_slack: FakeSlackAPI,
    brain_factory: Any,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setenv("SLACK_APP_TOKEN", "xapp-test-token")
    settings = load_settings()
    bot = build_bot(brain_factory(), settings)
    waited: list[float] = []

    async def sleep(seconds: float) -> None:  # an explicit clock: no real waiting
        waited.append(seconds)
        if len(waited) == 6:
            handler.client.closed = True

    handler = socket_mode_handler(bot.app, "xapp-test-token", bot.client, sleep=sleep)
    handler.client.ping_interval = 0.01  # the SDK's own pause between attempts
    try:
        with caplog.at_level(logging.INFO, logger=SOCKET_LOG.name):
            await handler.connect_async()  # fake Slack: apps.connections.open fails
    finally:
        await handler.close_async()
        await bot.stop()
    assert waited == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0]
    logged = [r for r in caplog.records if r.name == SOCKET_LOG.name]
    failures = [r for r in logged if "Failed to connect" in r.getMessage()]
    assert len(failures) == len(waited)  # one line per failed attempt (the last: closed)
    assert all(r.exc_info is None and "\n" not in r.getMessage() for r in logged)
    assert "Traceback" not in caplog.text
