"""`brain run --http` replicas as real processes on one PostgreSQL, for tests and benchmarks.

Each replica has a brain home of its own (the embedded vector index and fitted models, copied
from a template) and shares every record through PostgreSQL. A replica is spoken to with
signed Slack requests and watched through its `/metrics`.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from core.files import copy_tree
from tests.bot import slack_payloads as p
from tests.pg_server import free_port

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Replica:
    """One running `brain run --http` process."""

    name: str
    home: Path
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_tail(self, size: int = 4000) -> str:
        return self.log.read_text(errors="replace")[-size:] if self.log.exists() else ""


def replica_env(
    *, home: Path, slack_url: str, database_url: str | None, schema: str | None, **extra: str
) -> dict[str, str]:
    """The environment of one replica: Slack credentials pointing at the fake Web API, and
    the shared PostgreSQL (None: the embedded default, TinyDB under the home)."""
    env = {
        **os.environ,
        "BRAIN_HOME": str(home),
        "SLACK_BOT_TOKEN": "xoxb-test-token",
        "SLACK_SIGNING_SECRET": p.SIGNING_SECRET,
        "SLACK_API_URL": slack_url,
        "PYTHONPATH": str(ROOT),
        **extra,
    }
    env.pop("SLACK_APP_TOKEN", None)
    if database_url is not None:
        env.update(
            BRAIN_STORE_BACKEND="postgres",
            BRAIN_DATABASE_URL=database_url,
            BRAIN_DATABASE_SCHEMA=schema or "brain",
        )
    return env


def start_replica(
    name: str, template: Path, root: Path, env: dict[str, str], *, fresh: bool = True
) -> Replica:
    """Copy the template home and start `brain run --http` on a free port (`fresh=False`:
    start again on the home a killed replica of that name left)."""
    home = root / name
    if fresh:
        copy_tree(template, home)
    env = {**env, "BRAIN_HOME": str(home)}
    port = free_port()
    log = root / f"{name}.log"
    with log.open("ab") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cli",
                "run",
                "--http",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    return Replica(name, home, port, process, log)


async def metrics(session: aiohttp.ClientSession, replica: Replica) -> dict[str, float]:
    """The replica's `/metrics` as {"sample{label=value,...}": value}."""
    async with session.get(f"{replica.base}/metrics") as response:
        text = await response.text()
    found: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            found[f"{sample.name}{{{labels}}}"] = sample.value
    return found


async def wait_ready(session: aiohttp.ClientSession, replica: Replica, timeout: float) -> None:
    """Until the replica's `/readyz` says 200 (warm: its events are answered, not refused with
    503 for Slack to retry); raises with its log."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if replica.process.poll() is not None:
            raise RuntimeError(f"{replica.name} exited:\n{replica.log_tail()}")
        try:
            async with session.get(f"{replica.base}/readyz") as response:
                if response.status == 200:
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.25)
    raise RuntimeError(f"{replica.name} not ready after {timeout:.0f} s:\n{replica.log_tail()}")


#: Longest `wait_idle` waits for the replicas' background work (a bound, not a measurement:
#: a replica still busy after it is stuck, and the test says so instead of hanging).
IDLE_TIMEOUT_S = 120.0


#: The gauge `wait_idle` reads (bot/metrics.py): work still running after the ack.
PENDING_WORK = "brain_bot_pending_work{}"


async def _pending_work(session: aiohttp.ClientSession, replica: Replica) -> float:
    """The replica's pending work; raises, with its log, when it has exited, or when its
    `/metrics` lacks the gauge (a renamed gauge must not read as "idle")."""
    if replica.process.poll() is not None:
        raise AssertionError(
            f"{replica.name} exited ({replica.process.returncode}):\n{replica.log_tail()}"
        )
    found = await metrics(session, replica)
    if PENDING_WORK not in found:
        raise AssertionError(f"{replica.name}'s /metrics has no {PENDING_WORK}")
    return found[PENDING_WORK]


async def wait_idle(
    session: aiohttp.ClientSession, replicas: list[Replica], timeout: float = IDLE_TIMEOUT_S
) -> None:
    """Until no replica has work running after its acknowledgements; raises, naming the busy
    replicas and their logs, when that takes longer than `timeout` (and at once for a replica
    that exited or does not report its pending work)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        pending = [await _pending_work(session, replica) for replica in replicas]
        if not any(pending):
            return
        if loop.time() >= deadline:
            busy = [(r, n) for r, n in zip(replicas, pending, strict=True) if n]
            report = "\n".join(f"{r.name}: {n:.0f} pending\n{r.log_tail()}" for r, n in busy)
            raise AssertionError(f"replicas still busy after {timeout:.0f} s:\n{report}")
        await asyncio.sleep(0.1)


async def post(
    session: aiohttp.ClientSession, replica: Replica, body: str, content_type: str, **headers: str
) -> int:
    """One signed Slack request to a replica; its HTTP status."""
    sent = {"Content-Type": content_type, **headers, **p.sign(body)}
    async with session.post(
        f"{replica.base}/slack/events", data=body.encode(), headers=sent
    ) as response:
        await response.read()
        return response.status


async def send_event(
    session: aiohttp.ClientSession,
    replica: Replica,
    event: dict[str, Any],
    event_id: str,
    retry_num: int | None = None,
) -> int:
    """One Events API callback (a Slack retry when `retry_num` is set)."""
    headers = {}
    if retry_num is not None:
        headers = {"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": "http_timeout"}
    body = json.dumps(p.envelope(event, event_id))
    return await post(session, replica, body, "application/json", **headers)


def stop(replicas: list[Replica]) -> None:
    """SIGTERM every replica (they finish in-flight replies), then kill what is left."""
    for replica in replicas:
        if replica.process.poll() is None:
            replica.process.send_signal(signal.SIGTERM)
    for replica in replicas:
        try:
            replica.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            replica.process.kill()
            replica.process.wait(timeout=10)
