"""`brain run` processes against the fake Slack and the fake Jira: a request filed in Slack
while Jira is down waits in the outbox through a restart of the bot and reaches Jira once
Jira is back, once; an agent resolving it in Jira is told in the Slack thread."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from core.files import copy_tree
from tests.bot import brain_run
from tests.bot import slack_payloads as p
from tests.bot.conftest import ROUTED_TEXT
from tests.fakes.jira_api import API_TOKEN, EMAIL, FakeJira
from tests.fakes.slack_api import FakeSlackAPI
from tests.ticket_systems.config import jira_config


@pytest.fixture
def fake_jira() -> Iterator[FakeJira]:
    with FakeJira() as fake:
        yield fake


async def until(check: Callable[[], object], what: str, timeout: float = 90.0) -> None:
    """Wait for the bot process to make `check` true."""
    for _ in range(int(timeout / 0.1)):
        if check():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"not seen in {timeout}s: {what}")


@pytest.mark.slow
async def test_a_request_filed_while_jira_is_down_survives_a_restart_and_is_filed_once(
    fake_slack: FakeSlackAPI, fake_jira: FakeJira, fitted_home: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    copy_tree(fitted_home, home)
    (home / "brain.toml").write_text(jira_config(fake_jira.url, poll_every_s=0.2))
    env = brain_run.json_logging_env(home, fake_slack.url, "xoxb-jira-run-token")
    env.update({"JIRA_EMAIL": EMAIL, "JIRA_API_TOKEN": API_TOKEN})
    event = p.message(ROUTED_TEXT, channel="DJIRA001")
    with fake_jira.down():
        process = await brain_run.start(env, *brain_run.HTTP)
        try:
            url = (await brain_run.first_line(process, 120)).rsplit(" ", 1)[-1]
            assert await brain_run.post_signed(url, json.dumps(p.envelope(event))) == 200
            await fake_slack.wait_for(
                "chat.postMessage", timeout=90, where=lambda c: c.params["channel"] == "DJIRA001"
            )
            await until(
                lambda: sum(c.failure == "unavailable" for c in fake_jira.calls) >= 2,
                "the bot trying Jira while it is down",
            )
        finally:
            await brain_run.stop(process)
    assert fake_jira.issues == {}

    process = await brain_run.start(env, *brain_run.HTTP)  # Jira is back; so is the bot
    try:
        await brain_run.first_line(process, 120)
        await until(lambda: fake_jira.issues, "the request filed after the restart")
        (issue,) = fake_jira.issues.values()
        assert "VPN" in issue.summary
        fake_jira.agent_transition(issue.key, "Resolved")
        await fake_slack.wait_for(
            "chat.postMessage",
            timeout=90,
            where=lambda c: (
                c.params.get("thread_ts") == event["ts"]
                and "*Resolved* in Jira" in str(c.params.get("text"))
            ),
        )
    finally:
        await brain_run.stop(process)
    assert len(fake_jira.issues) == 1
