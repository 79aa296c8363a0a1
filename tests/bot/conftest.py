"""Fixtures: a fake Slack Web API, the real bot served over real HTTP, signed requests."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import web

from bot.app import SlackBot, build_bot
from bot.server import EVENTS_PATH, http_app
from brain.engine import Brain
from core.config import load_settings
from core.files import copy_tree
from core.logs import configure
from core.records import Message
from tests.bot import slack_payloads as p
from tests.conftest import isolate
from tests.fakes.slack_api import FakeSlackAPI
from tests.http_client import client_session

ONCALL_CHANNEL = "CONCALL01"
ONCALL_GROUP = "SONCALL01"
#: The member of ONCALL_GROUP (the fake's usergroups.users.list answers with it).
ONCALL_USER = "UONCALL01"
BRAIN_CHANNEL = "CBRAIN001"
#: Thresholds no message reaches: every decision goes to the dynamic tier and asks back
#: (Draft-Critique-Refine off, or it would route the messages with clear clues).
FORCE_CLARIFY = (
    "[routing]\nfast_threshold = 1.0\nverify_threshold = 1.0\n[dynamic]\nenabled = false\n"
)
#: Texts whose decisions the tests rely on (checked as preconditions where it matters).
ROUTED_TEXT = "my VPN keeps dropping, error 691"
ENTITY_TEXT = "my VPN keeps dropping, error 691 on laptop LT-0042"
ESCALATE_TEXT = "security incident: ransomware on my laptop"


class Harness:
    """The real Slack app on 127.0.0.1, spoken to with signed HTTP requests."""

    def __init__(
        self, bot: SlackBot, fake: FakeSlackAPI, runner: web.AppRunner, url: str, brain: Any
    ) -> None:
        self.bot = bot
        self.brain = brain
        self._closed = False
        self.fake = fake
        self.runner = runner
        self.url = url
        self.session = client_session()

    async def post(
        self,
        body: str,
        *,
        content_type: str,
        headers: dict[str, str] | None = None,
        signed: bool = True,
        secret: str = p.SIGNING_SECRET,
        timestamp: int | None = None,
    ) -> tuple[int, str]:
        sent = {"Content-Type": content_type, **(headers or {})}
        if signed:
            sent.update(p.sign(body, secret=secret, timestamp=timestamp))
        async with self.session.post(self.url, data=body.encode(), headers=sent) as response:
            return response.status, await response.text()

    async def event(
        self,
        event: dict[str, Any],
        *,
        event_id: str | None = None,
        retry_num: int | None = None,
        **kwargs: Any,
    ) -> tuple[int, str]:
        """POST one Events API callback."""
        headers = {}
        if retry_num is not None:
            headers = {"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": "http_timeout"}
        body = json.dumps(p.envelope(event, event_id))
        return await self.post(body, content_type="application/json", headers=headers, **kwargs)

    async def click(self, payload: dict[str, Any]) -> tuple[int, str]:
        """POST one interactivity payload."""
        return await self.post(
            p.action_body(payload), content_type="application/x-www-form-urlencoded"
        )

    async def command(self, command: str, text: str, *, user: str, channel: str) -> tuple[int, str]:
        """POST one slash command."""
        body = p.command_body(
            command, text, user=user, channel=channel, response_url=self.fake.response_url("why")
        )
        return await self.post(body, content_type="application/x-www-form-urlencoded")

    async def idle(self) -> None:
        """Wait for every background reply to finish."""
        await self.bot.idle()

    async def close(self) -> None:
        """Stop serving (finishing in-flight replies) and close the brain, like a shutdown."""
        if self._closed:
            return
        self._closed = True
        await self.session.close()
        await self.runner.cleanup()
        self.brain.close()


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """The process's logging as `brain run` configures it with BRAIN_LOG_FORMAT=json."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    stream = io.StringIO()
    configure("json", logging.INFO, stream=stream)
    yield stream
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.captureWarnings(False)  # JSON mode logs Python's warnings; pytest collects them


@pytest.fixture
async def fake_slack() -> AsyncIterator[FakeSlackAPI]:
    fake = await FakeSlackAPI().start()
    yield fake
    await fake.stop()


def set_slack_env(monkeypatch: pytest.MonkeyPatch, fake_slack: FakeSlackAPI) -> None:
    """Credentials and channels for the bot, pointing at the fake Web API."""
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test-token")
    monkeypatch.setenv("SLACK_SIGNING_SECRET", p.SIGNING_SECRET)
    monkeypatch.setenv("SLACK_API_URL", fake_slack.url)
    monkeypatch.setenv("BRAIN_ONCALL_CHANNEL", ONCALL_CHANNEL)
    monkeypatch.setenv("BRAIN_ONCALL_MENTION", ONCALL_GROUP)
    monkeypatch.setenv("BRAIN_CHANNELS", BRAIN_CHANNEL)
    fake_slack.usergroups[ONCALL_GROUP] = [ONCALL_USER]


