"""`brain run` starts in every mode README documents, chosen from the environment, and a mode
that lacks a variable is refused naming exactly what that mode still needs."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from cryptography.fernet import Fernet

from bot.oauth import INSTALL_PATH
from brain.engine import Brain
from cli import main
from tests.bot import brain_run
from tests.bot import slack_payloads as p
from tests.bot.conftest import ROUTED_TEXT
from tests.bot.test_workspaces import event_of, install_at
from tests.fakes.slack_api import FakeSlackAPI
from tests.http_client import client_session

KEY = Fernet.generate_key().decode()
OAUTH = "HTTP mode for many workspaces (OAuth install)"
OAUTH_ENV = {
    "SLACK_CLIENT_ID": "111.222",
    "SLACK_CLIENT_SECRET": "client-secret-value",
    "BRAIN_TOKEN_KEY": KEY,
    "SLACK_SIGNING_SECRET": p.SIGNING_SECRET,
}


@pytest.mark.parametrize(
    ("env", "args", "refusal"),
    [
        (
            {},
            ["--http"],
            "SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET must be set for HTTP mode. For many "
            "workspaces instead set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, BRAIN_TOKEN_KEY and "
            "SLACK_SIGNING_SECRET (no bot token).",
        ),
        (
            {"SLACK_BOT_TOKEN": "xoxb-1"},
            ["--http"],
            "SLACK_SIGNING_SECRET must be set for HTTP mode.",
        ),
        ({"SLACK_APP_TOKEN": "xapp-1"}, [], "SLACK_BOT_TOKEN must be set for Socket Mode."),
        (
            {"SLACK_CLIENT_ID": "111.222"},
            ["--http"],
            "SLACK_CLIENT_SECRET, BRAIN_TOKEN_KEY and SLACK_SIGNING_SECRET must be set for "
            f"{OAUTH}.",
        ),
        (
            {k: v for k, v in OAUTH_ENV.items() if k != "SLACK_SIGNING_SECRET"},
            ["--http"],
            f"SLACK_SIGNING_SECRET must be set for {OAUTH}.",
        ),
        (
            {k: v for k, v in OAUTH_ENV.items() if k != "BRAIN_TOKEN_KEY"},
            [],
            f"BRAIN_TOKEN_KEY must be set for {OAUTH}.",
        ),
    ],
)
def test_a_mode_that_lacks_a_variable_names_exactly_what_it_lacks(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    env: dict[str, str],
    args: list[str],
    refusal: str,
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(["run", *args]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == f"brain run: {refusal}"
    assert not any(value in captured.err for value in env.values() if len(value) > 8)


def test_a_token_key_that_is_no_fernet_key_is_refused_in_words(
    brain_factory: Callable[[], Brain],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    brain_factory().close()
    for name, value in {**OAUTH_ENV, "BRAIN_TOKEN_KEY": "not-a-key"}.items():
        monkeypatch.setenv(name, value)
    assert main(["run", "--http", "--port", "0", "--host", "127.0.0.1"]) == 2
    err = capsys.readouterr().err
    assert "BRAIN_TOKEN_KEY is not a Fernet key" in err and "Traceback" not in err


async def test_brain_run_serves_the_install_flow_for_many_workspaces(
    brain_factory: Callable[[], Brain], fake_slack: FakeSlackAPI
) -> None:
    brain_factory().close()
    env = {**os.environ, **OAUTH_ENV, "SLACK_API_URL": fake_slack.url}
    process = await brain_run.start(env, *brain_run.HTTP)
    try:
        line = await brain_run.first_line(process, 90)
        url = line.rsplit(" ", 1)[-1]
        assert url.startswith("http://127.0.0.1:") and url.endswith("/slack/events"), line
        base = url.rsplit("/slack/", 1)[0]
        async with (
            client_session() as browser,
            browser.get(base + INSTALL_PATH, allow_redirects=False) as page,
        ):
            assert page.status in (200, 302)
            assert "slack-app-oauth-state" in page.headers["Set-Cookie"]
            shown = await page.text() or page.headers.get("Location", "")
            assert "slack.com/oauth/v2/authorize" in shown and "client_id=111.222" in shown

        await install_at(base, fake_slack, "T0000001", "xoxb-installed-one")
        body = event_of("T0000001", p.message(ROUTED_TEXT, user="UONE0001", channel="DONE0001"))
        assert await brain_run.post_signed(url, body) == 200
        posts = await fake_slack.wait_for("chat.postMessage", timeout=90)
        assert posts[0].params["_authorization"] == "Bearer xoxb-installed-one"
    finally:
        err = await brain_run.stop(process)
    assert process.returncode == 0, err.decode()[-2000:]
    assert b"xoxb-installed-one" not in err and KEY.encode() not in err
    assert b"client-secret-value" not in err
