"""Serving the bot: HTTP (aiohttp, `/slack/events` + `/healthz`) or Socket Mode."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.adapter.socket_mode.aiohttp import AsyncSocketModeHandler

from bot.app import SlackBot

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"


def http_app(bot: SlackBot) -> web.Application:
    """An aiohttp application serving Slack's Events API, interactivity and commands."""

    async def events(request: web.Request) -> web.Response:
        bolt_request = await to_bolt_request(request)
        bolt_response = await bot.app.async_dispatch(bolt_request)
        return await to_aiohttp_response(bolt_response)

    async def health(_: web.Request) -> web.Response:
        return web.json_response({"ok": True, "pending": bot.services.work.pending})

    async def lifecycle(_: web.Application) -> AsyncIterator[None]:
        await bot.start()
        yield
        await bot.stop()

    application = web.Application()
    application.router.add_post(EVENTS_PATH, events)
    application.router.add_get(HEALTH_PATH, health)
    application.cleanup_ctx.append(lifecycle)
    return application


def socket_mode_handler(bot: SlackBot, app_token: str) -> AsyncSocketModeHandler:
    """A Socket Mode connection (aiohttp websocket) dispatching to the same app."""
    return AsyncSocketModeHandler(bot.app, app_token=app_token, web_client=bot.client)


async def _wait_for_stop() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()


async def serve_http(bot: SlackBot, host: str, port: int) -> None:
    """Serve HTTP until SIGINT/SIGTERM."""
    runner = web.AppRunner(http_app(bot))
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = runner.addresses[0][1] if runner.addresses else port
    log.info("listening on http://%s:%d%s", host, bound, EVENTS_PATH)
    print(f"brain bot: HTTP mode on http://{host}:{bound}{EVENTS_PATH}", flush=True)
    try:
        await _wait_for_stop()
    finally:
        await runner.cleanup()


async def serve_socket_mode(bot: SlackBot, app_token: str) -> None:
    """Connect over Socket Mode until SIGINT/SIGTERM."""
    handler = socket_mode_handler(bot, app_token)
    await bot.start()
    await handler.connect_async()
    print("brain bot: Socket Mode connected", flush=True)
    try:
        await _wait_for_stop()
    finally:
        await handler.close_async()
        await bot.stop()
