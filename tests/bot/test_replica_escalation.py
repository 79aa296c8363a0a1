"""The on-call alert that follows the reply to an urgent message survives the death of the
replica answering it: killed with `kill -9` after the reply reached Slack and before the alert
was recorded, the message is taken over (by a live replica on PostgreSQL, by the next start of
the home on the embedded default), its reply is found in the thread and not sent again, and
the alert its decision asks for is sent once.

The replica is stopped at a known point without a clock: the fake Slack holds its first
`chat.getPermalink` call (the alert's first step, after the reply was posted) until the kill.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from core.config import Settings
from tests.bot import slack_payloads as p
from tests.bot.conftest import ESCALATE_TEXT, ONCALL_CHANNEL
from tests.fakes.slack_api import FakeSlackAPI
from tests.http_client import client_session
from tests.replicas import (
    Replica,
    replica_env,
    send_event,
    start_replica,
    stop,
    wait_idle,
    wait_ready,
)

USER, CHANNEL = "UPAGE001", "DPAGE001"


class HoldingSlack(FakeSlackAPI):
    """The fake Slack Web API, holding the first `chat.getPermalink` call until released."""

    def __init__(self) -> None:
        super().__init__()
        self.holding = asyncio.Event()
        self.released = asyncio.Event()

    async def _api(self, request: web.Request) -> web.Response:
        if request.match_info["method"] == "chat.getPermalink" and not self.holding.is_set():
            self.holding.set()
            await self.released.wait()
        return await super()._api(request)


@pytest.fixture
async def holding_slack() -> AsyncIterator[HoldingSlack]:
    fake = HoldingSlack()
    await fake.start()
    yield fake
    fake.released.set()
    await fake.stop()


def _replies(fake: FakeSlackAPI) -> list[dict[str, object]]:
    """The bot's answers to the message (not the note about the escalation)."""
    return [
        c.params
        for c in fake.of("chat.postMessage")
        if c.params.get("channel") == CHANNEL and c.params.get("blocks")
    ]


def _alerts(fake: FakeSlackAPI) -> list[dict[str, object]]:
    return [c.params for c in fake.of("chat.postMessage") if c.params["channel"] == ONCALL_CHANNEL]


async def _killed_before_the_alert(
    session: aiohttp.ClientSession, fake: HoldingSlack, victim: Replica
) -> None:
    """Send the urgent message to `victim` and kill it once its reply is posted and its alert
    is on the way."""
    message = p.message(ESCALATE_TEXT, user=USER, channel=CHANNEL)
    assert await send_event(session, victim, message, "EvPAGE001") == 200
    await asyncio.wait_for(fake.holding.wait(), timeout=300)
    assert len(_replies(fake)) == 1 and not _alerts(fake)
    victim.process.kill()
    victim.process.wait(timeout=30)
    fake.released.set()


async def _paged_once(session: aiohttp.ClientSession, fake: FakeSlackAPI, taker: Replica) -> None:
    await fake.wait_for(
        "chat.postMessage", where=lambda c: c.params["channel"] == ONCALL_CHANNEL, timeout=300
    )
    await wait_idle(session, [taker])
    assert len(_alerts(fake)) == 1
    assert len(_replies(fake)) == 1  # the reply found in the thread is not sent again
    notes = [
        str(c.params.get("text"))
        for c in fake.of("chat.postMessage")
        if c.params.get("channel") == CHANNEL and not c.params.get("blocks")
    ]
    assert len(notes) == 1 and "escalated it to on-call" in notes[0]


@pytest.mark.slow
async def test_a_replica_taking_a_message_over_sends_the_alert_its_dead_owner_did_not(
    postgres_settings: Settings,
    brain_template: Path,
    holding_slack: HoldingSlack,
    tmp_path: Path,
) -> None:
    storage = postgres_settings.storage
    assert storage.database_url is not None
    env = replica_env(
        home=tmp_path / "unused",
        slack_url=holding_slack.url,
        database_url=storage.database_url.get_secret_value(),
        schema=storage.database_schema,
        BRAIN_CLAIM_LEASE="2",
        BRAIN_ONCALL_CHANNEL=ONCALL_CHANNEL,
    )
    replicas = [start_replica(f"replica{i}", brain_template, tmp_path, env) for i in (1, 2)]
    try:
        async with client_session() as session:
            for replica in replicas:
                await wait_ready(session, replica, timeout=600)
            await _killed_before_the_alert(session, holding_slack, replicas[0])
            await _paged_once(session, holding_slack, replicas[1])
    finally:
        stop(replicas)


async def test_the_next_start_sends_the_alert_a_crashed_run_did_not(
    brain_template: Path, holding_slack: HoldingSlack, tmp_path: Path
) -> None:
    env = replica_env(
        home=tmp_path / "unused",
        slack_url=holding_slack.url,
        database_url=None,
        schema=None,
        BRAIN_ONCALL_CHANNEL=ONCALL_CHANNEL,
    )
    replica = start_replica("embedded", brain_template, tmp_path, env)
    restarted = None
    try:
        async with client_session() as session:
            await wait_ready(session, replica, timeout=600)
            await _killed_before_the_alert(session, holding_slack, replica)
            restarted = start_replica("embedded", brain_template, tmp_path, env, fresh=False)
            await wait_ready(session, restarted, timeout=600)
            await _paged_once(session, holding_slack, restarted)
    finally:
        stop([replica] if restarted is None else [replica, restarted])
