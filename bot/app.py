"""The Slack app: a Bolt `AsyncApp` over the brain, with fast acknowledgements.

Every listener acknowledges at once and hands slow work (the brain, Web API calls) to tracked
background tasks, so Slack gets its answer well inside 3 seconds even when the brain is slow.
`bot/` holds no routing logic: it turns payloads into `core.records.Message` and renders replies.
"""

from __future__ import annotations

import asyncio
import gc
import logging

from slack_bolt.async_app import AsyncApp
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from bot import oauth, recovery
from bot.helpdesk import jira_sync, sweep
from bot.listeners import BOT_SCOPES, register_all
from bot.metrics import BotMetrics, SlackCallCounter
from bot.readiness import Readiness, stores_openable
from bot.services import BotServices
from brain import BrainAPI
from core.config import ConfigError, Settings

log = logging.getLogger(__name__)

DEFAULT_API_URL = AsyncWebClient.BASE_URL
#: auth.test errors that mean the token itself is wrong (not that Slack is unreachable).
TOKEN_REFUSED = frozenset(
    {"invalid_auth", "not_authed", "account_inactive", "token_revoked", "token_expired"}
)


async def check_token(client: AsyncWebClient) -> None:
    """`auth.test` at start: a token Slack refuses stops the bot with a clear error; an
    unreachable Slack only warns (Socket Mode keeps retrying with backoff)."""
    try:
        await client.auth_test()
    except SlackApiError as exc:
        error = exc.response.get("error")
        if error in TOKEN_REFUSED:
            raise ConfigError(
                f"Slack refused SLACK_BOT_TOKEN (auth.test: {error}); set the app's xoxb- bot token"
            ) from None
        log.warning("auth.test failed (%s); starting anyway", error)
    except (OSError, TimeoutError) as exc:
        log.warning("Slack is unreachable for auth.test (%s); starting anyway", exc)


def web_client(settings: Settings, *, metrics: BotMetrics | None = None) -> AsyncWebClient:
    """A Web API client that retries rate limits (honouring Retry-After), 5xx and lost links
    (and counts failed calls and 429s in `metrics`)."""
    token = settings.slack.bot_token.get_secret_value() if settings.slack.bot_token else ""
    if not token and not oauth.multi_workspace(settings):
        raise ConfigError("SLACK_BOT_TOKEN is not set: the bot needs its xoxb- token")
    base_url = settings.slack.api_url or DEFAULT_API_URL
    if not base_url.endswith("/"):
        base_url += "/"
    return AsyncWebClient(
        token=token or None,  # OAuth: each request's client gets its workspace's token
        base_url=base_url,
        timeout=10,
        retry_handlers=[
            *([SlackCallCounter(metrics)] if metrics is not None else []),
            AsyncRateLimitErrorRetryHandler(max_retry_count=5),
            AsyncConnectionErrorRetryHandler(max_retry_count=3),
            AsyncServerErrorRetryHandler(max_retry_count=2),
        ],
    )


def warm_up(brain: BrainAPI) -> None:
    """Open and fit the brain's parts now (`Brain.warm`), so the first message does not wait
    for the model and the knowledge base, then freeze them out of the garbage collector.

    The model and the knowledge base are millions of long-lived objects; without `gc.freeze`
    every full collection walks them all and stalls the event loop (measured: 0.5-1 s pauses,
    which delayed acknowledgements past Slack's patience under load).
    """
    try:
        brain.warm()
    except Exception as exc:  # a missing part degrades the brain; it must not stop the bot
        log.warning("could not open the brain's parts: %s", exc)
    gc.collect()
    gc.freeze()


