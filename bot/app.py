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
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from bot.listeners import register_all
from bot.metrics import BotMetrics, SlackCallCounter
from bot.services import BotServices
from brain.conversation import BrainAPI
from core.config import ConfigError, Settings

log = logging.getLogger(__name__)

DEFAULT_API_URL = AsyncWebClient.BASE_URL


def web_client(settings: Settings, *, metrics: BotMetrics | None = None) -> AsyncWebClient:
    """A Web API client that retries rate limits (honouring Retry-After), 5xx and lost links
    (and counts failed calls and 429s in `metrics`)."""
    token = settings.slack.bot_token.get_secret_value() if settings.slack.bot_token else ""
    if not token:
        raise ConfigError("SLACK_BOT_TOKEN is not set: the bot needs its xoxb- token")
    base_url = settings.slack.api_url or DEFAULT_API_URL
    if not base_url.endswith("/"):
        base_url += "/"
    return AsyncWebClient(
        token=token,
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
        )
        register_all(self.app, self.services)
        self._loop_task: asyncio.Task[None] | None = None
        self._warm = False

    async def start(self) -> None:
        """Warm the brain up, then start the loop that re-sends unacknowledged alerts."""
        if not self._warm:
            self._warm = True
            await self.services.in_brain(warm_up, self.services.brain)
        if self._loop_task is None:
            runner = self.services.escalations.run(self.client)
            self._loop_task = asyncio.get_running_loop().create_task(runner, name="reescalation")

    async def stop(self, drain_timeout: float = 10.0) -> None:
        """Finish in-flight replies (up to `drain_timeout`), stop the loop, release stores."""
        try:
            await self.services.work.drain(timeout=drain_timeout)
        except TimeoutError:
            log.warning("stopping with %d replies unfinished", self.services.work.pending)
            await self.services.work.cancel()
        if self._loop_task is not None:
            self._loop_task.cancel()
            await asyncio.gather(self._loop_task, return_exceptions=True)
            self._loop_task = None
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
