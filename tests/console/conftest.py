"""A running console (HTTP on 127.0.0.1) over a copy of the fitted home, and a signed-in client."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from pydantic import SecretStr

from brain.engine import Brain
from console import standalone
from core.config import ConsoleConfig, Settings
from core.files import copy_tree
from tests.fakes.slack_api import FakeSlackAPI

TOKEN = "console-test-token"
ADMIN = "UADMIN01"


class Console:
    """The running console's base URL and the brain behind it."""

    def __init__(self, url: str, brain: Brain, slack: FakeSlackAPI) -> None:
        self.url, self.brain, self.slack = url, brain, slack


@pytest.fixture
async def console(fitted_home: Path, isolated_env: Path) -> AsyncIterator[Console]:
    copy_tree(fitted_home, isolated_env)
    slack = await FakeSlackAPI().start()
    settings = Settings(
        home=isolated_env,
        console=ConsoleConfig(
            enabled=True,
            admin_token=SecretStr(TOKEN),
            admins=[ADMIN],
            slack_client_id="111.222",
            slack_client_secret=SecretStr("client-secret"),
            redirect_uri="http://127.0.0.1/console/auth/slack/callback",
            authorize_url="http://127.0.0.1:9/openid/connect/authorize",
        ),
    )
    settings.slack.api_url = slack.url
    brain = Brain(settings)
    runner = web.AppRunner(standalone(settings, lambda: brain))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield Console(f"http://127.0.0.1:{port}", brain, slack)
    finally:
        await runner.cleanup()
        brain.close()
        await slack.stop()


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found, "the page has no CSRF field"
    return found.group(1)


async def signed_in(console: Console) -> aiohttp.ClientSession:
    """A client holding an admin session (signed in with the admin token)."""
    session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with session.get(f"{console.url}/console/login") as response:
        csrf = csrf_of(await response.text())
    async with session.post(
        f"{console.url}/console/login", data={"csrf": csrf, "token": TOKEN}
    ) as response:
        assert response.status == 200 and response.url.path == "/console/"
    return session
