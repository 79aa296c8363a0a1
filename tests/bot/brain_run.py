"""`brain run` as a process of its own, for the tests of what only the process shows (the mode
the environment chooses, the first line it prints, the logs it writes, a clean SIGTERM)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path

from tests.http_client import client_session

#: `brain run`'s arguments for HTTP on a free local port.
HTTP = ("--http", "--port", "0", "--host", "127.0.0.1")


def json_logging_env(home: Path, slack_url: str, bot_token: str) -> dict[str, str]:
    """The environment of a `brain run` over HTTP against the fake Slack at `slack_url`, with
    JSON logs and an on-call channel, on `home`."""
    from tests.bot.slack_payloads import SIGNING_SECRET

    return {
        **os.environ,
        "BRAIN_HOME": str(home),
        "BRAIN_LOG_FORMAT": "json",
        "BRAIN_ONCALL_CHANNEL": "CONCALL01",
        "SLACK_BOT_TOKEN": bot_token,
        "SLACK_SIGNING_SECRET": SIGNING_SECRET,
        "SLACK_API_URL": slack_url,
    }


async def post_signed(url: str, body: str) -> int:
    """POST a JSON body to `brain run`'s Slack endpoint, signed as Slack signs; the status."""
    from tests.bot.slack_payloads import sign

    headers = {"Content-Type": "application/json", **sign(body)}
    async with (
        client_session() as session,
        session.post(url, data=body, headers=headers) as response,
    ):
        return response.status


async def start(env: Mapping[str, str], *args: str) -> asyncio.subprocess.Process:
    """`python -m brain run ARGS` with `env`, its stdout and stderr piped."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "brain", "run", *args,
        env=dict(env), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip


async def first_line(process: asyncio.subprocess.Process, timeout: float) -> str:
    """The first line `brain run` prints once it serves (the URL last, in HTTP mode)."""
    assert process.stdout is not None
    return (await asyncio.wait_for(process.stdout.readline(), timeout)).decode().strip()


async def stop(process: asyncio.subprocess.Process) -> bytes:
    """SIGTERM, then what the process wrote on stderr until it ended."""
    process.send_signal(signal.SIGTERM)
    _, err = await asyncio.wait_for(process.communicate(), 60)
    return err
