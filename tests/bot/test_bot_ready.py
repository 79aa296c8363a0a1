"""`brain run` is ready before it takes events: /readyz 503 while warming, 200 once warm.

The warm-up is held deterministically, not raced: the process gets an empty encoder cache
whose export lock this test holds, so `Brain.warm` waits on it (as a second process waits for
a first one's export). While it waits, the port answers liveness, readiness says 503 and an
event is refused unacknowledged (503, so Slack retries it). The test then puts the exported
graphs in place and lets go; /readyz turns 200 with every heavy part open, and the first
event after that (Slack's retry of the refused one) is answered.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
from collections.abc import Callable
from pathlib import Path

from filelock import FileLock

from brain.engine import Brain
from core.text.embedder import _fork_layer, _model_dir
from core.text.onnx_files import onnx_files
from tests.bot import brain_run
from tests.bot import slack_payloads as p
from tests.bot.conftest import ROUTED_TEXT
from tests.extras import needs_torch
from tests.fakes.slack_api import FakeSlackAPI
from tests.http_client import client_session

LISTENING = re.compile(r"listening on (http://127\.0\.0\.1:\d+)/slack/events")
#: Parts that must be open before the first event, or it would wait for them.
HEAVY_PARTS = ("embedder", "semantic model", "knowledge base", "calibration")


async def _collect(stream: asyncio.StreamReader, lines: list[str]) -> None:
    while raw := await stream.readline():
        lines.append(raw.decode("utf-8", "replace"))


async def _base_url(lines: list[str], process: asyncio.subprocess.Process) -> str:
    for _ in range(1200):  # up to ~2 minutes on a loaded machine; not a timing assertion
        for line in lines:
            found = LISTENING.search(line)
            if found:
                return found.group(1)
        assert process.returncode is None, "".join(lines)
        await asyncio.sleep(0.1)
    raise AssertionError("brain run never listened:\n" + "".join(lines))


@needs_torch
async def test_brain_run_is_not_ready_until_warm_then_answers_at_once(
    brain_factory: Callable[[], Brain], fake_slack: FakeSlackAPI, tmp_path: Path
) -> None:
    brain_factory().close()
    model_dir = _model_dir()
    fork = _fork_layer(model_dir)
    shipped = onnx_files(model_dir, Path(os.environ["BRAIN_ENCODER_CACHE"]), fork)
    assert shipped.exist()  # the session's export (tests/conftest.py)
    cache = tmp_path / "encoder"
    cache.mkdir()
    target = onnx_files(model_dir, cache, fork)
    held = FileLock(str(target.lower.with_suffix(".lock")))
    held.acquire()
    env = {
        **os.environ,
        "BRAIN_ENCODER_CACHE": str(cache),
        "SLACK_BOT_TOKEN": "xoxb-ready-token",
        "SLACK_SIGNING_SECRET": p.SIGNING_SECRET,
        "SLACK_API_URL": fake_slack.url,
    }
    process = await brain_run.start(env, *brain_run.HTTP)
    assert process.stderr is not None and process.stdout is not None
    err_lines: list[str] = []
    reader = asyncio.create_task(_collect(process.stderr, err_lines))
    event = p.message(ROUTED_TEXT)
    body = json.dumps(p.envelope(event, "EvReady001"))
    try:
        base = await _base_url(err_lines, process)
        async with client_session() as session:
            async with session.get(f"{base}/healthz") as response:
                assert response.status == 200
                assert (await response.json())["ready"] is False
            async with session.get(f"{base}/readyz") as response:
                assert response.status == 503
                report = await response.json()
            assert report["ready"] is False and report["checks"] == {"warm": "warming up"}
            assert not report["parts"]["embedder"] and not report["parts"]["semantic model"]
            headers = {"Content-Type": "application/json", **p.sign(body)}
            async with session.post(f"{base}/slack/events", data=body, headers=headers) as response:
                assert response.status == 503  # not acknowledged: Slack will send it again
                assert response.headers["Retry-After"]
            assert fake_slack.of("chat.postMessage") == []

            for graph, into in ((shipped.lower, target.lower), (shipped.upper, target.upper)):
                shutil.copyfile(graph, into.with_suffix(".part"))
                into.with_suffix(".part").rename(into)
            held.release()

            status, report = 503, {}
            for _ in range(1200):
                async with session.get(f"{base}/readyz") as response:
                    status, report = response.status, await response.json()
                if status == 200:
                    break
                await asyncio.sleep(0.1)
            assert status == 200, report
            assert report["checks"] == {"warm": "ok", "stores": "ok"}
            assert report["warm_s"] is not None
            assert all(report["parts"][name] for name in HEAVY_PARTS), report["parts"]
            line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
            assert "HTTP mode on" in line  # the ready line comes after the warm-up

            retry = {**headers, **p.sign(body), "X-Slack-Retry-Num": "1"}
            retry["X-Slack-Retry-Reason"] = "http_error"
            async with session.post(f"{base}/slack/events", data=body, headers=retry) as response:
                assert response.status == 200
        posts = await fake_slack.wait_for("chat.postMessage", timeout=90)
        assert posts[0].params["thread_ts"] == event["ts"]
        assert any("warm-up took" in line for line in err_lines)
    finally:
        if held.is_locked:
            held.release()
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), 60)
        await reader
    assert process.returncode == 0, "".join(err_lines)