@pytest.fixture
def slack_env(monkeypatch: pytest.MonkeyPatch, fake_slack: FakeSlackAPI) -> None:
    """Credentials and channels for the bot, pointing at the fake Web API."""
    set_slack_env(monkeypatch, fake_slack)


StartBot = Callable[..., Awaitable[Harness]]


@pytest.fixture
async def start_bot(
    slack_env: None, fake_slack: FakeSlackAPI, brain_factory: Callable[[], Any]
) -> AsyncIterator[StartBot]:
    """Start (and restart) the bot over HTTP; every harness is closed at the end."""
    started: list[Harness] = []

    async def start(config: str | None = None) -> Harness:
        if config is not None:
            home = load_settings().home
            brain_factory.prepare(home)  # type: ignore[attr-defined]
            (home / "brain.toml").write_text(config, encoding="utf-8")
        harness = await serve_bot(brain_factory(), fake_slack)
        started.append(harness)
        return harness

    yield start
    for harness in started:
        await harness.close()


async def serve_bot(brain: Brain, fake_slack: FakeSlackAPI) -> Harness:
    """The bot on `brain` (and the environment's settings), served over HTTP and started."""
    bot = build_bot(brain, load_settings())
    runner = web.AppRunner(http_app(bot), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    await bot.start()  # ready: events before it get 503 (tests/bot/test_bot_ready.py)
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    url = f"http://127.0.0.1:{port}{EVENTS_PATH}"
    return Harness(bot, fake_slack, runner, url, brain)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def module_harness(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, brain_template: Path
) -> AsyncIterator[Harness]:
    """One running bot for all the tests of a module that use it (with
    `@pytest.mark.asyncio(loop_scope="module")`), in a home of its own: for tests that each
    send their own requests and read only their own answers, and leave nothing another test
    reads. A module's `SHARED_BOT_CONFIG` (a `brain.toml`) configures it. Starting a bot and
    warming its brain took about 1.8 s a test under load."""
    fake = await FakeSlackAPI().start()
    home = tmp_path_factory.mktemp("module-bot") / "brain-home"
    copy_tree(brain_template, home)
    config = getattr(request.module, "SHARED_BOT_CONFIG", None)
    if config is not None:
        (home / "brain.toml").write_text(config, encoding="utf-8")
    with pytest.MonkeyPatch.context() as env:
        isolate(env, home)
        set_slack_env(env, fake)
        harness = await serve_bot(Brain.open(load_settings()), fake)
    try:
        yield harness
    finally:
        await harness.close()
        await fake.stop()


@pytest_asyncio.fixture(loop_scope="module")
async def shared_harness(module_harness: Harness) -> AsyncIterator[Harness]:
    """The module's one running bot (`module_harness`), handed to a test as if started for it:
    the earlier tests' replies finished, the fake Slack's record empty, and a user and DM of
    the test's own for every message that names none (`slack_payloads.a_new_asker`), so that
    no test sees another's decisions, threads or tickets. Its module marks its tests
    `asyncio(loop_scope="module")`. For tests that need no settings, home or restart of their
    own, and that do not count the app's global state (every pending on-call alert, every
    lesson); fewer than `[memory] agreement_users` (3) tests of a module may teach lessons on
    similar messages, or an organisation lesson would move the later tests' routing. Starting
    a bot and warming its brain costs about 0.9 s a test under load."""
    await module_harness.idle()
    module_harness.fake.forget()
    with p.a_new_asker():
        yield module_harness
        await module_harness.idle()


@pytest.fixture
async def harness(start_bot: StartBot) -> Harness:
    """One running bot."""
    return await start_bot()


@pytest.fixture(scope="session")
def brain_template(tmp_path_factory: pytest.TempPathFactory, fitted_home: Path) -> Path:
    """The run's fitted home after one warm-up answer, built once per test process; each test
    copies it into its own BRAIN_HOME."""
    home = tmp_path_factory.mktemp("bot-brain-template") / "home"
    copy_tree(fitted_home, home)
    settings = load_settings({"BRAIN_HOME": str(home)})
    brain = Brain.open(settings)
    try:
        brain.ask(Message("warm-up: my vpn is broken", user="UWARMUP", channel="DWARMUP"))
    finally:
        brain.close()
    return home


@pytest.fixture
def brain_factory(brain_template: Path) -> Callable[[], Brain]:
    """Opens the real brain of this test's BRAIN_HOME (a copy of the template)."""

    def prepare(home: Path) -> None:
        if not home.exists():
            copy_tree(brain_template, home)

    def open_brain() -> Brain:
        settings = load_settings()
        prepare(settings.home)
        return Brain.open(load_settings())

    open_brain.prepare = prepare  # type: ignore[attr-defined]
    return open_brain
