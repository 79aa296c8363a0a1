"""Many workspaces: Bolt's OAuth install flow over HTTP, tokens encrypted in the record
stores, each workspace's events answered with its own token, uninstall revokes it."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from cryptography.fernet import Fernet

from bot.oauth import INSTALL_PATH, REDIRECT_PATH
from core.config import load_settings
from core.stores import open_stores
from tests.bot import slack_payloads as p
from tests.bot.conftest import ROUTED_TEXT, Harness, StartBot
from tests.fakes.slack_api import FakeSlackAPI
from tests.http_client import client_session

KEY = Fernet.generate_key().decode()


@pytest.fixture
def oauth_env(monkeypatch: pytest.MonkeyPatch, slack_env: None) -> None:
    monkeypatch.delenv("SLACK_BOT_TOKEN")
    monkeypatch.setenv("SLACK_CLIENT_ID", "111.222")
    monkeypatch.setenv("SLACK_CLIENT_SECRET", "client-secret-value")
    monkeypatch.setenv("BRAIN_TOKEN_KEY", KEY)


async def install(harness: Harness, team: str, token: str) -> None:
    """A browser going through /slack/install then Slack's redirect with a fresh code."""
    await install_at(harness.url.rsplit("/slack/", 1)[0], harness.fake, team, token)


async def install_at(base: str, fake: FakeSlackAPI, team: str, token: str) -> None:
    """`install` on the bot served at `base` (any server: a `brain run` process too)."""
    fake.oauth_codes[f"code-{team}"] = (team, token)
    async with client_session() as browser:
        async with browser.get(base + INSTALL_PATH, allow_redirects=False) as page:
            body = await page.text()
            assert page.status in (200, 302)
            cookie = page.headers["Set-Cookie"].split(";", 1)[0]  # Secure: sent by hand here
        state = re.search(r"state=([\w\-]+)", body or page.headers.get("Location", ""))
        assert state is not None
        query = {"code": f"code-{team}", "state": state.group(1)}
        headers = {"Cookie": cookie}
        async with browser.get(base + REDIRECT_PATH, params=query, headers=headers) as done:
            assert done.status == 200, await done.text()


def event_of(team: str, event: dict[str, Any]) -> str:
    envelope = p.envelope({**event, "team": team})
    envelope["team_id"] = team
    envelope["authorizations"] = [{"team_id": team, "user_id": "UBOT0001", "is_bot": True}]
    return json.dumps(envelope)


def tokens_used(harness: Harness, method: str) -> list[str]:
    return [c.params["_authorization"] for c in harness.fake.of(method)]


async def test_two_workspaces_install_and_each_is_answered_with_its_own_token(
    oauth_env: None, start_bot: StartBot, tmp_path: Path
) -> None:
    harness = await start_bot()
    await install(harness, "T0000001", "xoxb-one")
    await install(harness, "T0000002", "xoxb-two")
    # At rest the tokens are encrypted: no file of the home holds them.
    home = load_settings().home
    for file in home.rglob("*"):
        if file.is_file():
            data = file.read_bytes()
            assert b"xoxb-one" not in data and b"xoxb-two" not in data, file
    event = p.message(ROUTED_TEXT, user="UTWO0001", channel="DTWO0001")
    status, _ = await harness.post(event_of("T0000002", event), content_type="application/json")
    assert status == 200
    await harness.fake.wait_for("chat.postMessage")
    await harness.idle()
    assert set(tokens_used(harness, "chat.postMessage")) == {"Bearer xoxb-two"}
    # A replayed redirect (the state was used) installs nothing.
    harness.fake.oauth_codes["again"] = ("T0000003", "xoxb-three")
    base = harness.url.rsplit("/slack/", 1)[0]
    query = {"code": "again", "state": "x"}
    async with client_session() as browser, browser.get(base + REDIRECT_PATH, params=query):
        pass
    assert "again" in harness.fake.oauth_codes  # never exchanged


async def test_an_uninstall_revokes_the_workspace_token(
    oauth_env: None, start_bot: StartBot
) -> None:
    harness = await start_bot()
    await install(harness, "T0000001", "xoxb-one")
    await install(harness, "T0000002", "xoxb-two")
    uninstalled = {"type": "app_uninstalled", "event_ts": p.new_ts()}
    status, _ = await harness.post(
        event_of("T0000002", uninstalled), content_type="application/json"
    )
    assert status == 200
    await harness.idle()
    # Bolt deletes the installation in its own listener task, after the event's 200 and
    # outside the bot's background work that `idle` waits for: wait for the deletion.
    for _ in range(600):
        if _installed_teams() != ["T0000001", "T0000002"]:
            break
        await asyncio.sleep(0.05)
    assert _installed_teams() == ["T0000001"]
    event = p.message(ROUTED_TEXT, user="UTWO0001", channel="DTWO0001")
    await harness.post(event_of("T0000002", event), content_type="application/json")
    await harness.idle()
    assert "Bearer xoxb-two" not in tokens_used(harness, "chat.postMessage")


def _installed_teams() -> list[str]:
    stores = open_stores(load_settings())
    try:
        return sorted(str(r["team_id"]) for r in stores.installations.all())
    finally:
        stores.close()
