"""Socket Mode that stays quiet and patient while Slack is unreachable.

slack_sdk's Socket Mode client retries a failed connection every ping interval, forever, and
logs each failure with a full traceback. Here each failure is one log line (the error, no
traceback) and the attempts back off exponentially, from 1 s up to 5 minutes, resetting once
Slack answers again. Every log line of one event's handling carries its Slack event id, as
over HTTP (`bot.metrics_endpoint` binds it there; `bound_to_event` here).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.adapter.socket_mode.aiohttp import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp
from slack_sdk.socket_mode.request import SocketModeRequest
from slack_sdk.web.async_client import AsyncWebClient

from core.logs import bound

#: The Socket Mode client logs here: one line per event, never a traceback.
SOCKET_LOG = logging.getLogger("bot.socket_mode")
FIRST_DELAY_S = 1.0
MAX_DELAY_S = 300.0


class OneLine(logging.Filter):
    """One line per failure: drops the traceback (the message already names the error),
    folds multi-line messages, and drops the SDK's "Failed to retrieve WSS URL" record, which
    the "Failed to connect" record after it repeats."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if message.startswith("Failed to retrieve WSS URL"):
            return False
        if record.exc_info:
            error = record.exc_info[1]
            message = f"{message} [{type(error).__name__}]"
            record.exc_info = None
            record.exc_text = None
        record.msg = " ".join(message.split())
        record.args = None
        return True


if not any(isinstance(f, OneLine) for f in SOCKET_LOG.filters):
    SOCKET_LOG.addFilter(OneLine())


class Backoff:
    """Wraps the client's "issue a new websocket URL" call, the first step of every
    (re)connection: after a failure the next attempt waits 1, 2, 4 ... up to MAX_DELAY_S."""

    def __init__(
        self,
        issue: Callable[[], Awaitable[str]],
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        first: float = FIRST_DELAY_S,
        limit: float = MAX_DELAY_S,
    ) -> None:
        self._issue = issue
        self._sleep = sleep
        self.first = first
        self.limit = limit
        self.failures = 0

    def delay(self) -> float:
        """How long the next attempt waits (0 when the last one worked)."""
        if not self.failures:
            return 0.0
        return min(self.first * 2 ** (self.failures - 1), self.limit)

    async def __call__(self) -> str:
        if self.failures:
            await self._sleep(self.delay())
        try:
            url = await self._issue()
        except Exception:
            self.failures += 1
            raise
        self.failures = 0
        return url


#: What the Socket Mode client calls for each request it receives.
RequestListener = Callable[[Any, SocketModeRequest], Awaitable[None]]


def bound_to_event(listener: RequestListener) -> RequestListener:
    """`listener` with the request's Events API id bound for its logs (and the tasks it
    starts, which inherit the binding), as HTTP events have theirs."""

    async def handle(client: Any, request: SocketModeRequest) -> None:
        payload = request.payload if isinstance(request.payload, dict) else {}
        event_id = payload.get("event_id")
        with bound(event_id=event_id if isinstance(event_id, str) else None):
            await listener(client, request)

    return handle


def socket_mode_handler(
    app: AsyncApp,
    app_token: str,
    web_client: AsyncWebClient,
    *,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> AsyncSocketModeHandler:
    """A Socket Mode connection dispatching to `app`, with one-line logs and backoff."""
    handler = AsyncSocketModeHandler(
        app, app_token=app_token, web_client=web_client, logger=SOCKET_LOG
    )
    client = handler.client
    listeners = client.socket_mode_request_listeners
    listeners[:] = [bound_to_event(listener) for listener in listeners]
    client.issue_new_wss_url = Backoff(client.issue_new_wss_url, sleep=sleep)  # type: ignore[method-assign]
    return handler
