"""Three `brain run --http` replicas on one PostgreSQL, when one of them dies and when a
conversation moves between them:

- a clarification asked through replica 1 is answered when the user's reply lands on
  replica 2 (the pending question lives in PostgreSQL, not in replica 1's memory);
- `kill -9` of a replica mid-burst loses no message it acknowledged: each is answered exactly
  once by the survivors (by a Slack retry reaching one of them and/or by their sweep of the
  dead replica's claims).

To kill the replica at a known point, the test itself holds the PostgreSQL advisory locks of
the threads it sends to the victim (the lock a replica takes to decide a thread's message):
the victim acknowledges those messages and claims them, then waits on the locks; the test
kills it once the database shows every one of them claimed, then releases the locks.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from core.config import Settings
from core.files import copy_tree
from core.stores.postgres.database import lock_key
from tests.bot import slack_payloads as p
from tests.bot.conftest import FORCE_CLARIFY
from tests.fakes.slack_api import Call, FakeSlackAPI
from tests.http_client import client_session
from tests.replicas import (
    ROOT,
    Replica,
    metrics,
    replica_env,
    send_event,
    start_replica,
    stop,
    wait_idle,
    wait_ready,
)

#: Messages of the burst (every fifth one also retried through another replica) and how many
#: of them go out before the kill.
BURST = 30
BEFORE_KILL = 20
#: A short heartbeat lease, so the survivors take the dead replica's claims over soon.
LEASE_S = "2"


@pytest.fixture
async def cluster(
    postgres_settings: Settings, brain_template: Path, fake_slack: FakeSlackAPI, tmp_path: Path
) -> AsyncIterator[tuple[list[Replica], dict[str, str], str, str]]:
    storage = postgres_settings.storage
    assert storage.database_url is not None
    url, schema = storage.database_url.get_secret_value(), storage.database_schema
    template = tmp_path / "template"
    copy_tree(brain_template, template)
    # Every message is asked back (no LLM): clarifications to answer across replicas.
    (template / "brain.toml").write_text(FORCE_CLARIFY, encoding="utf-8")
    env = replica_env(
        home=tmp_path / "unused",
        slack_url=fake_slack.url,
        database_url=url,
        schema=schema,
        BRAIN_CLAIM_LEASE=LEASE_S,
    )
    replicas = [start_replica(f"replica{i}", template, tmp_path, env) for i in (1, 2, 3)]
    try:
        async with client_session() as session:
            for replica in replicas:
                await wait_ready(session, replica, timeout=600)
        terminal = {**env, "BRAIN_HOME": str(tmp_path / "terminal")}
        yield replicas, terminal, url, schema
    finally:
        stop(replicas)


def _why(env: dict[str, str], decision_id: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "cli", "why", decision_id, "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def _decision_id(call: Call) -> str:
    block = next(b for b in call.params["blocks"] if b.get("block_id", "").startswith("brain_"))
    return str(block["block_id"].split(":", 1)[1])


def _posted(fake: FakeSlackAPI, channel: str) -> list[Call]:
    return [c for c in fake.of("chat.postMessage") if c.params.get("channel") == channel]


def _claimed(url: str, schema: str, keys: list[str]) -> int:
    """How many of `keys` are claimed and still owed an answer."""
    with psycopg.connect(url, autocommit=True, options=f"-c search_path={schema}") as conn:
        row = conn.execute(
            "SELECT count(*) FROM slack_events WHERE key = ANY(%s) AND state = 'claimed' "
            "AND payload IS NOT NULL",
            (keys,),
        ).fetchone()
    return int(row[0]) if row else 0


@pytest.mark.slow
async def test_a_clarification_moves_between_replicas_and_a_killed_replica_loses_nothing(
    cluster: tuple[list[Replica], dict[str, str], str, str], fake_slack: FakeSlackAPI
) -> None:
    replicas, terminal, url, schema = cluster
    async with client_session() as session:
        # -- asked through replica 1, answered through replica 2 ------------------------------
        question = p.message("my VPN keeps dropping", user="UCLAR001", channel="DCLAR001")
        assert await send_event(session, replicas[0], question, "EvCLAR1") == 200
        asked = (await fake_slack.wait_for("chat.postMessage", timeout=300))[0]
        assert any(
            b.get("block_id", "").startswith("brain_clarify:") for b in asked.params["blocks"]
        )
        answer = p.message("1", user="UCLAR001", channel="DCLAR001", thread_ts=question["ts"])
        assert await send_event(session, replicas[1], answer, "EvCLAR2") == 200
        await fake_slack.wait_for(
            "chat.postMessage", 2, where=lambda c: c.params.get("channel") == "DCLAR001"
        )
        await wait_idle(session, replicas)
        replies = _posted(fake_slack, "DCLAR001")
        assert len(replies) == 2
        feedback = _why(terminal, _decision_id(asked))["feedback"]
        assert [(f["kind"], f["source"]) for f in feedback] == [("correct", "clarify")]

        # -- kill -9 of one replica mid-burst --------------------------------------------------
        victim, survivors = replicas[2], replicas[:2]
        events = [
            p.message(
                "the printer on floor 3 is jammed",
                user=f"UKILL{i:03d}",
                channel=f"DKILL{i:03d}",
                ts=f"1700001000.{i:06d}",
            )
            for i in range(BURST)
        ]
        to_victim = [i for i in range(BEFORE_KILL) if i % 3 == 2]
        held = await psycopg.AsyncConnection.connect(url, autocommit=True)
        for i in to_victim:
            thread = f"thread:{events[i]['channel']}:{events[i]['ts']}"
            await held.execute("SELECT pg_advisory_lock(%s)", (lock_key(schema, thread),))

        async def deliver(i: int, targets: list[Replica]) -> None:
            first = targets[i % len(targets)]
            assert await send_event(session, first, events[i], f"EvKILL{i:03d}") == 200
            if i % 5 == 0:  # Slack retried it (its ack was late) through another replica
                other = targets[(i + 1) % len(targets)]
                status = await send_event(session, other, events[i], f"EvKILL{i:03d}", 1)
                assert status == 200

        await asyncio.gather(*(deliver(i, replicas) for i in range(BEFORE_KILL)))
        # Every message sent to the victim is acknowledged (200 above) and claimed by it.
        victim_keys = [f"event:EvKILL{i:03d}" for i in to_victim]
        assert _claimed(url, schema, victim_keys) == len(to_victim)
        victim.process.kill()
        victim.process.wait(timeout=30)
        # The burst goes on through the survivors, with Slack's retries of two of the victim's
        # messages among it, while the victim's threads are released.
        rest = [deliver(i, survivors) for i in range(BEFORE_KILL, BURST)]
        retries = [
            send_event(session, survivors[n % 2], events[i], f"EvKILL{i:03d}", 2)
            for n, i in enumerate(to_victim[:2])
        ]
        await asyncio.gather(*rest, *retries, held.close())

        channels = {str(event["channel"]) for event in events}
        await fake_slack.wait_for(
            "chat.postMessage",
            BURST,
            where=lambda c: c.params.get("channel") in channels,
            timeout=600,
        )
        burst_keys = [f"event:EvKILL{i:03d}" for i in range(BURST)]
        for _ in range(3000):  # nothing is left owed (bounded: 10 minutes) ...
            if not _claimed(url, schema, burst_keys):
                break
            await asyncio.sleep(0.2)
        else:
            owed = _claimed(url, schema, burst_keys)
            pytest.fail(f"{owed} of the burst's messages are still claimed and owed an answer")
        await wait_idle(session, survivors)  # ... nor being answered
        answered = Counter(
            str(c.params["channel"])
            for c in fake_slack.of("chat.postMessage")
            if c.params.get("channel") in channels
        )
        assert answered == Counter({channel: 1 for channel in channels})
        recovered = 0.0
        for replica in survivors:
            found = await metrics(session, replica)
            recovered += found.get("brain_slack_events_recovered_total{}", 0.0)
        # Two of the victim's messages may have been taken over by their retries instead.
        assert recovered >= len(to_victim) - 2
    assert all(replica.process.poll() is None for replica in survivors)