class SlackBot:
    """The app plus the work it runs beside requests (re-escalation loop, background replies)."""

    def __init__(self, brain: BrainAPI, settings: Settings) -> None:
        self.settings = settings
        self.services = BotServices.create(brain, settings)
        self.client = web_client(settings, metrics=self.services.metrics)
        secret = settings.slack.signing_secret
        self.app = AsyncApp(
            name="digital-employee-brain",
            client=self.client,
            signing_secret=secret.get_secret_value() if secret else "",
            process_before_response=False,
            oauth_settings=oauth.settings_for(settings, BOT_SCOPES, self.services.stores),
        )
        register_all(self.app, self.services)
        opened = getattr(brain, "opened_parts", None)
        self.readiness = Readiness(opened if callable(opened) else None)
        self.readiness.add_check("stores", stores_openable(settings))
        self._loop_task: asyncio.Task[None] | None = None
        self._recovery_task: asyncio.Task[None] | None = None
        self._lag_task: asyncio.Task[None] | None = None
        self._sweep_task: asyncio.Task[None] | None = None
        self._jira_task: asyncio.Task[None] | None = None
        #: The loop with Jira, woken by Jira's webhook (`bot.server` serves it).
        self.jira = jira_sync.JiraSync(self.services, self.client, client_for=self.client_for)
        self._starting: asyncio.Task[None] | None = None

    async def client_for(self, team: str | None) -> AsyncWebClient:
        """The Web API client to post in a workspace outside any request (a background
        loop's notice): with many workspaces, one with that workspace's installed bot token
        (the shared client has none); else the shared client."""
        store = self.app.installation_store
        if team is None or store is None or not oauth.multi_workspace(self.settings):
            return self.client
        bot = await store.async_find_bot(enterprise_id=None, team_id=team)
        if bot is None or not bot.bot_token:
            return self.client
        shared = self.client
        return AsyncWebClient(
            token=bot.bot_token,
            base_url=shared.base_url,
            timeout=shared.timeout,
            retry_handlers=shared.retry_handlers,
        )

    @property
    def ready(self) -> bool:
        """Warm: events are answered without waiting for a model (see `bot.readiness`)."""
        return self.readiness.warm

    async def start(self) -> None:
        """Check the bot token, warm the brain up (once, however many callers), then start the
        loop that re-sends unacknowledged alerts. Returns when the bot is ready for events;
        raises ConfigError when Slack refuses the token."""
        if self._starting is None:
            self._starting = asyncio.get_running_loop().create_task(
                self._start(), name="bot-warm-up"
            )
        await asyncio.shield(self._starting)

    async def _start(self) -> None:
        if not oauth.multi_workspace(self.settings):  # OAuth: each workspace brings its token
            await check_token(self.client)
        self.readiness.warming()
        log.info("warming up: loading and fitting the brain's parts before taking events")
        await self.services.in_brain(warm_up, self.services.brain)
        # Alive before the first claim (a claim of a process with no heartbeat is an orphan);
        # then the answers a crashed earlier run owed (embedded) are given first.
        await asyncio.to_thread(self.services.events.heartbeat, self.settings.slack.claim_lease_s)
        await recovery.sweep(self.services, self.client)
        self.readiness.warmed()
        loop = asyncio.get_running_loop()
        if self._loop_task is None:
            runner = self.services.escalations.run(self.client, client_for=self.client_for)
            self._loop_task = loop.create_task(runner, name="reescalation")
        if self._recovery_task is None:
            sweeper = recovery.run(self.services, self.client)
            self._recovery_task = loop.create_task(sweeper, name="claim-recovery")
        if self._lag_task is None:
            watch = self.services.metrics.watch_loop()
            self._lag_task = loop.create_task(watch, name="loop-lag")
        if self._sweep_task is None:  # stale tickets and SLAs (bot/helpdesk/sweep.py)
            sweeping = sweep.run(self.services, self.client, client_for=self.client_for)
            self._sweep_task = loop.create_task(sweeping, name="sweep")
        if self._jira_task is None:  # [tickets.jira] (bot/helpdesk/jira_sync.py)
            self._jira_task = loop.create_task(self.jira.run(), name="jira-sync")

    async def stop(self, drain_timeout: float = 10.0) -> None:
        """Finish in-flight replies (up to `drain_timeout`), stop the loop, release stores."""
        if self._starting is not None and not self._starting.done():
            await asyncio.gather(self._starting, return_exceptions=True)  # a warm-up thread
        try:
            await self.services.work.drain(timeout=drain_timeout)
        except TimeoutError:
            log.warning("stopping with %d replies unfinished", self.services.work.pending)
            await self.services.work.cancel()
        tasks = (self._loop_task, self._recovery_task, self._lag_task, self._sweep_task)
        for task in (*tasks, self._jira_task):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        self._loop_task = self._recovery_task = self._lag_task = self._sweep_task = None
        self._jira_task = None
        self.services.close()

    async def idle(self, timeout: float = 30.0) -> None:
        """Wait until every background reply is done (tests and benchmarks)."""
        await self.services.work.drain(timeout=timeout)


def build_bot(brain: BrainAPI, settings: Settings) -> SlackBot:
    """The Slack bot over `brain` (credentials and behaviour from `settings.slack`)."""
    return SlackBot(brain, settings)


def build_app(brain: BrainAPI, settings: Settings) -> AsyncApp:
    """Only the Bolt app (use `build_bot` to also get its background work and stores)."""
    return SlackBot(brain, settings).app
