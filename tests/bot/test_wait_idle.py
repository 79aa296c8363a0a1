"""`tests.replicas.wait_idle`, which 21 replica tests wait on, fails clearly instead of hanging or
passing: a replica still busy after the bound, one that exited, and one whose `/metrics` no
longer reports its pending work (a renamed gauge must not read as "idle")."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from aiohttp import web

from tests.http_client import client_session
from tests.pg_server import free_port
from tests.replicas import Replica, wait_idle


class FakeMetrics:
    """A `/metrics` endpoint whose text the test sets."""

    def __init__(self) -> None:
        self.text = ""
        self.port = free_port()

    async def serve(self, request: web.Request) -> web.Response:
        return web.Response(text=self.text, content_type="text/plain")


@pytest.fixture
async def endpoint() -> AsyncIterator[FakeMetrics]:
    fake = FakeMetrics()
    app = web.Application()
    app.router.add_get("/metrics", fake.serve)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", fake.port).start()
    yield fake
    await runner.cleanup()


@pytest.fixture
def process() -> Iterator[subprocess.Popen[bytes]]:
    """A live process standing for the replica's (its HTTP side is `endpoint`)."""
    running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    yield running
    running.kill()
    running.wait(timeout=30)


def _replica(tmp_path: Path, endpoint: FakeMetrics, process: subprocess.Popen[bytes]) -> Replica:
    log = tmp_path / "replica9.log"
    log.write_text("the replica's last words\n", encoding="utf-8")
    return Replica("replica9", tmp_path, endpoint.port, process, log)


def _gauge(value: int) -> str:
    return f"# TYPE brain_bot_pending_work gauge\nbrain_bot_pending_work {value}\n"


async def test_an_idle_replica_returns(
    tmp_path: Path, endpoint: FakeMetrics, process: subprocess.Popen[bytes]
) -> None:
    endpoint.text = _gauge(0)
    async with client_session() as session:
        await wait_idle(session, [_replica(tmp_path, endpoint, process)], timeout=30)


async def test_a_replica_busy_past_the_bound_is_named_with_its_log(
    tmp_path: Path, endpoint: FakeMetrics, process: subprocess.Popen[bytes]
) -> None:
    endpoint.text = _gauge(2)
    async with client_session() as session:
        with pytest.raises(AssertionError, match=r"(?s)replica9: 2 pending.*last words"):
            await wait_idle(session, [_replica(tmp_path, endpoint, process)], timeout=0.5)


async def test_a_replica_without_the_gauge_is_not_taken_for_idle(
    tmp_path: Path, endpoint: FakeMetrics, process: subprocess.Popen[bytes]
) -> None:
    endpoint.text = "# TYPE brain_bot_work_in_flight gauge\nbrain_bot_work_in_flight 3\n"
    async with client_session() as session:
        with pytest.raises(AssertionError, match="replica9's /metrics has no"):
            await wait_idle(session, [_replica(tmp_path, endpoint, process)], timeout=30)


async def test_a_replica_that_exited_is_reported_with_its_log(
    tmp_path: Path, endpoint: FakeMetrics, process: subprocess.Popen[bytes]
) -> None:
    endpoint.text = _gauge(0)
    process.kill()
    process.wait(timeout=30)
    async with client_session() as session:
        with pytest.raises(AssertionError, match=r"(?s)replica9 exited.*last words"):
            await wait_idle(session, [_replica(tmp_path, endpoint, process)], timeout=30)
