"""Three `brain run --http` replicas on one PostgreSQL, each event sent to a replica of the
test's choosing (no load balancer):

- messages with Slack retries delivered to a *different* replica than the first attempt
  (some at the same time as it) are each answered exactly once;
- a correction made through replica 1 changes the next answer of replica 2, and a 👍 on
  replica 2's reply delivered to replica 3 confirms it (the link is found in PostgreSQL);
- an unacknowledged escalation is re-sent once per period by one replica, not by three;
- `brain why`, `brain feedback` and `brain tickets` work from a terminal meanwhile.

Each replica keeps its own embedded vector index (a copy of the fitted home); the records
(decisions, feedback, lessons, the event ledger, alerts, tickets) are PostgreSQL's.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from core.config import Settings
from tests.bot import slack_payloads as p
from tests.bot.conftest import ESCALATE_TEXT, ONCALL_CHANNEL, ROUTED_TEXT
from tests.fakes.slack_api import Call, FakeSlackAPI
from tests.http_client import client_session
from tests.replicas import (
    ROOT,
    Replica,
    metrics,
    post,
    replica_env,
    send_event,
    start_replica,
    stop,
    wait_idle,
    wait_ready,
)

#: Messages sent; every fifth one is retried through another replica.
EVENTS = 60
TEXTS = (
    "my VPN keeps dropping, error 691",
    "how do I reset my password for the HR portal",
    "please review this SQL: select * from orders where id = 1",
    "what is the travel expense policy for conferences",
    "I need access to the finance shared drive",
    "the printer on floor 3 is jammed again",
    "rollback release 2.3 of the billing service tonight",
    "status of ticket 2025060300011279027 please",
)
#: Re-send an unacknowledged alert after this many seconds.
REESCALATE_S = 3


@pytest.fixture
async def cluster(
    postgres_settings: Settings, brain_template: Path, fake_slack: FakeSlackAPI, tmp_path: Path
) -> AsyncIterator[tuple[list[Replica], dict[str, str]]]:
    storage = postgres_settings.storage
    assert storage.database_url is not None
    env = replica_env(
        home=tmp_path / "unused",
        slack_url=fake_slack.url,
        database_url=storage.database_url.get_secret_value(),
        schema=storage.database_schema,
        BRAIN_ONCALL_CHANNEL=ONCALL_CHANNEL,
        BRAIN_REESCALATE_AFTER=str(REESCALATE_S),
        BRAIN_LOG_FORMAT="json",
    )
    replicas = [start_replica(f"replica{i}", brain_template, tmp_path, env) for i in (1, 2, 3)]
    try:
        async with client_session() as session:
            for replica in replicas:
                await wait_ready(session, replica, timeout=600)
        terminal = {**env, "BRAIN_HOME": str(tmp_path / "terminal")}
        yield replicas, terminal
    finally:
        stop(replicas)


def _brain(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """`brain ...` from a terminal: its own (empty) home, the replicas' database."""
    return subprocess.run(
        [sys.executable, "-m", "cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _replies_in(fake: FakeSlackAPI, channel: str) -> list[Call]:
    return [c for c in fake.of("chat.postMessage") if c.params.get("channel") == channel]


def _decision_id(call: Call) -> str:
    block = next(
        b for b in call.params["blocks"] if b.get("block_id", "").startswith("brain_decision:")
    )
    return str(block["block_id"].split(":", 1)[1])


async def _ask(
    session: aiohttp.ClientSession, fake: FakeSlackAPI, replica: Replica, text: str, channel: str
) -> tuple[dict[str, Any], Call]:
    event = p.message(text, user="UCORRECT", channel=channel)
    assert await send_event(session, replica, event, f"Ev{channel}") == 200
    calls = await fake.wait_for(
        "chat.postMessage", where=lambda c: c.params.get("channel") == channel, timeout=120
    )
    return event, calls[0]


def _resends(fake: FakeSlackAPI) -> list[str]:
    return [
        str(c.params.get("text", ""))
        for c in fake.of("chat.postMessage")
        if c.params.get("channel") == ONCALL_CHANNEL
    ]


@pytest.mark.slow
async def test_three_replicas_answer_once_learn_together_and_page_once(
    cluster: tuple[list[Replica], dict[str, str]], fake_slack: FakeSlackAPI, tmp_path: Path
) -> None:
    replicas, terminal = cluster
    async with client_session() as session:
        # -- every message answered exactly once, retries through another replica -------------
        async def deliver(index: int) -> None:
            event = p.message(
                TEXTS[index % len(TEXTS)], user=f"U{index:07d}", channel=f"D{index:07d}"
            )
            event_id = f"EvREPLICA{index:05d}"
            first = replicas[index % 3]
            if index % 5:
                assert await send_event(session, first, event, event_id) == 200
                return
            other = replicas[(index + 1 + index % 2) % 3]
            attempts = [send_event(session, first, event, event_id)]
            retry = send_event(session, other, event, event_id, retry_num=1)
            if index % 10 == 0:  # the retry arrives while the first attempt is in flight
                statuses = await asyncio.gather(attempts[0], retry)
            else:
                statuses = [await attempts[0], await retry]
            assert statuses == [200, 200]

        for batch in range(0, EVENTS, 10):
            await asyncio.gather(*(deliver(i) for i in range(batch, batch + 10)))
        await fake_slack.wait_for(
            "chat.postMessage",
            EVENTS,
            where=lambda c: str(c.params.get("channel", "")).startswith("D0"),
            timeout=600,
        )
        await wait_idle(session, replicas)
        answered = Counter(
            str(c.params["channel"])
            for c in fake_slack.of("chat.postMessage")
            if str(c.params.get("channel", "")).startswith("D0")
        )
        assert answered == Counter({f"D{i:07d}": 1 for i in range(EVENTS)})
        dropped = 0.0
        for replica in replicas:
            found = await metrics(session, replica)
            dropped += found.get("brain_slack_events_deduplicated_total{kind=event}", 0.0)
        assert dropped == EVENTS // 5  # each retry was dropped by the replica it reached

        # -- a correction through replica 1 changes replica 2's next answer -----------------
        _, before = await _ask(session, fake_slack, replicas[1], ROUTED_TEXT, "DCORRECT1")
        _, corrected = await _ask(session, fake_slack, replicas[0], ROUTED_TEXT, "DCORRECT2")
        actions = next(
            b
            for b in corrected.params["blocks"]
            if b.get("block_id", "").startswith("brain_decision:")
        )
        click = p.block_action(
            user="UCORRECT",
            channel="DCORRECT2",
            message={
                "type": "message",
                "ts": fake_slack.posted_ts[fake_slack.of("chat.postMessage").index(corrected)],
                "text": corrected.params.get("text"),
                "blocks": corrected.params["blocks"],
            },
            action_id="brain_reroute",
            block_id=actions["block_id"],
            selected="access",
        )
        status = await post(
            session, replicas[0], p.action_body(click), "application/x-www-form-urlencoded"
        )
        assert status == 200
        await fake_slack.wait_for("chat.update", timeout=120)
        await wait_idle(session, replicas)
        _, after = await _ask(session, fake_slack, replicas[1], ROUTED_TEXT, "DCORRECT3")

        why_before = _brain(terminal, "why", _decision_id(before), "--json")
        why_after = _brain(terminal, "why", _decision_id(after), "--json")
        assert why_before.returncode == 0 and why_after.returncode == 0, why_after.stderr
        first, second = json.loads(why_before.stdout), json.loads(why_after.stdout)
        assert first["memory_influences"] == []
        assert any("access" in line for line in second["memory_influences"])
        memory_before = first["signals"].get("access", {}).get("memory", 0.5)
        assert second["signals"].get("access", {}).get("memory", 0.5) > memory_before
        corrected_why = json.loads(
            _brain(terminal, "why", _decision_id(corrected), "--json").stdout
        )
        assert [(f["kind"], f["controller"]) for f in corrected_why["feedback"]] == [
            ("correct", "access")
        ]

        # -- a 👍 on replica 2's reply, delivered to replica 3, confirms that decision ---------
        reply_ts = fake_slack.posted_ts[fake_slack.of("chat.postMessage").index(after)]
        thumbs_up = {
            "type": "reaction_added",
            "user": "UCORRECT",
            "reaction": "+1",
            "item": {"type": "message", "channel": "DCORRECT3", "ts": reply_ts},
        }
        assert await send_event(session, replicas[2], thumbs_up, "EvTHUMBS1") == 200
        await wait_idle(session, replicas)
        for _ in range(60):  # the listener may start just after the acknowledgement
            confirmed = json.loads(_brain(terminal, "why", _decision_id(after), "--json").stdout)
            if confirmed["feedback"]:
                break
            await asyncio.sleep(0.5)
        assert [(f["kind"], f["source"]) for f in confirmed["feedback"]] == [
            ("confirm", "slack-reaction")
        ]

        # -- an unacknowledged escalation is re-sent once per period, by one replica --------
        await send_event(
            session,
            replicas[2],
            p.message(ESCALATE_TEXT, user="UESC0001", channel="DESC0001"),
            "EvESC1",
        )
        await fake_slack.wait_for(
            "chat.postMessage",
            where=lambda c: "re-sent #2" in str(c.params.get("blocks")),
            timeout=120,
        )
        alerts = [
            c
            for c in fake_slack.of("chat.postMessage")
            if c.params.get("channel") == ONCALL_CHANNEL
        ]
        marks = Counter(
            next(
                (f"#{n}" for n in range(1, 20) if f"re-sent #{n}:" in str(c.params["blocks"])),
                "first",
            )
            for c in alerts
        )
        assert marks["first"] == 1 and marks["#1"] == 1 and marks["#2"] == 1
        resent = []
        for replica in replicas:
            found = await metrics(session, replica)
            resent.append(found.get("brain_escalations_total{event=resent}", 0.0))
        assert sum(1 for count in resent if count) == 1  # one replica holds the lease

        # -- the terminal: feedback and tickets on the same database ------------------------
        given = _brain(terminal, "feedback", _decision_id(after), "--confirm", "--user", "UCORRECT")
        assert given.returncode == 0, given.stderr
        tickets = tmp_path / "tickets.jsonl"
        tickets.write_text(
            json.dumps(
                {"id": "INC-7001", "kind": "incident", "title": "vpn down", "requester": "U1"}
            )
            + "\n",
            encoding="utf-8",
        )
        assert _brain(terminal, "tickets", "import", str(tickets)).returncode == 0
        listed = _brain(terminal, "tickets", "list", "--all", "--json")
        assert listed.returncode == 0, listed.stderr
        assert "INC-7001" in [row["id"] for row in json.loads(listed.stdout)]
        seen = json.loads(_brain(terminal, "why", _decision_id(after), "--json").stdout)
        assert [(f["kind"], f["source"]) for f in seen["feedback"]] == [
            ("confirm", "slack-reaction"),
            ("confirm", "cli"),
        ]
    assert all(replica.process.poll() is None for replica in replicas), os.linesep.join(
        r.log_tail() for r in replicas
    )
